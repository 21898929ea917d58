package io.pacelink.perf.loopback;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Counts what a receiving process got, from its first message to its last, and the CPU the process spent in that
 * window (sampled at most every {@link #CPU_SAMPLE_INTERVAL_NS}, so a receiver that waits for the end after the last
 * message is not charged for the wait). With a warm-up the window starts later: a fixed one
 * ({@link #WARMUP_MS_PROPERTY}) that long after the first message, a settle-based one ({@link WarmUp}) when the suite
 * says to count; what arrives before is received but not counted.
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
    private boolean anyArrived;
    private long firstArrivalNs;
    private long lastArrivalNs;
    private long bytes;
    private long messages;

    private boolean counting;
    private long countStartBytes;
    private long countStartMessages;
    private long firstNs;
    private long firstCpuNs;
    private long firstCompileMs;
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
     * One message received. It has no branch on whether the window has started (the window's start is a snapshot of
     * these totals, {@link #startCounting(long)}): a branch first taken when counting starts would throw away the
     * receiving loop's compiled code, into which this is inlined, at the start of the counted window.
     *
     * @param length bytes of one message (or datagram).
     * @param nowNs  when it was received.
     */
    void onMessage(final int length, final long nowNs)
    {
        if (!anyArrived)
        {
            onFirstArrival(nowNs);
        }
        messages++;
        bytes += length;
        lastArrivalNs = nowNs;
        if (nowNs - cpuSampleNs > CPU_SAMPLE_INTERVAL_NS)
        {
            cpuSampleNs = nowNs;
            cpuAtSampleNs = ResultLine.processCpuNs();
        }
    }

    /**
     * The receiving loop's clock, between turns: the counted window starts at the first reading past the warm-up. A
     * loop that keeps its warm-up apart ({@link #warmedUp(long)}, then {@link #startCounting(long)}) need not call it.
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
     * @param nowNs now.
     * @return true once the warm-up is over: the suite said to count (settle-based), or the fixed warm-up has passed
     * since the first message.
     */
    boolean warmedUp(final long nowNs)
    {
        return null != warmUp ? warmUp.count() : anyArrived && nowNs - firstArrivalNs >= warmupNs;
    }

    /**
     * The counted window starts now (a second call does nothing): what arrives from here on is counted.
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
        countStartBytes = bytes;
        countStartMessages = messages;
        firstNs = nowNs;
        firstCpuNs = ResultLine.processCpuNs();
        firstThreadCpuNs = ResultLine.threadCpuNs();
        firstCompileMs = WarmUp.compileMs();
        cpuSampleNs = nowNs;
        cpuAtSampleNs = firstCpuNs;
    }

    private void onFirstArrival(final long nowNs)
    {
        anyArrived = true;
        firstArrivalNs = nowNs;
        if (null != warmUp)
        {
            warmUp.start();
        }
        else if (0 == warmupNs)
        {
            startCounting(nowNs);   // no warm-up: counted from the first message, this one included
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
        return counting ? messages - countStartMessages : 0;
    }

    /**
     * @param system what received, e.g. {@code pacelink}.
     * @return the receiver's result: bytes, messages, the first-to-last window, goodput, and CPU in the window.
     */
    ResultLine result(final String system)
    {
        final long countedBytes = counting ? bytes - countStartBytes : 0;
        final long countedMessages = messages();
        final long elapsedNs = Math.max(1, countedMessages > 0 ? lastArrivalNs - firstNs : 0);
        final long cpuNs = cpuAtSampleNs - firstCpuNs;
        final long cpuWindowNs = Math.max(1, cpuSampleNs - firstNs);
        final ResultLine result = new ResultLine()
            .put("role", "receiver")
            .put("system", system)
            .put("bytes", countedBytes)
            .put("messages", countedMessages)
            .put("elapsed_ns", elapsedNs)
            .put("bits_per_second", countedBytes * 8e9 / elapsedNs)
            .put("messages_per_second", countedMessages * 1e9 / elapsedNs)
            .put("cpu_percent", 100.0 * cpuNs / cpuWindowNs)
            .put("cpu_ns_per_message", countedMessages > 1 ? (double)cpuNs / countedMessages : 0.0)
            // From the first message counted to now (the end of the run, a little past the last message).
            .put("busiest_threads", ResultLine.busiestThreads(firstThreadCpuNs, ResultLine.threadCpuNs(),
                Math.max(1, System.nanoTime() - firstNs), BUSIEST_THREADS))
            // The JIT's compilations that ended from the first message counted to now (ms of compiler time).
            .put("compile_ms_in_window", counting ? WarmUp.compileMs() - firstCompileMs : 0);
        if (null != warmUp)
        {
            warmUp.describe(result);
        }
        return result;
    }
}
