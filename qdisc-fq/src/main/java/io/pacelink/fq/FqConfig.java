package io.pacelink.fq;

import io.pacelink.transport.cc.ControllerParameters;

import java.util.Set;

/**
 * The {@link FqScheduler}'s parameters, validated once at construction. Defaults are sch_fq's {@code fq_init} values
 * ({@code net/sched/sch_fq.c}) for a 1514-byte Ethernet MTU.
 *
 * <table>
 * <caption>parameters</caption>
 * <tr><th>name</th><th>default</th><th>sch_fq</th></tr>
 * <tr><td>{@code fq.quantum} (bytes)</td><td>3028</td><td>{@code quantum} = 2 × MTU</td></tr>
 * <tr><td>{@code fq.initialQuantum} (bytes)</td><td>15140</td><td>{@code initial_quantum} = 10 × MTU</td></tr>
 * <tr><td>{@code fq.maxRate} (bytes/s)</td><td>unlimited</td><td>{@code maxrate}, a cap for every flow</td></tr>
 * <tr><td>{@code fq.lowRateThreshold} (bytes/s)</td><td>68750</td><td>{@code low_rate_threshold} 550 kbit/s</td></tr>
 * <tr><td>{@code fq.flowRefillDelayMs}</td><td>40</td><td>{@code flow_refill_delay}</td></tr>
 * <tr><td>{@code fq.gcAgeMs}</td><td>3000</td><td>{@code FQ_GC_AGE}</td></tr>
 * <tr><td>{@code fq.pacing}</td><td>true</td><td>{@code rate_enable} (tc {@code pacing}/{@code nopacing})</td></tr>
 * <tr><td>{@code fq.perPacketPacing}</td><td>true</td><td>true: each packet's departure is stamped like the Linux
 * TCP stack's EDT ({@code tcp_wstamp_ns}) and fq enforces it; false: sch_fq's own socket-rate pacing, a quantum
 * back to back per {@code quantum / rate}</td></tr>
 * <tr><td>{@code fq.catchUpHorizonUs}</td><td>3000</td><td>per-packet pacing: how far behind its schedule a
 * backlogged flow may fall (the agent woke late) and still send what fell due, back to back — at most this much of
 * its pacing rate, plus what the flow's pacing quantum exceeds 750 µs by ({@code PacingQuantum})</td></tr>
 * <tr><td>{@code fq.catchUpCwndPercent}</td><td>0</td><td>per-packet pacing: the catch-up horizon of a flow is
 * at least the time this share of its congestion window takes at its pacing rate (25, a quarter, is Chromium's QUIC
 * pacing sender's largest burst, {@code kLumpyPacingCwndFraction}), so a sender descheduled for longer than the fixed
 * horizon still sends what fell due, up to that much of its window; 0 (the default) for the fixed horizon
 * alone</td></tr>
 * <tr><td>{@code fq.catchUpDebtUs}</td><td>0</td><td>per-packet pacing: lateness beyond the catch-up horizon,
 * up to this much, is repaid gradually instead of forgotten: each later packet of the flow leaves up to a quarter of
 * its gap early (at most 4/3 of its pacing rate) until the debt is repaid; idle time clears it. 0 (the default)
 * forgets all lateness beyond the horizon</td></tr>
 * <tr><td>{@code fq.releaseAhead}</td><td>true</td><td>per-packet pacing under a real-clock agent that sleeps in
 * pacing quanta (the default profile): a flow whose deadline has come sends ahead of its schedule by up to its
 * pacing quantum, then waits throttled until its schedule is due again, so each wake sends a quantum of the rate
 * (Linux TCP's TSO burst of about 1 ms, {@code tcp_tso_autosize}, which sch_fq releases as one unit); false: only
 * what is due now. The simulator never releases ahead</td></tr>
 * <tr><td>{@code fq.releaseAheadMaxBytes}</td><td>65536</td><td>releasing ahead: a release sent on time is at most
 * this many bytes, so the ahead is the smaller of the pacing quantum and the time these bytes, less one datagram,
 * take at the pacing rate. 64 KiB is the bound Linux puts on a TSO burst ({@code tcp_tso_autosize} caps its
 * millisecond of rate at the device's {@code gso_max_size}, 64 KiB: 44 segments of 1448 bytes) and the most one UDP
 * GSO send carries; a whole quantum at 1 Gbit/s is 64 datagrams, which cost a 1-BDP drop-tail bottleneck queue
 * drops (perf/FINDINGS.md, branches {@code cpu17} and {@code cpu18})</td></tr>
 * </table>
 */
