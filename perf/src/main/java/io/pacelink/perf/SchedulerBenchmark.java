package io.pacelink.perf;

import io.pacelink.perf.schedule.PacedFlow;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.schedule.PacketScheduler;
import io.pacelink.transport.schedule.Release;
import io.pacelink.transport.schedule.PacketSchedulers;
import io.pacelink.transport.schedule.SchedulableFlow;
import io.pacelink.transport.stats.CountersBuffers;
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
 * Cost of one scheduling decision of the endpoint's packet scheduler with every flow backlogged and paced.
 * <p>
 * The endpoint egress is 10 Gbit/s shared by {@link #flows} flows whose pacing rates spread from half to one and a
 * half times the fair share (seeded) and add up to the egress. One op is one endpoint send: the virtual clock moves
 * on by one 1200-byte packet at the egress rate, one flow is re-activated (as when an ACK opens its window; flows
 * taken in a seeded random order), the scheduler picks the next flow and is told that flow sent a packet. When no
 * flow may send yet the clock jumps to the scheduler's next release time, as the agent's idle strategy would.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = { BenchmarkJvm.ADD_EXPORTS_MISC, BenchmarkJvm.ADD_OPENS_MISC })
@State(Scope.Thread)
public class SchedulerBenchmark
{
    /**
     * The endpoint's egress rate: 10 Gbit/s.
     */
    public static final long EGRESS_BYTES_PER_SECOND = 1_250_000_000L;

    /**
     * Size of every packet.
     */
    public static final int PACKET_SIZE_BYTES = 1200;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long SEED = 42;
    private static final long START_NS = 1_000_000_000L;

    /**
     * Room for the scheduler's statistics counters (fq registers seven).
     */
    private static final int COUNTERS_VALUES_BYTES = 64 * 1024;

    /**
     * The scheduler's name.
     */
    @Param({ "rr", "fq", "fifo" })
    public String scheduler;

    /**
     * Number of backlogged flows.
     */
    @Param({ "1", "100", "10000" })
    public int flows;

    private PacketScheduler<PacedFlow> packetScheduler;
    private PacedFlow[] pacedFlows;
    private int[] activationOrder;
    private int activationIndex;
    private long stepNs;
    private long nowNs;
    private long idlePicks;

    /**
     * Create the scheduler and its flows, all active.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        packetScheduler = PacketSchedulers.newScheduler(
            scheduler, ControllerParameters.EMPTY, CountersBuffers.newManager(COUNTERS_VALUES_BYTES));
        final SplittableRandom random = new SplittableRandom(SEED);

        final double[] weights = new double[flows];
        double weightSum = 0;
        for (int i = 0; i < flows; i++)
        {
            weights[i] = 0.5 + random.nextDouble();
            weightSum += weights[i];
        }

        nowNs = START_NS;
        pacedFlows = new PacedFlow[flows];
        for (int i = 0; i < flows; i++)
        {
            final long rateBytesPerSecond = Math.max(1, (long)(EGRESS_BYTES_PER_SECOND * weights[i] / weightSum));
            pacedFlows[i] = new PacedFlow(i + 1, rateBytesPerSecond, PACKET_SIZE_BYTES);
            packetScheduler.addFlow(pacedFlows[i]);
            activate(pacedFlows[i]);
        }

        activationOrder = new int[flows];
        for (int i = 0; i < flows; i++)
        {
            activationOrder[i] = i;
        }
        for (int i = flows - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final int swap = activationOrder[i];
            activationOrder[i] = activationOrder[j];
            activationOrder[j] = swap;
        }
        stepNs = PACKET_SIZE_BYTES * NANOS_PER_SECOND / EGRESS_BYTES_PER_SECOND;
    }

    /**
     * @return the flow that sent.
     */
    @Benchmark
    public SchedulableFlow activateNextSend()
    {
        nowNs += stepNs;
        activate(pacedFlows[activationOrder[activationIndex]]);
        if (++activationIndex == flows)
        {
            activationIndex = 0;
        }

        PacedFlow released = sendOne();
        if (null == released)
        {
            idlePicks++;
            final long releaseNs = packetScheduler.nextReleaseTimeNs();
            if (Long.MAX_VALUE != releaseNs)
            {
                nowNs = Math.max(nowNs, releaseNs);
                released = sendOne();
            }
        }
        return released;
    }

    private void activate(final PacedFlow flow)
    {
        packetScheduler.activate(flow, flow.pacingRateBytesPerSecond(), flow.sendQuantumBytes(), nowNs);
    }

    /**
     * The endpoint's send of one packet: pull a release, build the packet (here: nothing to build), report it.
     */
    private PacedFlow sendOne()
    {
        final Release<PacedFlow> release = packetScheduler.next(nowNs);
        if (null == release)
        {
            return null;
        }
        final PacedFlow flow = release.flow();
        packetScheduler.onSent(flow, PACKET_SIZE_BYTES, true, nowNs);
        return flow;
    }

    /**
     * @return how often no flow was eligible and the clock had to jump (for tests).
     */
    long idlePicks()
    {
        return idlePicks;
    }

    /**
     * @return the scheduler under test (for tests).
     */
    PacketScheduler<PacedFlow> packetScheduler()
    {
        return packetScheduler;
    }
}
