package io.pacelink.cli.perf;

import java.time.Duration;

/**
 * The CPU time this process used between two moments, as a percentage of one core over the wall time between them
 * (iperf3's {@code cpu_utilization_percent.host_total}, except that iperf3 divides by all cores).
 */
final class ProcessCpu
{
    private final long startCpuNs;
    private final long startWallNs;

    private ProcessCpu(final long startCpuNs, final long startWallNs)
    {
        this.startCpuNs = startCpuNs;
        this.startWallNs = startWallNs;
    }

    /**
     * @return a measurement starting now.
     */
    static ProcessCpu start()
    {
        return new ProcessCpu(cpuNs(), System.nanoTime());
    }

    /**
     * @return percent of one core since {@link #start()}, NaN where the JVM does not tell.
     */
    double percent()
    {
        final long cpuNs = cpuNs();
        final long wallNs = System.nanoTime() - startWallNs;
        return cpuNs < 0 || startCpuNs < 0 || wallNs <= 0 ? Double.NaN : 100.0 * (cpuNs - startCpuNs) / wallNs;
    }

    /**
     * @return the CPU time this process used so far, from the operating system's process table (ProcessHandle reads
     * /proc on Linux: no JMX to start, which would add tenths of a second to a client's start-up), or -1.
     */
    private static long cpuNs()
    {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }
}