public final class FqConfig
{
    /**
     * Prefix of every parameter; unknown names with it are rejected.
     */
    public static final String PREFIX = FqScheduler.NAME + ".";

    /**
     * Parameter name: DRR quantum and paced burst, bytes.
     */
    public static final String QUANTUM = PREFIX + "quantum";

    /**
     * Parameter name: credit of a new flow, bytes.
     */
    public static final String INITIAL_QUANTUM = PREFIX + "initialQuantum";

    /**
     * Parameter name: pacing-rate cap applied to every flow, bytes per second.
     */
    public static final String MAX_RATE = PREFIX + "maxRate";

    /**
     * Parameter name: at or below this rate every packet is paced individually, bytes per second.
     */
    public static final String LOW_RATE_THRESHOLD = PREFIX + "lowRateThreshold";

    /**
     * Parameter name: idle time after which a returning flow regains at least one quantum, milliseconds.
     */
    public static final String FLOW_REFILL_DELAY_MS = PREFIX + "flowRefillDelayMs";

    /**
     * Parameter name: idle time after which a flow's state is garbage collected, milliseconds.
     */
    public static final String GC_AGE_MS = PREFIX + "gcAgeMs";

    /**
     * Parameter name: pace flows (true) or only fair-queue them (false).
     */
    public static final String PACING = PREFIX + "pacing";

    /**
     * Parameter name: pace packet by packet (true) or in quantum-sized bursts as sch_fq paces sockets without
     * departure times (false).
     */
    public static final String PER_PACKET_PACING = PREFIX + "perPacketPacing";

    /**
     * Parameter name: per-packet pacing's catch-up horizon, microseconds: a backlogged flow released late sends what
     * fell due in at most this much of its schedule back to back; a flow whose pacing quantum is longer than the
     * shortest ({@code PacingQuantum.catchUpHorizonNs}) gets the difference on top.
     */
    public static final String CATCH_UP_HORIZON_US = PREFIX + "catchUpHorizonUs";

    /**
     * Parameter name: per-packet pacing's catch-up debt, microseconds: how much lateness beyond the catch-up horizon a
     * backlogged flow repays gradually, each later packet leaving up to a quarter of its gap early.
     */
    public static final String CATCH_UP_DEBT_US = PREFIX + "catchUpDebtUs";

    /**
     * Parameter name: per-packet pacing's catch-up horizon is at least the time this percentage of the flow's
     * congestion window takes at its pacing rate (0 to 100; 0: the fixed horizon alone).
     */
    public static final String CATCH_UP_CWND_PERCENT = PREFIX + "catchUpCwndPercent";

    /**
     * Parameter name: per-packet pacing under a real-clock agent that sleeps in pacing quanta: a flow whose deadline
     * has come may send ahead of its schedule by up to its pacing quantum (true), or only what is due now (false).
     */
    public static final String RELEASE_AHEAD = PREFIX + "releaseAhead";

    /**
     * Parameter name: releasing ahead, the most bytes a release sent on time may carry.
     */
    public static final String RELEASE_AHEAD_MAX_BYTES = PREFIX + "releaseAheadMaxBytes";

    /**
     * Default bound on a release sent ahead: 64 KiB, Linux's bound on a TSO burst ({@code tcp_tso_autosize} in
     * {@code net/ipv4/tcp_output.c} sizes it at about 1 ms of the pacing rate, capped by the device's
     * {@code gso_max_size}, {@code GSO_LEGACY_MAX_SIZE} 65,536), so above 500 Mbit/s a release is what one TSO packet
     * or one UDP GSO send carries, not a whole pacing quantum.
     */
    public static final int DEFAULT_RELEASE_AHEAD_MAX_BYTES = 65_536;

