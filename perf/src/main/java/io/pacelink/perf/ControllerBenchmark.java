package io.pacelink.perf;

import io.pacelink.perf.cc.ControllerTrace;
import io.pacelink.perf.cc.TraceReplay;
import io.pacelink.perf.path.PathConfig;
import io.pacelink.transport.cc.CongestionController;
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

import java.util.concurrent.TimeUnit;

/**
 * Cost of one congestion-controller callback, per algorithm, with realistic and changing inputs.
 * <p>
 * Setup records a {@link ControllerTrace}: the algorithm drives a backlogged connection over a 50 Mbit/s, 10 ms
 * path with a one-BDP drop-tail buffer and 0.5 % random loss, with the real loss recovery, and after 3 s every
 * callback is copied. Each benchmark replays one kind of recorded callback, in order and round and round (time and
 * counters move forward each lap), into a fresh controller of the same algorithm, so the controller walks through
 * its states rather than repeating one branch:
 * <ul>
 *     <li>{@link #onAck()}: one {@code onAck} with its rate sample;</li>
 *     <li>{@link #onPacketSent()}: one {@code onPacketSent};</li>
 *     <li>{@link #onPacketLost()}: one {@code onPacketLost}, plus {@code onCongestionEvent} for the last packet of
 *     each loss batch (amortised over the batch);</li>
 *     <li>{@link #replayTrace()}: the next recorded callback of any kind, in the recorded order: the average
 *     callback of a connection's life.</li>
 * </ul>
 * Replaying allocates nothing, so B/op is the controller's own allocation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = { BenchmarkJvm.ADD_EXPORTS_MISC, BenchmarkJvm.ADD_OPENS_MISC })
@State(Scope.Thread)
public class ControllerBenchmark
{
    /**
     * Path the trace is recorded on: 50 Mbit/s, 10 ms, one BDP of buffer, 0.5 % random loss, 1200-byte packets.
     */
    public static final PathConfig TRACE_PATH = new PathConfig(
        6_250_000L, 10_000_000L, 62_500L, 0.005, 1200, 42);

    /**
     * Virtual time run before recording: past slow start and BBR's startup.
     */
    public static final long TRACE_WARMUP_NS = 3_000_000_000L;

    /**
     * The recording holds at least this many ACKs...
     */
    public static final int TRACE_MINIMUM_ACKS = 2048;

    /**
     * ...and at least this many lost packets.
     */
    public static final int TRACE_MINIMUM_LOST_PACKETS = 32;

    /**
     * The algorithm, as the registry names it.
     */
    @Param({ "reno", "cubic", "bbr", "bbr3" })
    public String controller;

    private ControllerTrace trace;
    private TraceReplay acks;
    private TraceReplay sends;
    private TraceReplay losses;
    private TraceReplay all;

    /**
     * Record the trace once per trial.
     */
    @Setup(Level.Trial)
    public void recordTrace()
    {
        trace = ControllerTrace.record(
            controller, TRACE_PATH, TRACE_WARMUP_NS, TRACE_MINIMUM_ACKS, TRACE_MINIMUM_LOST_PACKETS);
    }

    /**
     * Fresh controllers for each iteration's replays would restart them in slow start; one per trial is enough as
     * a trial runs only one benchmark method. Created lazily so each method pays only for its own replay.
     *
     * @return the controller after one ACK.
     */
    @Benchmark
    public long onAck()
    {
        if (null == acks)
        {
            acks = trace.replay(ControllerTrace.Kind.ACKS);
        }
        return replay(acks);
    }

    /**
     * @return the controller's window after one send.
     */
    @Benchmark
    public long onPacketSent()
    {
        if (null == sends)
        {
            sends = trace.replay(ControllerTrace.Kind.SENDS);
        }
        return replay(sends);
    }

    /**
     * @return the controller's window after one lost packet (and its batch's congestion event, if it closes one).
     */
    @Benchmark
    public long onPacketLost()
    {
        if (null == losses)
        {
            losses = trace.replay(ControllerTrace.Kind.LOSSES);
        }
        return replay(losses);
    }

    /**
     * @return the controller's window after the next recorded callback.
     */
    @Benchmark
    public long replayTrace()
    {
        if (null == all)
        {
            all = trace.replay(ControllerTrace.Kind.ALL);
        }
        return replay(all);
    }

    /**
     * @return the recorded trace (for tests).
     */
    ControllerTrace trace()
    {
        return trace;
    }

    private static long replay(final TraceReplay replay)
    {
        replay.replayNext();
        final CongestionController controller = replay.controller();
        return controller.congestionWindowBytes();
    }
}
