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
        };
    }
}
