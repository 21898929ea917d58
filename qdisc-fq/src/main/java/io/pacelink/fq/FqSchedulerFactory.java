package io.pacelink.fq;

import io.pacelink.transport.cc.ControllerCounters;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.schedule.PacketScheduler;
import io.pacelink.transport.schedule.PacketSchedulerFactory;
import io.pacelink.transport.schedule.SchedulableFlow;

/**
 * Creates {@link FqScheduler}s (name {@code fq}); its priority 100 outranks the core's {@code rr}, so {@code fq} is
 * the default scheduler whenever this module is on the class path.
 */
public final class FqSchedulerFactory implements PacketSchedulerFactory
{
    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return FqScheduler.NAME;
    }

    /**
     * {@inheritDoc}
     */
    public int defaultPriority()
    {
        return 100;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException for an unknown {@code fq.*} parameter or an invalid value (see
     *                                  {@link FqConfig}).
     */
    public <F extends SchedulableFlow> PacketScheduler<F> newScheduler(
        final ControllerParameters parameters, final ControllerCounters counters)
    {
        return new FqScheduler<>(FqConfig.from(parameters), counters);
    }
}
