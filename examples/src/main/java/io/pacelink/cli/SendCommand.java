package io.pacelink.cli;

import io.pacelink.cli.transfer.FileSender;
import io.pacelink.cli.transfer.IoErrors;
import io.pacelink.cli.transfer.Messages;
import io.pacelink.cli.transfer.SourceTree;
import io.pacelink.cli.transfer.TransferOutput;
import io.pacelink.cli.transfer.TransferOutputs;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.PacelinkContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pacelink send}: files and directory trees to a {@code pacelink receive}, checked end to end with SHA-256,
 * resumable, and confirmed file by file by the receiver: the exit status is 0 only if every entry arrived intact
 * and is stored under its final name.
 */
@Command(
    name = "send",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Send files and directory trees to a running `pacelink receive`; every file is checked with SHA-256 and " +
            "confirmed by the receiver (exit status 0 only if all were).",
        "Example: pacelink send video.mkv photos/ 10.0.0.2   then, if it was interrupted:   " +
            "pacelink send --resume video.mkv photos/ 10.0.0.2%n"
    })
public final class SendCommand implements Callable<Integer>
{
    @Parameters(arity = "1..*", paramLabel = "FILE|DIR... HOST[:PORT]", hideParamSyntax = true,
        description = "Files and directories to send (a directory arrives with everything below it, under its own " +
            "name), then the receiver (port " + Messages.DEFAULT_PORT + " if not given).")
    private List<String> arguments;

    @Option(names = {"-C", "--cc"}, defaultValue = "bbr", paramLabel = "CC",
        description = "Congestion control: bbr, bbrplus, bbr2, bbr3, cubic or reno (default ${DEFAULT-VALUE}, which " +
            "keeps a long lossy path full).")
    private String congestionControl;

    @Option(names = "--rate", paramLabel = "R",
        description = "Send at most R, e.g. 100mbit, leaving the rest of the path to others (default: as fast as " +
            "the path allows).")
    private BitRate rate;

    @Option(names = "--resume",
        description = "Continue interrupted transfers: the receiver offers what it kept (proven by its SHA-256), " +
            "only the rest is sent; files it already has identically are skipped.")
    private boolean resume;

    @Option(names = "--json", description = "Print JSON Lines (progress every second, one line per file, a summary).")
    private boolean json;

    @Mixin
    private SecurityOptions security;

    @Mixin
    private IoOptions ioOptions;

    public Integer call() throws IOException
    {
        if (arguments.size() < 2)
        {
            throw new IllegalArgumentException("give what to send, then the receiver, e.g. pacelink send " +
                arguments.get(0) + " 10.0.0.2 (or HOST:PORT; the port defaults to " + Messages.DEFAULT_PORT + ")");
        }
        final PrintStream out = System.out;
        final InetSocketAddress receiver = receiver(arguments.get(arguments.size() - 1));
        CongestionControlRegistry.load().factory(congestionControl); // fail fast on a typo, listing the choices
        ioOptions.validate();
        security.apply(new PacelinkContext(), receiver, "toward"); // and on a missing key or a plaintext WAN peer
        final List<Path> sources = new ArrayList<>();
        for (final String source : arguments.subList(0, arguments.size() - 1))
        {
            sources.add(Path.of(source));
        }
        final SourceTree tree;
        try
        {
            tree = SourceTree.collect(sources);
        }
        catch (final IOException ex)
        {
            throw new IOException("cannot list what to send: " + IoErrors.describe(ex), ex);
        }
        final TransferOutput output = TransferOutputs.create(json, out, true, null);
        for (final String skipped : tree.skipped())
        {
            output.warning("not sent: " + skipped);
        }
        return FileSender.run(new FileSender.Plan(tree.entries(), receiver, congestionControl,
            null == rate ? 0 : rate.bitsPerSecond(), resume,
            (context) -> security.apply(ioOptions.apply(context), receiver, "toward")),
            output);
    }

    /**
     * @param text {@code HOST}, {@code HOST:PORT}, {@code [IPv6]} or {@code [IPv6]:PORT}.
     * @return the address.
     */
    static InetSocketAddress receiver(final String text)
    {
        final int colon = text.lastIndexOf(':');
        final boolean hasPort = colon > 0 && (text.startsWith("[") ? text.charAt(colon - 1) == ']' :
            text.indexOf(':') == colon);
        final String host = hasPort ? text.substring(0, colon) : text;
        final String withPort = (host.startsWith("[") ? host.substring(1, host.length() - 1) : host) + ":" +
            (hasPort ? text.substring(colon + 1) : Integer.toString(Messages.DEFAULT_PORT));
        return SocketAddresses.parse("the receiver", withPort, null);
    }
}
