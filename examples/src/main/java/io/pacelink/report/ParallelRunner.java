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
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs simulations on a fixed number of threads ({@code pacelink report}'s matrix, {@code pacelink sim --seeds}). Each
 * run is a deterministic, single-threaded simulation with its own simulator, links and endpoints (nothing is shared
 * between runs), so its result does not depend on how many run at once or in which order; the most expensive runs
 * start first so the last one to finish is a short one.
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
        return run(runs, jobs, Comparator.comparingDouble(RunSpec::estimatedCost).reversed()
                .thenComparingInt(RunSpec::index), ParallelRunner::runNamingFailures,
            (result) -> meter.onRunDone(result.spec(), result.wallNs()));
    }

    /**
     * Run independent tasks on {@code jobs} threads, starting them in {@code startOrder}.
     *
     * @param tasks      the tasks' inputs.
     * @param jobs       how many run at once, at least one.
     * @param startOrder which start first (the most expensive, so the last to finish is a short one).
     * @param task       runs one; a failure should name its input.
     * @param onDone     told of each result as it comes (on the calling thread).
     * @param <T>        a task's input.
     * @param <R>        a task's result.
     * @return the results, in the order of {@code tasks}.
     * @throws IllegalStateException if a task fails; the others are cancelled.
     */
    public static <T, R> List<R> run(
        final List<T> tasks,
        final int jobs,
        final Comparator<? super T> startOrder,
        final Function<? super T, ? extends R> task,
        final Consumer<? super R> onDone)
    {
        if (jobs < 1)
        {
            throw new IllegalArgumentException("jobs must be at least 1, got " + jobs);
        }
        final AtomicInteger threadNumber = new AtomicInteger();
        final ExecutorService executor = Executors.newFixedThreadPool(Math.min(jobs, Math.max(1, tasks.size())),
            (runnable) ->
            {
                final Thread thread = new Thread(runnable, "pacelink-run-" + threadNumber.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
        final ExecutorCompletionService<Integer> completion = new ExecutorCompletionService<>(executor);
        final List<Future<Integer>> futures = new ArrayList<>();
        final Object[] results = new Object[tasks.size()];
        int done = 0;
        try
        {
            final List<Integer> byOrder = new ArrayList<>();
            for (int i = 0; i < tasks.size(); i++)
            {
                byOrder.add(i);
            }
            byOrder.sort((a, b) -> startOrder.compare(tasks.get(a), tasks.get(b)));
            for (final int index : byOrder)
            {
                futures.add(completion.submit(() ->
                {
                    results[index] = task.apply(tasks.get(index));
                    return index;
                }));
            }
            for (; done < tasks.size(); done++)
            {
                final int index = completion.take().get();
                @SuppressWarnings("unchecked")
                final R result = (R)results[index];
                onDone.accept(result);
            }
            @SuppressWarnings("unchecked")
            final List<R> inOrder = (List<R>)Arrays.asList(results);
            return inOrder;
        }
        catch (final ExecutionException ex)
        {
            throw new IllegalStateException(ex.getCause().getMessage(), ex.getCause());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted after " + done + " runs", ex);
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
