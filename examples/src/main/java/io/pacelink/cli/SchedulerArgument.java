package io.pacelink.cli;

import io.pacelink.transport.schedule.PacketSchedulers;

/**
 * The {@code --qdisc} option every command shares: the senders' packet scheduler.
 */
final class SchedulerArgument
{
    /**
     * Help text for the option.
     */
    static final String HELP = "The senders' packet scheduler: fq (paced, fair; the default with the qdisc-fq " +
        "module), fifo (unpaced) or rr. A bottleneck's queue is qdisc= in the path spec.";

    private SchedulerArgument()
    {
    }

    /**
     * @param qdisc the option's value, or null for the default.
     * @return the scheduler's name.
     * @throws IllegalArgumentException naming the available schedulers.
     */
    static String resolve(final String qdisc)
    {
        try
        {
            return PacketSchedulers.resolveName(qdisc);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--qdisc: " + ex.getMessage(), ex);
        }
    }
}
