package io.pacelink.cubic;

import io.pacelink.transport.cc.ControllerCounters;
import io.pacelink.transport.cc.WindowController;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Linux's HyStart ({@code net/ipv4/tcp_cubic.c}, {@code hystart_update} and {@code bictcp_acked}, Linux 5.7 and
 * later), with its constants: once cwnd has reached {@value #LOW_WINDOW_PACKETS} packets, slow start ends (ssthresh =
 * cwnd, straight to congestion avoidance, no Conservative Slow Start) when either detector fires:
 * <ul>
 * <li><b>ACK train</b>: the ACKs of a round keep arriving less than {@value #ACK_DELTA_NS} ns apart for longer than
 * the connection's minimum RTT plus a cushion of up to 1 ms ({@code hystart_ack_delay}): the round's flight took
 * longer than an RTT to be delivered, so the bottleneck is busy all the time.</li>
 * <li><b>Delay increase</b>: from the {@value #MIN_SAMPLES}th RTT sample of a round on, the round's minimum exceeds
 * the connection's minimum by {@code clamp(minimum / 8, 4 ms, 16 ms)}: a queue has formed.</li>
 * </ul>
 * Rounds are delimited by packet number ({@link PacketNumberRounds}, Linux's {@code end_seq = snd_nxt}). The
 * connection's minimum RTT ({@code delay_min}) is taken from every RTT sample. Linux halves the ACK-train threshold for
 * a sender that does not pace; Pacelink's window controllers always set a pacing rate, so the paced threshold is used.
 * After persistent congestion, Linux's retransmission timeout, everything restarts as in Linux's {@code TCP_CA_Loss}
 * handling ({@code bictcp_reset}, {@code bictcp_hystart_reset}); an ordinary congestion event leaves the state alone
 * (ssthresh ends slow start). Each detection is counted like Linux's {@code TCPHystartTrainDetect},
 * {@code TCPHystartTrainCwnd}, {@code TCPHystartDelayDetect} and {@code TCPHystartDelayCwnd}.
 */
final class LinuxHyStart implements HyStart
{
    /**
     * Counter name: how often the ACK-train detector ended slow start.
     */
    static final String TRAIN_DETECT_COUNTER = "cubic-hystart-train-detect";

    /**
     * Counter name: the cwnd, in packets, at which the ACK-train detector last fired.
     */
    static final String TRAIN_CWND_COUNTER = "cubic-hystart-train-cwnd-packets";

    /**
     * Counter name: how often the delay-increase detector ended slow start.
     */
    static final String DELAY_DETECT_COUNTER = "cubic-hystart-delay-detect";

    /**
     * Counter name: the cwnd, in packets, at which the delay-increase detector last fired.
     */
    static final String DELAY_CWND_COUNTER = "cubic-hystart-delay-cwnd-packets";

    /**
     * {@code hystart_low_window}: HyStart watches only from this window on.
     */
    static final int LOW_WINDOW_PACKETS = 16;

    /**
     * {@code hystart_ack_delta_us = 2000}: ACKs closer than this belong to one train.
     */
    static final long ACK_DELTA_NS = 2_000_000L;

    /**
     * {@code HYSTART_MIN_SAMPLES}: RTT samples of a round before its minimum is judged.
     */
    static final int MIN_SAMPLES = 8;

    /**
     * {@code HYSTART_DELAY_MIN}: the delay threshold is at least 4 ms.
     */
    static final long DELAY_THRESHOLD_MIN_NS = 4_000_000L;

    /**
     * {@code HYSTART_DELAY_MAX}: the delay threshold is at most 16 ms.
     */
    static final long DELAY_THRESHOLD_MAX_NS = 16_000_000L;

    /**
     * {@code hystart_ack_delay} caps its cushion at {@code USEC_PER_MSEC}.
     */
    static final long MAX_ACK_TRAIN_CUSHION_NS = 1_000_000L;

    /**
     * {@code hystart_ack_delay} allows four GSO bursts of {@code sk_gso_max_size} at the pacing rate: the largest burst
     * Pacelink's window controllers send at once is their send quantum's cap.
     */
    static final long ACK_TRAIN_CUSHION_BURST_BYTES = 4L * WindowController.MAX_SEND_QUANTUM_BYTES;

    private static final long NO_RTT = Long.MAX_VALUE;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final PacketNumberRounds rounds = new PacketNumberRounds();
    private final AtomicCounter trainDetectCounter;
    private final AtomicCounter trainCwndCounter;
    private final AtomicCounter delayDetectCounter;
    private final AtomicCounter delayCwndCounter;

    private boolean isFound;
    private long delayMinNs = NO_RTT;
    private long roundStartNs;
    private long lastAckNs;
    private long currentRoundMinRttNs = NO_RTT;
    private int sampleCount;

    /**
     * @param counters where the detection counters are registered.
     */
    LinuxHyStart(final ControllerCounters counters)
    {
        trainDetectCounter = counters.newCounter(TRAIN_DETECT_COUNTER);
        trainCwndCounter = counters.newCounter(TRAIN_CWND_COUNTER);
        delayDetectCounter = counters.newCounter(DELAY_DETECT_COUNTER);
        delayCwndCounter = counters.newCounter(DELAY_CWND_COUNTER);
    }

    public void onPacketSent(final long packetNumber)
    {
        rounds.onPacketSent(packetNumber);
    }

    /**
     * {@code bictcp_acked}: every RTT sample lowers {@code delay_min}; in slow start with at least
     * {@value #LOW_WINDOW_PACKETS} packets of cwnd and nothing found yet, {@code hystart_update} runs both detectors.
     */
    public boolean onAck(
        final long nowNs,
        final long largestAckedPacketNumber,
        final long latestRttNs,
        final boolean isInSlowStart,
        final long congestionWindowPackets,
        final long pacingRateBytesPerSecond)
    {
        // "Some calls are for duplicates without timestamps."
        if (latestRttNs < 0)
        {
            return false;
        }
        final long delayNs = Math.max(1, latestRttNs);
        delayMinNs = Math.min(delayMinNs, delayNs);

        if (isFound || !isInSlowStart || congestionWindowPackets < LOW_WINDOW_PACKETS)
        {
            return false;
        }

        if (rounds.onAck(largestAckedPacketNumber))
        {
            // bictcp_hystart_reset
            roundStartNs = nowNs;
            lastAckNs = nowNs;
            currentRoundMinRttNs = NO_RTT;
            sampleCount = 0;
        }

        // First detector: the ACK train. Only ACKs that keep the train going extend it.
        if (nowNs - lastAckNs <= ACK_DELTA_NS)
        {
            lastAckNs = nowNs;
            final long thresholdNs = delayMinNs + ackTrainCushionNs(pacingRateBytesPerSecond);
            if (nowNs - roundStartNs > thresholdNs)
            {
                isFound = true;
                trainDetectCounter.incrementRelease();
                trainCwndCounter.setRelease(congestionWindowPackets);
            }
        }

        // Second detector: the minimum RTT of the round's samples, from the ninth on.
        currentRoundMinRttNs = Math.min(currentRoundMinRttNs, delayNs);
        if (sampleCount < MIN_SAMPLES)
        {
            sampleCount++;
        }
        else if (currentRoundMinRttNs > delayMinNs + delayThresholdNs(delayMinNs))
        {
            isFound = true;
            delayDetectCounter.incrementRelease();
            delayCwndCounter.setRelease(congestionWindowPackets);
        }
        return isFound;
    }

    /**
     * Linux leaves HyStart alone on a loss: ssthresh has ended slow start.
     */
    public void onCongestionEvent()
    {
    }

    /**
     * The undone reduction restored slow start; HyStart carries on where it was.
     */
    public void onCongestionEventUndone()
    {
    }

    /**
     * {@code bictcp_state(TCP_CA_Loss)}: {@code bictcp_reset} clears {@code found} and {@code delay_min}, and the next
     * ACK in slow start begins a new round.
     */
    public void onPersistentCongestion()
    {
        isFound = false;
        delayMinNs = NO_RTT;
        currentRoundMinRttNs = NO_RTT;
        sampleCount = 0;
    }

    public boolean isInConservativeSlowStart()
    {
        return false;
    }

    /**
     * @param delayMinNs the connection's minimum RTT.
     * @return {@code HYSTART_DELAY_THRESH(delay_min >> 3)}.
     */
    static long delayThresholdNs(final long delayMinNs)
    {
        return Math.max(DELAY_THRESHOLD_MIN_NS, Math.min(delayMinNs >> 3, DELAY_THRESHOLD_MAX_NS));
    }

    /**
     * {@code hystart_ack_delay}: room for GSO/GRO aggregation of the ACKs, four bursts at the pacing rate, at most
     * 1 ms.
     *
     * @param pacingRateBytesPerSecond the sender's pacing rate; 0 if none.
     * @return the cushion added to the minimum RTT.
     */
    static long ackTrainCushionNs(final long pacingRateBytesPerSecond)
    {
        if (pacingRateBytesPerSecond <= 0)
        {
            return 0;
        }
        return Math.min(MAX_ACK_TRAIN_CUSHION_NS, ACK_TRAIN_CUSHION_BURST_BYTES * NANOS_PER_SECOND /
            pacingRateBytesPerSecond);
    }
}