    /**
     * Ethernet MTU including the link header, as sch_fq's {@code psched_mtu()} reports it.
     */
    public static final int ETHERNET_MTU_BYTES = 1514;

    /**
     * Default quantum: 2 × MTU.
     */
    public static final int DEFAULT_QUANTUM_BYTES = 2 * ETHERNET_MTU_BYTES;

    /**
     * Default initial quantum: 10 × MTU.
     */
    public static final int DEFAULT_INITIAL_QUANTUM_BYTES = 10 * ETHERNET_MTU_BYTES;

    /**
     * No rate cap.
     */
    public static final long UNLIMITED_RATE = Long.MAX_VALUE;

    /**
     * Default low-rate threshold: 550 kbit/s in bytes per second.
     */
    public static final long DEFAULT_LOW_RATE_THRESHOLD_BYTES_PER_SECOND = 550_000L / 8;

    /**
     * Default flow refill delay: 40 ms.
     */
    public static final long DEFAULT_FLOW_REFILL_DELAY_MS = 40L;

    /**
     * Default garbage-collection age of idle flows: 3 s.
     */
    public static final long DEFAULT_GC_AGE_MS = 3_000L;

    /**
     * sch_fq accepts quanta up to 1 MiB ({@code fq_change}).
     */
    public static final int MAX_QUANTUM_BYTES = 1 << 20;

    /**
     * Default catch-up horizon: 3 ms, the shortest pacing quantum (750 µs) plus 2.25 ms for the wake-up's own
     * lateness. A user-space sender that shares its cores (with its receiver, a path emulator's real-time threads,
     * the JIT compilers) is descheduled for longer than a timer's slack now and then, and every microsecond of
     * lateness beyond the horizon is rate it never sends: through an emulated 1 Gbit/s path a BBR sender with a 1 ms
     * horizon reached 0.86 of kernel TCP's rate, with 3 ms 0.94 (perf/FINDINGS.md). Chromium's QUIC pacing sender
     * lets a pacing-limited sender make up all lost time ({@code quic/core/congestion_control/pacing_sender.cc}:
     * {@code ideal_next_packet_send_time_ += delay} while {@code pacing_limited_}); a bound in time still keeps the
     * burst after a long stall (a collection, a safepoint) to 3 ms of the rate, under a third of the BDP of a
     * 10 ms path.
     */
    public static final long DEFAULT_CATCH_UP_HORIZON_US = 3_000L;

    /**
     * Default catch-up debt: none, lateness beyond the horizon is forgotten. A user-space sender on shared cores is
     * descheduled past the 3-ms horizon tens of times a second (at 1 Gbit/s through an emulated path 2 to 20 % of the
     * schedule's time was forgotten that way); a 10 ms debt, repaid at up to a third over the pacing rate, cut that
     * to 0 to 5 % but gave no more rate there (perf/FINDINGS.md, section {@code thr10}), so it is an operator's
     * choice, not the default. Chromium's QUIC pacing sender makes up all lost time while pacing-limited; a bound
     * keeps a sender that cannot keep up at all from carrying an ever larger debt into a slower phase of its
     * controller.
     */
    public static final long DEFAULT_CATCH_UP_DEBT_US = 0L;

    /**
     * Default share of the congestion window a late release catches up whatever the fixed horizon: none (the fixed
     * horizon alone). A user-space sender on two cores shared with its receiver and a path emulator's real-time
     * threads is runnable but not running for milliseconds at a time, and through an emulated 500 Mbit/s, 38 ms path
     * with 1 % loss the 3-ms horizon forgot 17 to 21 % of a BBR sender's schedule, about the rate it lacked against
     * kernel TCP, whose pacing timer runs in softirq context. With a quarter of the window (25, Chromium's QUIC pacing
     * sender's largest burst, {@code kLumpyPacingCwndFraction} in {@code pacing_sender.cc}) the same sender moved
     * 1.10 times as much (0.95 of kernel TCP) but, sending at last at a BBRv1 bandwidth estimate 5 to 18 % above
     * the link, overfilled the bottleneck's queue (6 to 12 times the retransmissions) and at 1 Gbit/s the sender's CPU
     * rose past its budget (perf/FINDINGS.md, section {@code thr15}): an operator's choice until the estimate is
     * fixed, not the default.
     */
    public static final long DEFAULT_CATCH_UP_CWND_PERCENT = 0L;

