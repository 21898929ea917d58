package io.pacelink.transport.schedule;

import io.pacelink.transport.cc.ControllerCounters;
import io.pacelink.transport.cc.ControllerParameters;

import java.util.Collections;

/**
 * Creates {@link RoundRobinScheduler}s: the core's default scheduler ({@code rr}, priority 0), outranked by
 * {@code fq} when the {@code qdisc-fq} module is on the class path.
 */
public final class RoundRobinSchedulerFactory implements PacketSchedulerFactory
{
    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return RoundRobinScheduler.NAME;
    }

    /**
     * {@inheritDoc}
     */
    public int defaultPriority()
    {
        return 0;
    }

    /**
     * {@inheritDoc}
     * <p>
     * The round-robin scheduler has no parameters (any {@code rr.*} parameter is rejected) and keeps no
     * statistics.
     */
    public <F extends SchedulableFlow> PacketScheduler<F> newScheduler(
        final ControllerParameters parameters, final ControllerCounters counters)
    {
        parameters.rejectUnknown(RoundRobinScheduler.NAME + ".", Collections.emptySet());
        return new RoundRobinScheduler<>();
    }
}
