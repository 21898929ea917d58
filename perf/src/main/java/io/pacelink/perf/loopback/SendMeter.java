package io.pacelink.perf.loopback;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a sending process offered, over how long, and the CPU it spent doing so. With a warm-up
 * ({@link ReceiveMeter#WARMUP_MS_PROPERTY}) the counted window starts that long after sending started, as the
 * receiver's does, so the sender's CPU beside a steady-state goodput is the steady state's too; the whole run's CPU is
 * reported beside it ({@code whole_cpu_percent}), never hidden, as {@code pacelink perf -O} and iperf3's
 * {@code --omit} report theirs.
 */
final class SendMeter
{
    private static final String PROCESS_STAT = "/proc/self/stat";
    private static final String THREAD_STAT = "/proc/thread-self/stat";
    private static final int BUSIEST_THREADS = 4;

    private final long startNs;
    private final long startCpuNs;
    private final long countFromNs;
    private final long durationNs;
    private final WarmUp warmUp;
    private boolean counting;
    private long countStartCompileMs;
    private long countStartNs;
    private long countStartCpuNs;
    private long[] countStartProcessUserSystemNs;
    private long[] countStartThreadUserSystemNs;
    private Map<Long, String> countStartThreadCpuNs;
    private long countStartBytes;
    private long countStartMessages;
    private long bytes;
    private long messages;

    /**
     * Sending starts now, counted after the warm-up this process is given: the settle-based one of
     * {@link WarmUp#SETTLE_PROPERTY} if set, else the fixed {@link ReceiveMeter#WARMUP_MS_PROPERTY}.
     *
     * @param durationNs how long to send once counting.
     */
    SendMeter(final long durationNs)
    {
        this(TimeUnit.MILLISECONDS.toNanos(Long.getLong(ReceiveMeter.WARMUP_MS_PROPERTY, 0)), durationNs,
            WarmUp.fromProperties());
    }

    /**
     * Sending starts now.
     *
     * @param warmupNs   how long after now the counted window starts, without a settle-based warm-up.
     * @param durationNs how long to send once counting.
     * @param warmUp     the settle-based warm-up, or null for the fixed one.
     */
    SendMeter(final long warmupNs, final long durationNs, final WarmUp warmUp)
    {
        this.startCpuNs = ResultLine.processCpuNs();
        WarmUp.compileMs();
        this.startNs = System.nanoTime();
        this.countFromNs = startNs + warmupNs;
        this.durationNs = durationNs;
        this.warmUp = warmUp;
        if (null != warmUp)
        {
            warmUp.start();
        }
        else if (0 == warmupNs)
        {
            startCounting(startNs);
        }
    }

    /**
     * @return when sending started.
     */
    long startNs()
    {
        return startNs;
    }

    /**
     * @param length bytes of one message (or datagram) accepted.
     */
    void onSent(final int length)
    {
        messages++;
        bytes += length;
    }

    /**
     * The sending loop's clock, once a turn: the counted window starts at the first reading past the warm-up.
     *
     * @param nowNs now.
     */
    void onTime(final long nowNs)
    {
        if (!counting && warmedUp(nowNs))
        {
            startCounting(nowNs);
        }
    }

    /**
     * A sending loop may keep its warm-up apart instead of calling {@link #onTime(long)} every turn: turns while this
     * is false, then {@link #startCounting(long)}, then turns while {@link #sending(long)}. Its turn then has no branch
     * that is first taken when counting starts, which would throw away the turn's compiled code at the start of the
     * counted window.
     *
     * @param nowNs now.
     * @return true once the warm-up is over: the suite said to count (settle-based), or the fixed warm-up has passed.
     */
    boolean warmedUp(final long nowNs)
    {
        return null != warmUp ? warmUp.count() : nowNs - countFromNs >= 0;
    }

    /**
     * @param nowNs the sending loop's clock, after {@link #onTime(long)}.
     * @return true while sending goes on: in the warm-up, and for the duration once counting.
     */
    boolean sending(final long nowNs)
    {
        return !counting || nowNs - countStartNs < durationNs;
    }

    /**
     * @return true once the counted window has started.
     */
    boolean counting()
    {
        return counting;
    }

    /**
     * @param system what sent.
     * @param endNs  when sending stopped.
     * @return the sender's result: bytes and messages accepted, the sending time and the CPU spent in it, counted from
     * the warm-up's end (nothing counted if sending stopped inside it), and the whole run's time and CPU.
     */
    ResultLine result(final String system, final long endNs)
    {
        onTime(endNs);
        if (!counting)
        {
            startCounting(endNs);
        }
        final long elapsedNs = Math.max(1, endNs - countStartNs);
        final long wholeElapsedNs = Math.max(1, endNs - startNs);
        final long endCpuNs = ResultLine.processCpuNs();
        final long cpuNs = endCpuNs - countStartCpuNs;
        final long countedMessages = messages - countStartMessages;
        final long compileMs = WarmUp.compileMs();
        final long[] processUserSystemNs = ResultLine.userSystemCpuNs(PROCESS_STAT);
        final long[] threadUserSystemNs = ResultLine.userSystemCpuNs(THREAD_STAT);
        final Map<Long, String> threadCpuNs = ResultLine.threadCpuNs();
        final ResultLine result = new ResultLine()
            .put("role", "sender")
            .put("system", system)
            .put("bytes", bytes - countStartBytes)
            .put("messages", countedMessages)
            .put("elapsed_ns", elapsedNs)
            .put("cpu_percent", 100.0 * cpuNs / elapsedNs)
            .put("cpu_ns_per_message", countedMessages > 0 ? (double)cpuNs / countedMessages : 0.0)
            // The kernel's tick-based split (10-ms ticks): the process's system time, and the sending thread's
            // (the one that called this meter: the application's, which runs the duty cycle in INVOKER mode).
            .put("system_cpu_percent",
                percent(processUserSystemNs[1] - countStartProcessUserSystemNs[1], elapsedNs))
            .put("thread_user_cpu_percent",
                percent(threadUserSystemNs[0] - countStartThreadUserSystemNs[0], elapsedNs))
            .put("thread_system_cpu_percent",
                percent(threadUserSystemNs[1] - countStartThreadUserSystemNs[1], elapsedNs))
            .put("busiest_threads",
                ResultLine.busiestThreads(countStartThreadCpuNs, threadCpuNs, elapsedNs, BUSIEST_THREADS))
            // The whole run, warm-up included (the same as the counted window without one).
            .put("whole_bytes", bytes)
            .put("whole_elapsed_ns", wholeElapsedNs)
            .put("whole_cpu_percent", 100.0 * (endCpuNs - startCpuNs) / wholeElapsedNs)
            // The JIT's compilations that ended inside the counted window (ms of compiler time).
            .put("compile_ms_in_window", compileMs - countStartCompileMs);
        if (null != warmUp)
        {
            warmUp.describe(result);
        }
        return result;
    }

    /**
     * The counted window starts now (a second call does nothing).
     *
     * @param nowNs now.
     */
    void startCounting(final long nowNs)
    {
        if (counting)
        {
            return;
        }
        counting = true;
        countStartProcessUserSystemNs = ResultLine.userSystemCpuNs(PROCESS_STAT);
        countStartThreadUserSystemNs = ResultLine.userSystemCpuNs(THREAD_STAT);
        countStartThreadCpuNs = ResultLine.threadCpuNs();
        countStartCpuNs = ResultLine.processCpuNs();
        countStartCompileMs = WarmUp.compileMs();
        countStartNs = nowNs;
        countStartBytes = bytes;
        countStartMessages = messages;
    }

    private static double percent(final long ns, final long elapsedNs)
    {
        return 100.0 * ns / elapsedNs;
    }
}
