package io.pacelink.cli.transfer;

import java.io.PrintStream;

/**
 * Picks the output a command writes: JSON Lines with {@code --json}, progress bars when stdout is a terminal,
 * plain periodic lines otherwise.
 */
public final class TransferOutputs
{
    private TransferOutputs()
    {
    }

    /**
     * @param json    whether {@code --json} was given.
     * @param out     standard output.
     * @param sending true for the sender, false for the receiver.
     * @param peer    the other side's address, or null.
     * @return the output.
     */
    public static TransferOutput create(
        final boolean json, final PrintStream out, final boolean sending, final String peer)
    {
        if (json)
        {
            return new JsonOutput(out, sending ? "sender" : "receiver", peer);
        }
        final String verb = sending ? "sent" : "received";
        // System.console() is null unless both standard input and output are a terminal.
        return null != System.console() && out == System.out ? new TerminalOutput(out, verb) :
            new PlainOutput(out, verb);
    }
}
