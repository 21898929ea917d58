package io.pacelink.perf.loopback;

/**
 * What a sending process offered, over how long, and the CPU it spent doing so.
 */
final class SendMeter
{
    private final long startNs;
    private final long startCpuNs;
    private long bytes;
    private long messages;

    /**
     * Sending starts now.
     */
    SendMeter()
    {
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
        return new ResultLine()
            .put("role", "sender")
            .put("system", system)
            .put("bytes", bytes)
            .put("messages", messages)
            .put("elapsed_ns", elapsedNs)
            .put("cpu_percent", 100.0 * cpuNs / elapsedNs)
            .put("cpu_ns_per_message", messages > 0 ? (double)cpuNs / messages : 0.0);
    }
}
