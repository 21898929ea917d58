package io.pacelink.perf.loopback;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A warm-up that ends when the JIT has settled in both processes of a run, not after a fixed time: a watcher thread
 * samples this JVM's compilers every {@link #SAMPLE_INTERVAL_MS} ms from the moment traffic starts (a sender's first
 * send, a receiver's first message) and, once they have been idle for the quiet interval after at least the minimum,
 * or at the maximum whatever they do, prints {@link #SETTLED} with what it saw; the suite, once both processes of the
 * run have printed theirs, writes {@link #COUNT} to both standard inputs, and both meters count from the next turn.
 * So the same seconds of the flow are counted at both ends, the same rule holds for every contender (raw UDP
 * included), and the C2 compilations of the first seconds, which on two cores take CPU from the spinning threads
 * (perf/FINDINGS.md, branch {@code bulk20}: a fixed 3-s warm-up left 3–26 % of the sender's core to C2 in the counted
 * window, moving single runs by ±0.1 of the ratio), fall outside the count.
 * <p>
 * Idle means both: the compilers' cumulative time ({@link CompilationMXBean#getTotalCompilationTime()}, which a
 * compilation adds to when it ends) grew by at most {@link #QUIET_COMPILE_SHARE} of the quiet interval, and the
 * compiler threads ({@code C1 CompilerThre…}, {@code C2 CompilerThre…}, by the kernel's account in
 * {@code /proc/self/task}) used at most {@link #QUIET_COMPILER_CPU_SHARE} of a core over it — the second sees a long
 * compilation still running, which the first counts only once it is done.
 * <p>
 * The property {@link #SETTLE_PROPERTY} ({@code MIN_MS:MAX_MS:QUIET_MS}, given to every child by the suite) turns it
 * on; without it the meters keep the fixed warm-up of {@link ReceiveMeter#WARMUP_MS_PROPERTY}.
 */
final class WarmUp
{
    /**
     * System property: {@code MIN_MS:MAX_MS:QUIET_MS}, the settle-based warm-up's bounds and quiet interval.
     */
    static final String SETTLE_PROPERTY = "pacelink.loopback.settle";

    /**
     * Starts the line a process prints when its warm-up is over (its compilers idle, or the maximum reached).
     */
    static final String SETTLED = "SETTLED ";

    /**
     * The line the suite writes to both processes' standard input when both have settled: count from now.
     */
    static final String COUNT = "COUNT";

    static final long SAMPLE_INTERVAL_MS = 100;
    static final double QUIET_COMPILE_SHARE = 0.01;
    static final double QUIET_COMPILER_CPU_SHARE = 0.02;

    private final long minNs;
    private final long maxNs;
    private final long quietNs;
    private final PrintStream out;
    private final InputStream in;
    private volatile boolean count;
    private boolean started;
    private long startNs;
    private long settledNs;
    private boolean quiet;
    private long compileMsAtSettle;

    /**
     * @param minNs   the shortest warm-up.
     * @param maxNs   the longest warm-up: settled then, idle or not.
     * @param quietNs how long the compilers must have been idle.
     * @param out     where the settled line goes (the suite reads it).
     * @param in      where {@link #COUNT} comes from (the suite writes it).
     */
    WarmUp(final long minNs, final long maxNs, final long quietNs, final PrintStream out, final InputStream in)
    {
        this.minNs = minNs;
        this.maxNs = Math.max(minNs, maxNs);
        this.quietNs = quietNs;
        this.out = out;
        this.in = in;
    }

    /**
     * @return the warm-up {@link #SETTLE_PROPERTY} asks for, printing to standard output, or null for none.
     */
    static WarmUp fromProperties()
    {
        final String value = System.getProperty(SETTLE_PROPERTY);
        if (null == value || value.isEmpty())
        {
            return null;
        }
        final String[] bounds = value.split(":");
        return new WarmUp(TimeUnit.MILLISECONDS.toNanos(Long.parseLong(bounds[0])),
            TimeUnit.MILLISECONDS.toNanos(Long.parseLong(bounds[1])),
            TimeUnit.MILLISECONDS.toNanos(Long.parseLong(bounds[2])), System.out, System.in);
    }

    /**
     * Traffic has started: the warm-up runs from now (a second call does nothing). The watcher is a daemon thread that
     * sleeps between samples and then blocks reading standard input: it never competes with a spinning thread.
     */
    void start()
    {
        if (started)
        {
            return;
        }
        started = true;
        startNs = System.nanoTime();
        final Thread watcher = new Thread(this::watch, "warm-up watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    /**
     * @return true once the suite said to count (both processes settled).
     */
    boolean count()
    {
        return count;
    }

    /**
     * @param result the meter's result, to which the warm-up's account is added.
     */
    void describe(final ResultLine result)
    {
        result.put("warmup_ms", 0 == settledNs ? -1 : TimeUnit.NANOSECONDS.toMillis(settledNs - startNs))
            .put("warmup_quiet", quiet)
            .put("warmup_compile_ms", compileMsAtSettle);
    }

    /**
     * @return the compilers' cumulative time so far, in milliseconds (-1 where the JVM does not tell).
     */
    static long compileMs()
    {
        final CompilationMXBean compilation = ManagementFactory.getCompilationMXBean();
        return null != compilation && compilation.isCompilationTimeMonitoringSupported() ?
            compilation.getTotalCompilationTime() : -1;
    }

    /**
     * @return CPU time the JIT's compiler threads have used so far, by the kernel's account.
     */
    static long compilerCpuNs()
    {
        long cpuNs = 0;
        for (final Map.Entry<Long, String> thread : ResultLine.threadCpuNs().entrySet())
        {
            final String[] nameAndNs = thread.getValue().split("\t");
            if (nameAndNs[0].startsWith("C1 Compiler") || nameAndNs[0].startsWith("C2 Compiler"))
            {
                cpuNs += Long.parseLong(nameAndNs[1]);
            }
        }
        return cpuNs;
    }

    private void watch()
    {
        // Samples {time, compile ms, compiler CPU ns} over the last quiet interval and one more.
        final List<long[]> samples = new ArrayList<>();
        try
        {
            while (true)
            {
                final long nowNs = System.nanoTime();
                final long[] sample = { nowNs, compileMs(), compilerCpuNs() };
                samples.add(sample);
                while (samples.size() > 2 && nowNs - samples.get(1)[0] >= quietNs)
                {
                    samples.remove(0);
                }
                final long[] first = samples.get(0);
                final boolean idle = nowNs - first[0] >= quietNs &&
                    sample[1] - first[1] <= QUIET_COMPILE_SHARE * TimeUnit.NANOSECONDS.toMillis(nowNs - first[0]) &&
                    sample[2] - first[2] <= QUIET_COMPILER_CPU_SHARE * (nowNs - first[0]);
                if (nowNs - startNs >= minNs && idle || nowNs - startNs >= maxNs)
                {
                    settledNs = nowNs;
                    quiet = idle;
                    compileMsAtSettle = sample[1];
                    break;
                }
                TimeUnit.MILLISECONDS.sleep(SAMPLE_INTERVAL_MS);
            }
            out.println(new ResultLine()
                .put("warmup_ms", TimeUnit.NANOSECONDS.toMillis(settledNs - startNs))
                .put("warmup_quiet", quiet)
                .put("warmup_compile_ms", compileMsAtSettle)
                .format().replaceFirst(ResultLine.PREFIX, SETTLED));
            out.flush();
            final BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); null != line; line = lines.readLine())
            {
                if (COUNT.equals(line.trim()))
                {
                    count = true;
                    return;
                }
            }
        }
        catch (final InterruptedException | IOException ex)
        {
            // Standard input closed or the process is ending: nothing to count.
        }
        // Standard input ended without the word: the suite is gone; count anyway so the run ends.
        count = true;
    }
}
