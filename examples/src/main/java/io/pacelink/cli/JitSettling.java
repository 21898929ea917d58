package io.pacelink.cli;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits, after a priming, until the JIT has finished the compilations the priming started: until this process, which
 * runs nothing else yet, has used less than {@link #SETTLED_CPU_SHARE} of one core over a {@link #SAMPLE_NS} sample
 * (its compiler threads idle), or until the time allowed is up. A priming at launch queues hundreds of compilations,
 * C2's largest taking 0.5–2 s each on the 2-core development VM; left to run beside the transfer they would take the
 * core the transfer needs in its first seconds (perf/FINDINGS.md, branch thr12). The process's CPU time comes from
 * the operating system's process table (ProcessHandle reads /proc on Linux), as {@code pacelink perf}'s CPU figures
 * do: no JMX to start.
 */
final class JitSettling
{
    /**
     * How long each look at the process's CPU time spans.
     */
    static final long SAMPLE_NS = TimeUnit.MILLISECONDS.toNanos(100);

    /**
     * A process using less than this share of one core over a sample is taken to be settled: an idle JVM uses a
     * fraction of a per cent; one compiler thread at work, 100 %.
     */
    static final double SETTLED_CPU_SHARE = 0.1;

    private JitSettling()
    {
    }

    /**
     * @param maxWaitNs the longest to wait; 0 or less returns at once.
     * @return nanoseconds waited.
     */
    static long await(final long maxWaitNs)
    {
        final long startNs = System.nanoTime();
        long lastCpuNs = cpuNs();
        long lastNs = startNs;
        while (lastCpuNs >= 0 && System.nanoTime() - startNs < maxWaitNs)
        {
            LockSupport.parkNanos(Math.min(SAMPLE_NS, maxWaitNs - (System.nanoTime() - startNs)));
            final long cpuNs = cpuNs();
            final long nowNs = System.nanoTime();
            if (isSettled(cpuNs - lastCpuNs, nowNs - lastNs))
            {
                break;
            }
            lastCpuNs = cpuNs;
            lastNs = nowNs;
        }
        return System.nanoTime() - startNs;
    }

    /**
     * @param cpuNs  CPU time the process used over a sample.
     * @param wallNs the sample's wall time.
     * @return true if that is less than {@link #SETTLED_CPU_SHARE} of one core over a sample at least
     * {@link #SAMPLE_NS} / 2 long (a shorter one, cut by the deadline, says nothing).
     */
    static boolean isSettled(final long cpuNs, final long wallNs)
    {
        return wallNs >= SAMPLE_NS / 2 && cpuNs >= 0 && cpuNs < SETTLED_CPU_SHARE * wallNs;
    }

    private static long cpuNs()
    {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }
}
