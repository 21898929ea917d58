package io.pacelink.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs simulations on a fixed number of threads. Each run is a deterministic, single-threaded simulation with its own
 * simulator, links and endpoints (nothing is shared between runs), so its result does not depend on how many run at
 * once or in which order; the most expensive runs start first so the last one to finish is a short one.
 */
public final class ParallelRunner
{
    private ParallelRunner()
    {
    }

    /**
     * @param runs  the runs.
     * @param jobs  how many run at once, at least one.
     * @param meter told of each finished run.
     * @return the results, in the order of {@code runs}.
     * @throws IllegalStateException if a run fails (naming it); the others are cancelled.
     */
    public static List<RunResult> run(final List<RunSpec> runs, final int jobs, final ProgressMeter meter)
    {
        if (jobs < 1)
        {
            throw new IllegalArgumentException("jobs must be at least 1, got " + jobs);
        }
        final AtomicInteger threadNumber = new AtomicInteger();
        final ExecutorService executor = Executors.newFixedThreadPool(Math.min(jobs, Math.max(1, runs.size())),
            (task) ->
            {
                final Thread thread = new Thread(task, "pacelink-report-" + threadNumber.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
        final ExecutorCompletionService<RunResult> completion = new ExecutorCompletionService<>(executor);
        final List<Future<RunResult>> futures = new ArrayList<>();
        try
        {
            final List<RunSpec> byCost = new ArrayList<>(runs);
            byCost.sort(Comparator.comparingDouble(RunSpec::estimatedCost).reversed()
                .thenComparingInt(RunSpec::index));
            for (final RunSpec spec : byCost)
            {
                futures.add(completion.submit(() -> runNamingFailures(spec)));
            }

            final RunResult[] results = new RunResult[runs.size()];
            for (int i = 0; i < runs.size(); i++)
            {
                final RunResult result = completion.take().get();
                results[runs.indexOf(result.spec())] = result;
                meter.onRunDone(result.spec(), result.wallNs());
            }
            return Arrays.asList(results);
        }
        catch (final ExecutionException ex)
        {
            throw new IllegalStateException(ex.getCause().getMessage(), ex.getCause());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted after " + meter.done() + " runs", ex);
        }
        finally
        {
            futures.forEach((future) -> future.cancel(true));
            executor.shutdownNow();
        }
    }

    private static RunResult runNamingFailures(final RunSpec spec)
    {
        try
        {
            return RunResult.run(spec);
        }
        catch (final RuntimeException ex)
        {
            throw new IllegalStateException("run " + spec.describe() + " failed: " + ex, ex);
        }
    }
}
