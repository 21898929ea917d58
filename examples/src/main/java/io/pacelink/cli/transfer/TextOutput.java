package io.pacelink.cli.transfer;

import java.io.PrintStream;

/**
 * What the human-readable outputs share: where they print, and the lines that open a session.
 */
abstract class TextOutput implements TransferOutput
{
    protected final PrintStream out;
    protected final String verb;

    /**
     * @param out  where to print.
     * @param verb "sent" or "received", for the summary.
     */
    TextOutput(final PrintStream out, final String verb)
    {
        this.out = out;
        this.verb = verb;
    }

    public synchronized void listening(final String address, final String directory)
    {
        out.println("listening on " + address + ", receiving into " + directory);
    }

    public synchronized void session(final String description)
    {
        out.println(description);
    }
}
