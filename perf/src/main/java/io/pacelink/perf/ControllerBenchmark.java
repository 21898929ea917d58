package io.pacelink.perf;

import io.pacelink.perf.cc.ControllerTrace;
import io.pacelink.perf.cc.PathConfig;
import io.pacelink.perf.cc.TraceReplay;
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
 * path with a one-BDP drop-tail buffer and 0.5 % random loss, with the real loss recovery, and after 3 s of virtual
 * time every callback is copied until at least 2048 ACKs and 32 losses are held (a few thousand events, 1 to 4 s of
 * the connection). A fresh controller of the same algorithm first gets one lap of the whole trace, unmeasured, then
 * each benchmark replays one kind of recorded callback round and round (time and counters move forward each lap,
 * bytes in flight are bounded by the replayed window), so the controller walks through its states (recovery and
 * congestion avoidance; BBR's gain cycle and PROBE_RTT) rather than repeating one branch:
 * <ul>
 *     <li>{@link #onAck(Acks)}: one {@code onAck} with its rate sample, or for about 1 % of the ops a packet lost
 *     with it ({@code onPacketLost}, and {@code onCongestionEvent} at the end of the batch): the controller's part of
 *     processing ACK frames;</li>
 *     <li>{@link #onPacketSent(Sends)}: one {@code onPacketSent};</li>
 *     <li>{@link #onPacketLost(Losses)}: one {@code onPacketLost}, plus {@code onCongestionEvent} for the last packet
 *     of each loss batch;</li>
 *     <li>{@link #replayTrace(Everything)}: the next recorded callback of any kind, in the recorded order (about two
 *     sends per ACK): the average callback of a connection's life.</li>
 * </ul>
 * Replaying allocates nothing, so B/op is the controller's own allocation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = { BenchmarkJvm.ADD_EXPORTS_MISC, BenchmarkJvm.ADD_OPENS_MISC })
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
     * The recorded trace of one algorithm, made once per trial.
     */
    @State(Scope.Thread)
    public static class Recording
    {
        /**
         * The algorithm, as the registry names it.
         */
        @Param({ "reno", "cubic", "bbr", "bbrplus", "bbr2", "bbr3" })
        public String controller;

        ControllerTrace trace;

        /**
         * Run the algorithm over the path and record its callbacks.
         */
        @Setup(Level.Trial)
        public void record()
        {
            trace = ControllerTrace.record(
                controller, TRACE_PATH, TRACE_WARMUP_NS, TRACE_MINIMUM_ACKS, TRACE_MINIMUM_LOST_PACKETS);
        }
    }

    /**
     * A replay of one kind of recorded callback into a fresh controller, started once per trial.
     */
    public abstract static class Replay
    {
        private final ControllerTrace.Kind kind;
        TraceReplay replay;

        Replay(final ControllerTrace.Kind kind)
        {
            this.kind = kind;
        }

        /**
         * @param recording the trace to replay.
         */
        @Setup(Level.Trial)
        public void start(final Recording recording)
        {
            replay = recording.trace.replay(kind);
        }

        long next()
        {
            replay.replayNext();
            final CongestionController controller = replay.controller();
            return controller.congestionWindowBytes();
        }
    }

    /**
     * Replays what ACK processing asks of the controller: {@code onAck}, and the losses detected with the ACKs.
     */
    @State(Scope.Thread)
    public static class Acks extends Replay
    {
        /**
         * Replays {@link ControllerTrace.Kind#ACKS}.
         */
        public Acks()
        {
            super(ControllerTrace.Kind.ACKS);
        }
    }

    /**
     * Replays {@code onPacketSent} calls.
     */
    @State(Scope.Thread)
    public static class Sends extends Replay
    {
        /**
         * Replays {@link ControllerTrace.Kind#SENDS}.
         */
        public Sends()
        {
            super(ControllerTrace.Kind.SENDS);
        }
    }

    /**
     * Replays lost packets with their batches' congestion events.
     */
    @State(Scope.Thread)
    public static class Losses extends Replay
    {
        /**
         * Replays {@link ControllerTrace.Kind#LOSSES}.
         */
        public Losses()
        {
            super(ControllerTrace.Kind.LOSSES);
        }
    }

    /**
     * Replays every callback in the recorded order.
     */
    @State(Scope.Thread)
    public static class Everything extends Replay
    {
        /**
         * Replays {@link ControllerTrace.Kind#ALL}.
         */
        public Everything()
        {
            super(ControllerTrace.Kind.ALL);
        }
    }

    /**
     * @param acks the replay.
     * @return the controller's window after one ACK.
     */
    @Benchmark
    public long onAck(final Acks acks)
    {
        return acks.next();
    }

    /**
     * @param sends the replay.
     * @return the controller's window after one send.
     */
    @Benchmark
    public long onPacketSent(final Sends sends)
    {
        return sends.next();
    }

    /**
     * @param losses the replay.
     * @return the controller's window after one lost packet (and its batch's congestion event, if it closes one).
     */
    @Benchmark
    public long onPacketLost(final Losses losses)
    {
        return losses.next();
    }

    /**
     * @param everything the replay.
     * @return the controller's window after the next recorded callback.
     */
    @Benchmark
    public long replayTrace(final Everything everything)
    {
        return everything.next();
    }
}
