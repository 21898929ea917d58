package io.pacelink.cli;

import io.pacelink.cli.transfer.DiskSpace;
import io.pacelink.cli.transfer.FileReceiver;
import io.pacelink.cli.transfer.Messages;
import io.pacelink.cli.transfer.TransferOutputs;
import io.pacelink.transport.PacelinkContext;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code pacelink receive}: accepts {@code pacelink send} sessions and writes their files below one directory,
 * each file visible under its final name only once its SHA-256 matched.
 */
@Command(
    name = "receive",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Receive files from `pacelink send` into a directory, until Ctrl-C (or after one session with -1). A file " +
            "appears under its final name only after its SHA-256 matched; interrupted files are kept for --resume.",
        "Example: pacelink receive --dir /data/incoming   then on the sending host:   pacelink send big.iso HOST%n"
    })
public final class ReceiveCommand implements Callable<Integer>
{
    @Option(names = "--listen", paramLabel = "[ADDR:]PORT", defaultValue = "0.0.0.0:" + Messages.DEFAULT_PORT,
        description = "Where senders connect (default ${DEFAULT-VALUE}: every interface; port 0 picks a free one).")
    private String listen;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".",
        description = "Directory the files go into; nothing is ever written outside it (default: the current one).")
    private Path directory;

    @ArgGroup(exclusive = true)
    private Mode mode = new Mode();

    @Option(names = "-1", description = "Serve one session, then exit: 0 if all its files arrived, 1 otherwise.")
    private boolean once;

    @Mixin
    private SecurityOptions security;

    @Mixin
    private IoOptions ioOptions;

    @Option(names = "--json", description = "Print JSON Lines (progress every second, one line per file, a summary " +
        "per session).")
    private boolean json;

    static final class Mode
    {
        @Option(names = "--overwrite", description = "Replace existing files (default: refuse them).")
        boolean overwrite;

        @Option(names = "--resume-only",
            description = "Only complete interrupted transfers: accept a file only from a sender run with --resume, " +
                "and only if part of it was kept here (or it is already here, identical); refuse everything else.")
        boolean resumeOnly;
    }

    public Integer call() throws IOException
    {
        final InetSocketAddress address = SocketAddresses.parse("--listen", listen, "0.0.0.0");
        if (!Files.isDirectory(directory))
        {
            throw new IllegalArgumentException("--dir " + directory + " is not a directory; create it first " +
                "(mkdir -p " + directory + ")");
        }
        if (!Files.isWritable(directory))
        {
            throw new IllegalArgumentException("--dir " + directory + " is not writable by this user; choose " +
                "another directory or fix its permissions");
        }
        ioOptions.validate();
        security.apply(new PacelinkContext(), address, "listening on"); // fail fast, before printing anything
        final PrintStream out = System.out;
        ServerHeap.returnMemoryWhenIdle();
        return FileReceiver.run(
            new FileReceiver.Plan(address, directory, mode.overwrite, mode.resumeOnly, once, DiskSpace.FILE_STORE,
                (context) -> security.apply(ioOptions.apply(context), address, "listening on")),
            (peer) -> TransferOutputs.create(json, out, false, peer));
    }
}
