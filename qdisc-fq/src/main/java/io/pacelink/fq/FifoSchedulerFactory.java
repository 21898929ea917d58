package io.pacelink.fq;

import io.pacelink.transport.cc.ControllerCounters;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.schedule.PacketScheduler;
import io.pacelink.transport.schedule.PacketSchedulerFactory;
import io.pacelink.transport.schedule.SchedulableFlow;

import java.util.Collections;

/**
 * Creates {@link FifoScheduler}s (name {@code fifo}); priority −100, so it is used only when asked for by name.
 */
public final class FifoSchedulerFactory implements PacketSchedulerFactory
{
    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return FifoScheduler.NAME;
    }

    /**
     * {@inheritDoc}
     */
    public int defaultPriority()
    {
        return -100;
    }

    /**
     * {@inheritDoc}
     * <p>
     * The FIFO has no parameters (any {@code fifo.*} parameter is rejected) and keeps no statistics.
     */
    public <F extends SchedulableFlow> PacketScheduler<F> newScheduler(
        final ControllerParameters parameters, final ControllerCounters counters)
    {
        parameters.rejectUnknown(FifoScheduler.NAME + ".", Collections.emptySet());
        return new FifoScheduler<>();
    }
}
