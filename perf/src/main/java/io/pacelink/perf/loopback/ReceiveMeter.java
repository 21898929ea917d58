package io.pacelink.perf.loopback;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Counts what a receiving process got, from its first message to its last, and the CPU the process spent in that
 * window (sampled at most every {@link #CPU_SAMPLE_INTERVAL_NS}, so a receiver that waits for the end after the last
 * message is not charged for the wait). With a warm-up ({@link #WARMUP_MS_PROPERTY}), the window starts that long
 * after the first message instead: what arrives before is received but not counted.
 */
final class ReceiveMeter
{
    /**
     * System property: milliseconds after the first message before the counted window starts (unset: 0). The suite's
     * {@code --warmup} sets it for every child, and lengthens every sender's run by as much.
     */
    static final String WARMUP_MS_PROPERTY = "pacelink.loopback.warmupMs";

    private static final long CPU_SAMPLE_INTERVAL_NS = 10_000_000L;
    private static final int BUSIEST_THREADS = 4;

    private final long warmupNs;
    private final WarmUp warmUp;
    private boolean counting;
    private long firstCompileMs;
    private boolean anyArrived;
    private long firstArrivalNs;
    private long lastArrivalNs;

    private long bytes;
    private long messages;
    private long firstNs;
    private long lastNs;
    private long firstCpuNs;
    private long cpuSampleNs;
    private long cpuAtSampleNs;
    private Map<Long, String> firstThreadCpuNs = Map.of();

    /**
     * A meter with the warm-up this process is given: the settle-based one of {@link WarmUp#SETTLE_PROPERTY} if set,
     * else the fixed {@link #WARMUP_MS_PROPERTY}.
     */
    ReceiveMeter()
    {
        this(TimeUnit.MILLISECONDS.toNanos(Long.getLong(WARMUP_MS_PROPERTY, 0)), WarmUp.fromProperties());
    }

    /**
     * @param warmupNs how long after the first message the counted window starts.
     */
    ReceiveMeter(final long warmupNs)
    {
        this(warmupNs, null);
    }

    /**
     * @param warmupNs how long after the first message the counted window starts, without a settle-based warm-up.
     * @param warmUp   the settle-based warm-up, started by the first message, or null for the fixed one.
     */
    ReceiveMeter(final long warmupNs, final WarmUp warmUp)
    {
        this.warmupNs = warmupNs;
        this.warmUp = warmUp;
        WarmUp.compileMs();
    }

    /**
     * @param length bytes of one message (or datagram).
     * @param nowNs  when it was received.
     */
    void onMessage(final int length, final long nowNs)
    {
        if (!anyArrived)
        {
            anyArrived = true;
            firstArrivalNs = nowNs;
            if (null != warmUp)
            {
                warmUp.start();
            }
        }
        lastArrivalNs = nowNs;
        if (!counting)
        {
            counting = null == warmUp ? nowNs - firstArrivalNs >= warmupNs : warmUp.count();
            if (!counting)
            {
                return;
            }
        }
        if (0 == messages)
        {
            firstCompileMs = WarmUp.compileMs();
            firstNs = nowNs;
            firstCpuNs = ResultLine.processCpuNs();
            firstThreadCpuNs = ResultLine.threadCpuNs();
            cpuSampleNs = nowNs;
            cpuAtSampleNs = firstCpuNs;
        }
        messages++;
        bytes += length;
        lastNs = nowNs;
        if (nowNs - cpuSampleNs > CPU_SAMPLE_INTERVAL_NS)
        {
            cpuSampleNs = nowNs;
            cpuAtSampleNs = ResultLine.processCpuNs();
        }
    }

    /**
     * @param nowNs   now.
     * @param quietNs how long without a message ends a run.
     * @return true once something arrived (counted or not) and then nothing for {@code quietNs}.
     */
    boolean quietFor(final long nowNs, final long quietNs)
    {
        return anyArrived && nowNs - lastArrivalNs > quietNs;
    }

    /**
     * @return messages so far.
     */
    long messages()
    {
        return messages;
    }

    /**
     * @param system what received, e.g. {@code pacelink}.
     * @return the receiver's result: bytes, messages, the first-to-last window, goodput, and CPU in the window.
     */
    ResultLine result(final String system)
    {
        final long elapsedNs = Math.max(1, lastNs - firstNs);
        final long cpuNs = cpuAtSampleNs - firstCpuNs;
        final long cpuWindowNs = Math.max(1, cpuSampleNs - firstNs);
        final ResultLine result = new ResultLine()
            .put("role", "receiver")
            .put("system", system)
            .put("bytes", bytes)
            .put("messages", messages)
            .put("elapsed_ns", elapsedNs)
            .put("bits_per_second", bytes * 8e9 / elapsedNs)
            .put("messages_per_second", messages * 1e9 / elapsedNs)
            .put("cpu_percent", 100.0 * cpuNs / cpuWindowNs)
            .put("cpu_ns_per_message", messages > 1 ? (double)cpuNs / messages : 0.0)
            // From the first message counted to now (the end of the run, a little past the last message).
            .put("busiest_threads", ResultLine.busiestThreads(firstThreadCpuNs, ResultLine.threadCpuNs(),
                Math.max(1, System.nanoTime() - firstNs), BUSIEST_THREADS))
            // The JIT's compilations that ended from the first message counted to now (ms of compiler time).
            .put("compile_ms_in_window", messages > 0 ? WarmUp.compileMs() - firstCompileMs : 0);
        if (null != warmUp)
        {
            warmUp.describe(result);
        }
        return result;
    }
}
