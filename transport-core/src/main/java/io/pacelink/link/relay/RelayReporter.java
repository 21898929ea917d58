package io.pacelink.link.relay;

import java.io.PrintStream;

/**
 * Receives a running relay's counters once per report interval and its summary when it stops. Called on the relay's
 * thread: keep it short.
 */
public interface RelayReporter
{
    /**
     * @param previous the snapshot of the previous interval, or null for the first.
     * @param current  the snapshot now.
     */
    void onInterval(RelayStats previous, RelayStats current);

    /**
     * @param total the final snapshot.
     */
    void onClose(RelayStats total);

    /**
     * The relay gave its clients new source ports towards the server ({@code NetemRelay.Context.rebindAfterNs}).
     *
     * @param clients how many clients were rebound.
     */
    default void onRebinding(final int clients)
    {
    }

    /**
     * The relay's thread asked for a real-time priority ({@code NetemRelay.Context.realtimePriority}), before it
     * relays anything.
     *
     * @param priority the {@code SCHED_FIFO} priority asked for.
     * @param refusal  null if the thread runs at it, else why it does not (one line).
     */
    default void onRealtimePriority(final int priority, final String refusal)
    {
    }

    /**
     * @param out where to print.
     * @return a reporter that prints one line per interval and the summary at the end.
     */
    static RelayReporter printingTo(final PrintStream out)
    {
        return new RelayReporter()
        {
            public void onInterval(final RelayStats previous, final RelayStats current)
            {
                out.println(current.formatInterval(previous));
            }

            public void onClose(final RelayStats total)
            {
                out.println(total.formatSummary());
            }

            public void onRebinding(final int clients)
            {
                out.println("rebinding: " + clients + " client(s) now reach the server from a new source port");
            }

            public void onRealtimePriority(final int priority, final String refusal)
            {
                out.println(null == refusal ? "  thread: SCHED_FIFO priority " + priority :
                    "  thread: normal scheduling (SCHED_FIFO " + priority + " refused: " + refusal + ")");
            }
        };
    }
}
