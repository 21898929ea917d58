package io.pacelink.perf.path;

import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.recovery.LossRecovery;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.SplittableRandom;

/**
 * One backlogged connection over one bottleneck, in virtual time: the sender is the real {@link LossRecovery} with
 * its controller, the receiver the real {@link ReceivedPacketTracker} (an ACK every second packet or after its max
 * ACK delay, at once on a gap), and between them a drop-tail FIFO of fixed rate with random losses. The whole
 * propagation delay sits on the forward path and ACKs reach the sender the moment they are sent, so the sender
 * always acts on the receiver's current ranges; the RTT is the same as with the delay split.
 * <p>
 * The sender sends while bytes in flight are below the congestion window and the pacer allows (a packet every
 * {@code size / pacingRate}, with one send quantum of burst credit), plus the probes a PTO owes whatever the window.
 * Used to record realistic controller traces; deterministic for a given seed.
 */
public final class PathDriver
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long NEVER = Long.MAX_VALUE;
    private static final int ARRIVAL_CAPACITY = 1 << 16;
    private static final int ARRIVAL_MASK = ARRIVAL_CAPACITY - 1;
    private static final int ACK_PACKET_CAPACITY_BYTES = 1500;
    private static final long RECEIVER_CONNECTION_ID = 1;
    private static final int MAX_EVENTS_AT_ONE_INSTANT = 1_000_000;

    private final LossRecovery recovery;
    private final CongestionController controller;
    private final PathConfig path;
    private final SplittableRandom lossRandom;
    private final ReceivedPacketTracker tracker = new ReceivedPacketTracker();
    private final TrackerAckRanges ackRanges = new TrackerAckRanges(tracker);
    private final PacketWriter ackWriter = new PacketWriter();
    private final UnsafeBuffer ackBuffer = new UnsafeBuffer(new byte[ACK_PACKET_CAPACITY_BYTES]);
    private final OutcomeCounter outcomes = new OutcomeCounter();

    private final long[] arrivalNs = new long[ARRIVAL_CAPACITY];
    private final long[] arrivalPacketNumber = new long[ARRIVAL_CAPACITY];
    private long arrivalHead;
    private long arrivalTail;

    private long nowNs;
    private long nextPacketNumber;
    private long nextAckPacketNumber;
    private long nextPacingNs;
    private long lastDepartureNs;
    private long largestArrivalNs;

    /**
     * @param recovery the sender's loss recovery, its controller already set.
     * @param path     the path.
     * @param startNs  virtual time of the first event.
     */
    public PathDriver(final LossRecovery recovery, final PathConfig path, final long startNs)
    {
        if (null == recovery.controller())
        {
            throw new IllegalArgumentException("set the recovery's controller first");
        }
        this.recovery = recovery;
        this.controller = recovery.controller();
        this.path = path;
        this.lossRandom = new SplittableRandom(path.seed());
        this.nowNs = startNs;
        this.nextPacingNs = startNs;
        this.lastDepartureNs = startNs;
    }

    /**
     * Process every event up to and including {@code endNs}; afterwards {@link #nowNs()} is {@code endNs}.
     *
     * @param endNs virtual end time.
     */
    public void runUntil(final long endNs)
    {
        int eventsAtThisInstant = 0;
        long previousNs = nowNs;
        while (true)
        {
            final long arrivalAtNs = arrivalHead < arrivalTail ? arrivalNs[(int)(arrivalHead & ARRIVAL_MASK)] : NEVER;
            final long ackDueAtNs = tracker.ackDeadlineNs();
            final long timerAtNs = recovery.timerDeadlineNs();
            final long sendAtNs = nextSendNs();
            final long nextNs = Math.max(nowNs,
                Math.min(Math.min(arrivalAtNs, ackDueAtNs), Math.min(timerAtNs, sendAtNs)));
            if (nextNs > endNs)
            {
                nowNs = endNs;
                return;
            }

            eventsAtThisInstant = nextNs == previousNs ? eventsAtThisInstant + 1 : 0;
            if (eventsAtThisInstant > MAX_EVENTS_AT_ONE_INSTANT)
            {
                throw new IllegalStateException("path driver stuck at " + nextNs + " ns");
            }
            previousNs = nextNs;
            nowNs = nextNs;

            if (arrivalAtNs <= nowNs)
            {
                receive();
            }
            else if (ackDueAtNs <= nowNs)
            {
                sendAck();
            }
            else if (timerAtNs <= nowNs)
            {
                recovery.onTimeout(nowNs, outcomes);
            }
            else
            {
                send();
            }
        }
    }

    /**
     * @param durationNs how long to run from now.
     */
    public void runFor(final long durationNs)
    {
        runUntil(nowNs + durationNs);
    }

    /**
     * @return virtual time.
     */
    public long nowNs()
    {
        return nowNs;
    }

    private long nextSendNs()
    {
        if (!recovery.canSend())
        {
            return NEVER;
        }
        if (recovery.probesToSend() > 0)
        {
            return nowNs;
        }
        if (recovery.bytesInFlight() >= controller.congestionWindowBytes())
        {
            return NEVER;
        }
        return Math.max(nowNs, nextPacingNs);
    }

    private void send()
    {
        final boolean isProbe = recovery.probesToSend() > 0;
        final long packetNumber = nextPacketNumber++;
        final int sizeBytes = path.packetSizeBytes();
        recovery.onPacketSent(
            packetNumber, nowNs, sizeBytes, true, true, packetNumber * sizeBytes, sizeBytes, false, 0, false);
        if (isProbe)
        {
            recovery.onProbeSent();
        }
        advancePacer(sizeBytes);

        if (isDropped(sizeBytes))
        {
            return;
        }
        final long departureNs =
            Math.max(nowNs, lastDepartureNs) + sizeBytes * NANOS_PER_SECOND / path.bottleneckBytesPerSecond();
        lastDepartureNs = departureNs;
        if (arrivalTail - arrivalHead == ARRIVAL_CAPACITY)
        {
            throw new IllegalStateException("more than " + ARRIVAL_CAPACITY + " packets on the path");
        }
        final int slot = (int)(arrivalTail++ & ARRIVAL_MASK);
        arrivalNs[slot] = departureNs + path.propagationRttNs();
        arrivalPacketNumber[slot] = packetNumber;
    }

    private boolean isDropped(final int sizeBytes)
    {
        if (path.randomLossProbability() > 0 && lossRandom.nextDouble() < path.randomLossProbability())
        {
            return true;
        }
        final long queuedBytes =
            Math.max(0, lastDepartureNs - nowNs) * path.bottleneckBytesPerSecond() / NANOS_PER_SECOND;
        return queuedBytes + sizeBytes > path.bufferBytes();
    }

    /**
     * Next release {@code size / rate} after the previous one, but a sender that fell behind may catch up by one
     * send quantum back to back (design.md section 7).
     */
    private void advancePacer(final int sizeBytes)
    {
        final long rateBytesPerSecond = controller.pacingRateBytesPerSecond();
        if (rateBytesPerSecond <= 0 || Long.MAX_VALUE == rateBytesPerSecond)
        {
            nextPacingNs = nowNs;
            return;
        }
        final long quantumNs = controller.sendQuantumBytes() * NANOS_PER_SECOND / rateBytesPerSecond;
        final long gapNs = sizeBytes * NANOS_PER_SECOND / rateBytesPerSecond;
        nextPacingNs = Math.max(nextPacingNs, nowNs - quantumNs) + gapNs;
    }

    private void receive()
    {
        final int slot = (int)(arrivalHead++ & ARRIVAL_MASK);
        tracker.onPacketReceived(arrivalPacketNumber[slot], true, nowNs);
        largestArrivalNs = nowNs;
        if (tracker.isAckDue(nowNs))
        {
            sendAck();
        }
    }

    private void sendAck()
    {
        // The sender has data queued at all times: never application-limited.
        recovery.onAppLimitedCheck(Long.MAX_VALUE, true, true);
        final int result = recovery.onAckReceived(ackRanges, nowNs - largestArrivalNs, nowNs, outcomes);
        if (result < 0)
        {
            throw new IllegalStateException("recovery rejected an ACK: " + result);
        }

        // Writing the frame is how the tracker learns the ACK went out (its counters and deadline reset).
        ackWriter.wrap(ackBuffer, 0, ACK_PACKET_CAPACITY_BYTES);
        ackWriter.writeHeader(PacketType.ONE_RTT, RECEIVER_CONNECTION_ID, nextAckPacketNumber++);
        tracker.writeAckFrame(ackWriter, nowNs);
    }
}
