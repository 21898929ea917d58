package io.pacelink.perf;

import io.pacelink.perf.path.PeriodicLossAckRanges;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.recovery.LossRecovery;
import io.pacelink.transport.recovery.RecoveryConfig;
import io.pacelink.transport.recovery.SentPacketDescriptor;
import io.pacelink.transport.testing.OutcomeCounter;
import io.pacelink.transport.testing.TestControllerContext;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Per-packet cost of the sender's whole recovery path: {@link LossRecovery#onPacketSent} for one packet and
 * {@link LossRecovery#onAckReceived} for the ACK frame that acknowledges the packet sent one RTT earlier, including
 * the RTT estimator, the rate sampler, loss detection and the controller's callbacks.
 * <p>
 * A steady 100 Mbit/s flow of 1200-byte packets (send intervals jittered ±25 %, seeded) over a 20 ms RTT keeps
 * {@link #IN_FLIGHT_PACKETS} packets in flight; the receiver gets every packet but one in {@link #LOSS_PERIOD} (1 %
 * loss), acknowledges each packet it gets at once, and reports up to {@link #MAX_ACK_RANGES} ranges. Each lost packet
 * is declared lost by the packet threshold three ACKs later, so the measured op includes a loss batch 1 % of the time.
 * The sender does not wait for the congestion window: this measures the bookkeeping, not the control loop.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = { BenchmarkJvm.ADD_EXPORTS_MISC, BenchmarkJvm.ADD_OPENS_MISC })
@State(Scope.Thread)
public class LossRecoveryBenchmark
{
    /**
     * Size of every packet.
     */
    public static final int PACKET_SIZE_BYTES = 1200;

    /**
     * Mean time between sends: 1200 bytes at 100 Mbit/s.
     */
    public static final long MEAN_SEND_INTERVAL_NS = 96_000L;

    /**
     * Packets in flight: a 20 ms RTT at 100 Mbit/s.
     */
    public static final int IN_FLIGHT_PACKETS = 208;

    /**
     * One packet in this many never arrives.
     */
    public static final long LOSS_PERIOD = 100;

    /**
     * Ranges per ACK frame at most.
     */
    public static final int MAX_ACK_RANGES = 4;

    private static final int INTERVAL_TABLE_SIZE = 1024;
    private static final int INTERVAL_TABLE_MASK = INTERVAL_TABLE_SIZE - 1;
    private static final long SEED = 42;
    private static final long START_NS = 1_000_000_000L;

    /**
     * The congestion controller behind the recovery.
     */
    @Param({ "reno" })
    public String controller;

    private final long[] sendIntervalNs = new long[INTERVAL_TABLE_SIZE];
    private final PeriodicLossAckRanges ackRanges = new PeriodicLossAckRanges(LOSS_PERIOD, MAX_ACK_RANGES);
    private final OutcomeCounter outcomes = new OutcomeCounter();
    private LossRecovery lossRecovery;
    private final SentPacketDescriptor sent = new SentPacketDescriptor();
    private long nextPacketNumber;
    private long nowNs;

    /**
     * Build the recovery and fill the pipe.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < INTERVAL_TABLE_SIZE; i++)
        {
            sendIntervalNs[i] = (long)(MEAN_SEND_INTERVAL_NS * (0.75 + 0.5 * random.nextDouble()));
        }

        final TestControllerContext context =
            new TestControllerContext(PACKET_SIZE_BYTES, SEED, ControllerParameters.EMPTY);
        lossRecovery = new LossRecovery(
            new RecoveryConfig(),
            context.path(),
            context.rttEstimator(),
            CongestionControlRegistry.load().factory(controller).newController(context));

        nowNs = START_NS;
        for (int i = 0; i < IN_FLIGHT_PACKETS; i++)
        {
            send();
        }
    }

    /**
     * @return packets the ACK newly acknowledged.
     */
    @Benchmark
    public int sendAndAck()
    {
        final long packetNumber = send();
        long largestAcked = packetNumber - IN_FLIGHT_PACKETS;
        if (ackRanges.isLost(largestAcked))
        {
            // The receiver's largest is still the packet before: this ACK repeats the previous one.
            largestAcked--;
        }
        return lossRecovery.onAckReceived(ackRanges.wrap(largestAcked), 0, nowNs, outcomes);
    }

    /**
     * @return the recovery under test (for tests).
     */
    LossRecovery lossRecovery()
    {
        return lossRecovery;
    }

    /**
     * @return what became of the packets (for tests).
     */
    OutcomeCounter outcomes()
    {
        return outcomes;
    }

    private long send()
    {
        final long packetNumber = nextPacketNumber++;
        nowNs += sendIntervalNs[(int)packetNumber & INTERVAL_TABLE_MASK];
        lossRecovery.onPacketSent(sent.reset(packetNumber, nowNs)
            .sizeBytes(PACKET_SIZE_BYTES)
            .ackEliciting(true)
            .streamRange(packetNumber * PACKET_SIZE_BYTES, PACKET_SIZE_BYTES, false, false));
        return packetNumber;
    }
}