    /**
     * The largest catch-up horizon: 1 s, as sch_fq clamps a packet's delay.
     */
    public static final long MAX_CATCH_UP_HORIZON_US = 1_000_000L;

    private static final long MAX_DURATION_MS = 3_600_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final long NANOS_PER_MICRO = 1_000L;
    private static final Set<String> NAMES = Set.of(
        QUANTUM, INITIAL_QUANTUM, MAX_RATE, LOW_RATE_THRESHOLD, FLOW_REFILL_DELAY_MS, GC_AGE_MS, PACING,
        PER_PACKET_PACING, CATCH_UP_HORIZON_US, CATCH_UP_DEBT_US, CATCH_UP_CWND_PERCENT, RELEASE_AHEAD,
        RELEASE_AHEAD_MAX_BYTES);
    private static final FqConfig DEFAULTS = from(ControllerParameters.EMPTY);

    private final int quantumBytes;
    private final int initialQuantumBytes;
    private final long maxRateBytesPerSecond;
    private final long lowRateThresholdBytesPerSecond;
    private final long flowRefillDelayNs;
    private final long gcAgeNs;
    private final boolean pacing;
    private final boolean perPacketPacing;
    private final long catchUpHorizonNs;
    private final long catchUpDebtNs;
    private final int catchUpCwndPercent;
    private final boolean releaseAhead;
    private final int releaseAheadMaxBytes;

    private FqConfig(final ControllerParameters parameters)
    {
        parameters.rejectUnknown(PREFIX, NAMES);
        quantumBytes = (int)parameters.getLong(QUANTUM, DEFAULT_QUANTUM_BYTES, 1, MAX_QUANTUM_BYTES);
        initialQuantumBytes = (int)parameters.getLong(
            INITIAL_QUANTUM, DEFAULT_INITIAL_QUANTUM_BYTES, 0, Integer.MAX_VALUE);
        maxRateBytesPerSecond = parameters.getLong(MAX_RATE, UNLIMITED_RATE, 1, UNLIMITED_RATE);
        lowRateThresholdBytesPerSecond = parameters.getLong(
            LOW_RATE_THRESHOLD, DEFAULT_LOW_RATE_THRESHOLD_BYTES_PER_SECOND, 0, UNLIMITED_RATE - 1);
        flowRefillDelayNs = parameters.getLong(
            FLOW_REFILL_DELAY_MS, DEFAULT_FLOW_REFILL_DELAY_MS, 0, MAX_DURATION_MS) * NANOS_PER_MILLI;
        gcAgeNs = parameters.getLong(GC_AGE_MS, DEFAULT_GC_AGE_MS, 1, MAX_DURATION_MS) * NANOS_PER_MILLI;
        pacing = parameters.getBoolean(PACING, true);
        perPacketPacing = parameters.getBoolean(PER_PACKET_PACING, true);
        catchUpHorizonNs = parameters.getLong(
            CATCH_UP_HORIZON_US, DEFAULT_CATCH_UP_HORIZON_US, 0, MAX_CATCH_UP_HORIZON_US) * NANOS_PER_MICRO;
        catchUpDebtNs = parameters.getLong(
            CATCH_UP_DEBT_US, DEFAULT_CATCH_UP_DEBT_US, 0, MAX_CATCH_UP_HORIZON_US) * NANOS_PER_MICRO;
        catchUpCwndPercent = (int)parameters.getLong(CATCH_UP_CWND_PERCENT, DEFAULT_CATCH_UP_CWND_PERCENT, 0, 100);
        releaseAhead = parameters.getBoolean(RELEASE_AHEAD, true);
        releaseAheadMaxBytes = (int)parameters.getLong(
            RELEASE_AHEAD_MAX_BYTES, DEFAULT_RELEASE_AHEAD_MAX_BYTES, 1, MAX_QUANTUM_BYTES);
    }

