package io.pacelink.perf.loopback;

import java.util.Map;

/**
 * What a sending process offered, over how long, and the CPU it spent doing so.
 */
final class SendMeter
{
    private static final String PROCESS_STAT = "/proc/self/stat";
    private static final String THREAD_STAT = "/proc/thread-self/stat";
    private static final int BUSIEST_THREADS = 4;

    private final long startNs;
    private final long startCpuNs;
    private final long[] startProcessUserSystemNs;
    private final long[] startThreadUserSystemNs;
    private final Map<Long, String> startThreadCpuNs;
    private long bytes;
    private long messages;

    /**
     * Sending starts now.
     */
    SendMeter()
    {
        this.startProcessUserSystemNs = ResultLine.userSystemCpuNs(PROCESS_STAT);
        this.startThreadUserSystemNs = ResultLine.userSystemCpuNs(THREAD_STAT);
        this.startThreadCpuNs = ResultLine.threadCpuNs();
        this.startCpuNs = ResultLine.processCpuNs();
        this.startNs = System.nanoTime();
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
     * @param system what sent.
     * @param endNs  when sending stopped.
     * @return the sender's result: bytes and messages accepted, the sending time and the CPU spent in it.
     */
    ResultLine result(final String system, final long endNs)
    {
        final long elapsedNs = Math.max(1, endNs - startNs);
        final long cpuNs = ResultLine.processCpuNs() - startCpuNs;
        final long[] processUserSystemNs = ResultLine.userSystemCpuNs(PROCESS_STAT);
        final long[] threadUserSystemNs = ResultLine.userSystemCpuNs(THREAD_STAT);
        final Map<Long, String> threadCpuNs = ResultLine.threadCpuNs();
        return new ResultLine()
            .put("role", "sender")
            .put("system", system)
            .put("bytes", bytes)
            .put("messages", messages)
            .put("elapsed_ns", elapsedNs)
            .put("cpu_percent", 100.0 * cpuNs / elapsedNs)
            .put("cpu_ns_per_message", messages > 0 ? (double)cpuNs / messages : 0.0)
            // The kernel's tick-based split (10-ms ticks): the process's system time, and the sending thread's
            // (the one that called this meter: the application's, which runs the duty cycle in INVOKER mode).
            .put("system_cpu_percent", percent(processUserSystemNs[1] - startProcessUserSystemNs[1], elapsedNs))
            .put("thread_user_cpu_percent", percent(threadUserSystemNs[0] - startThreadUserSystemNs[0], elapsedNs))
            .put("thread_system_cpu_percent", percent(threadUserSystemNs[1] - startThreadUserSystemNs[1], elapsedNs))
            .put("busiest_threads",
                ResultLine.busiestThreads(startThreadCpuNs, threadCpuNs, elapsedNs, BUSIEST_THREADS));
    }

    private static double percent(final long ns, final long elapsedNs)
    {
        return 100.0 * ns / elapsedNs;
    }
}
