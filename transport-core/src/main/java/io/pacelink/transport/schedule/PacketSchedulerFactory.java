package io.pacelink.transport.schedule;

import io.pacelink.transport.cc.ControllerCounters;
import io.pacelink.transport.cc.ControllerParameters;

/**
 * Creates packet schedulers of one kind; found with {@link java.util.ServiceLoader} and selected by {@link #name()}.
 */
public interface PacketSchedulerFactory
{
    /**
     * @return the name users select it by, e.g. {@code "rr"}, {@code "fq"}, {@code "fifo"}.
     */
    String name();

    /**
     * @return the preference when no scheduler is named: the highest wins ({@code fq} outranks the core's
     * {@code rr}, so fq is the default when its module is on the class path).
     */
    int defaultPriority();

    /**
     * @param parameters named parameters (e.g. {@code fq.quantum=3028}); unknown names with this scheduler's prefix
     *                   are rejected.
     * @param counters   where the scheduler registers its statistics, at construction (the endpoint's counters,
     *                   so {@code pacelink stat} shows them).
     * @param <F>        the endpoint's flows.
     * @return a new scheduler for one endpoint.
     */
    <F extends SchedulableFlow> PacketScheduler<F> newScheduler(
        ControllerParameters parameters, ControllerCounters counters);
}