    /**
     * @param parameters named parameters; those starting with {@code fq.} must be known.
     * @return the validated configuration.
     * @throws IllegalArgumentException naming a parameter that is unknown, not a number or out of range.
     */
    public static FqConfig from(final ControllerParameters parameters)
    {
        return new FqConfig(parameters);
    }

    /**
     * @return sch_fq's defaults.
     */
    public static FqConfig defaults()
    {
        return DEFAULTS;
    }

    /**
     * @return the parameter names this configuration reads.
     */
    public static Set<String> names()
    {
        return NAMES;
    }

    /**
     * @return DRR quantum, and the burst a paced flow sends back to back, bytes.
     */
    public int quantumBytes()
    {
        return quantumBytes;
    }

    /**
     * @return credit of a new flow, bytes.
     */
    public int initialQuantumBytes()
    {
        return initialQuantumBytes;
    }

    /**
     * @return pacing-rate cap of every flow in bytes per second, {@link #UNLIMITED_RATE} for none.
     */
    public long maxRateBytesPerSecond()
    {
        return maxRateBytesPerSecond;
    }

    /**
     * @return at or below this rate every packet is paced individually, bytes per second.
     */
    public long lowRateThresholdBytesPerSecond()
    {
        return lowRateThresholdBytesPerSecond;
    }

    /**
     * @return idle time after which a returning flow regains at least one quantum.
     */
    public long flowRefillDelayNs()
    {
        return flowRefillDelayNs;
    }

    /**
     * @return idle time after which a flow's state is garbage collected.
     */
    public long gcAgeNs()
    {
        return gcAgeNs;
    }

    /**
     * @return true if flows are paced, false for fair queueing only.
     */
    public boolean pacing()
    {
        return pacing;
    }

    /**
     * @return true if a paced flow's packets leave {@code len / rate} apart (the departure times the Linux TCP stack
     * stamps and sch_fq enforces), false for sch_fq's quantum-sized bursts every {@code quantum / rate}.
     */
    public boolean perPacketPacing()
    {
        return perPacketPacing;
    }

    /**
     * @return how far behind its per-packet pacing schedule a backlogged flow may fall and still send what fell due,
     * back to back.
     */
    public long catchUpHorizonNs()
    {
        return catchUpHorizonNs;
    }

    /**
     * @return how much lateness beyond the catch-up horizon a backlogged flow repays gradually.
     */
    public long catchUpDebtNs()
    {
        return catchUpDebtNs;
    }

    /**
     * @return the percentage of a flow's congestion window its catch-up horizon covers at least, at its pacing rate
     * (0: none, the fixed horizon alone).
     */
    public int catchUpCwndPercent()
    {
        return catchUpCwndPercent;
    }

    /**
     * @return true if, under a real-clock agent that sleeps in pacing quanta, a flow whose deadline has come may send
     * ahead of its per-packet schedule by up to its pacing quantum ({@link FqScheduler#releaseAheadInQuanta}).
     */
    public boolean releaseAhead()
    {
        return releaseAhead;
    }

    /**
     * @return releasing ahead, the most bytes a release sent on time may carry: the ahead is at most the time these
     * bytes less one datagram take at the flow's pacing rate.
     */
    public int releaseAheadMaxBytes()
    {
        return releaseAheadMaxBytes;
    }

    public String toString()
    {
        return "FqConfig{quantumBytes=" + quantumBytes +
            ", initialQuantumBytes=" + initialQuantumBytes +
            ", maxRateBytesPerSecond=" + maxRateBytesPerSecond +
            ", lowRateThresholdBytesPerSecond=" + lowRateThresholdBytesPerSecond +
            ", flowRefillDelayNs=" + flowRefillDelayNs +
            ", gcAgeNs=" + gcAgeNs +
            ", pacing=" + pacing +
            ", perPacketPacing=" + perPacketPacing +
            ", catchUpHorizonNs=" + catchUpHorizonNs +
            ", catchUpDebtNs=" + catchUpDebtNs +
            ", catchUpCwndPercent=" + catchUpCwndPercent +
            ", releaseAhead=" + releaseAhead +
            ", releaseAheadMaxBytes=" + releaseAheadMaxBytes +
            '}';
    }
}
