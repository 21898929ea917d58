package io.pacelink.cli.transfer;

import io.pacelink.cli.Units;
import io.pacelink.cli.net.EndpointCloser;
import io.pacelink.transport.Connection;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code pacelink send}: one connection to the receiver, a file thread ({@link SendWorker}) that reads and hashes,
 * and this thread moving messages ({@link TransferChannel}); the exit status is 0 only if the receiver confirmed
 * every entry.
 */
public final class FileSender
{
    /**
     * Chunks read ahead of the network: 4 MiB, enough to keep the transport's send buffer topped up while the disk
     * or the digest briefly lags.
     */
    private static final int OUTBOUND_SLOTS = 16;
    private static final int INBOUND_SLOTS = 256;

    /**
     * The longest message a receiver sends (a VERDICT with the longest reason), rounded up.
     */
    static final int CONTROL_MESSAGE_BYTES = 2048;

    /**
     * What to send where.
     *
     * @param entries           the files and directories.
     * @param receiver          the receiver's address.
     * @param congestionControl the connection's controller.
     * @param rateBitsPerSecond the most to send per second, or 0 for as much as the path takes.
     * @param resume            ask the receiver for what it kept of earlier transfers.
     */
    public record Plan(
        List<SourceEntry> entries,
        InetSocketAddress receiver,
        String congestionControl,
        long rateBitsPerSecond,
        boolean resume,
        Consumer<PacelinkContext> security)
    {
    }

    private FileSender()
    {
    }

    /**
     * @param plan   what to send where.
     * @param output where to report.
     * @return the exit status: 0 if every entry was confirmed, 1 otherwise.
     */
    public static int run(final Plan plan, final TransferOutput output)
    {
        final long startNs = System.nanoTime();
        final List<SourceEntry> entries = plan.entries();
        final long totalBytes = entries.stream().mapToLong(SourceEntry::size).sum();
        final TransferProgress progress = new TransferProgress(startNs);
        progress.totals(entries.size(), totalBytes);
        final PacelinkContext context = TransferChannel.senderContext()
            .congestionControl(plan.congestionControl());
        plan.security().accept(context);
        final SessionPipes pipes = new SessionPipes(
            new SlotPipe(OUTBOUND_SLOTS, Messages.MAX_MESSAGE_BYTES),
            new SlotPipe(INBOUND_SLOTS, CONTROL_MESSAGE_BYTES),
            context.idleStrategySupplier().get());
        // The endpoint closes (deleting its counters file) before the hook lets an interrupted JVM exit. It closes at
        // once: the connection's outcome is decided by then (or the transfer was interrupted, and the receiver keeps
        // what it wrote), so neither its draining period nor a linger needs waiting out.
        try (InterruptHook ignore = new InterruptHook(() -> pipes.stop("interrupted"));
            EndpointCloser endpointCloser = new EndpointCloser(Endpoint.launch(context)))
        {
            final Endpoint endpoint = endpointCloser.endpoint();
            final Connection connection;
            try
            {
                connection = TransferChannel.connect(endpoint, plan.receiver(), plan.congestionControl(),
                    context.idleStrategySupplier().get(), context.handshakeTimeoutNs());
            }
            catch (final TransferException ex)
            {
                output.summary(new TransferSummary(false, entries.size(), 0, entries.size(), totalBytes, 0, 0, 0,
                    System.nanoTime() - startNs, 0, EndpointCounterValue.integrityFailures(endpoint),
                    ex.getMessage()));
                return 1;
            }
            output.session("sending " + entries.size() + (1 == entries.size() ? " entry" : " entries") + " (" +
                Units.bytes(totalBytes) + ") to " + plan.receiver().getHostString() + ":" + plan.receiver().getPort() +
                " with " + plan.congestionControl() +
                (plan.rateBitsPerSecond() > 0 ? " at most " + Units.bitsPerSecond(plan.rateBitsPerSecond()) : "") +
                (plan.resume() ? ", resuming interrupted transfers" : ""));

            final SendWorker worker = new SendWorker(entries, pipes, plan.resume(), progress, output);
            final TransferChannel channel = new TransferChannel(connection, pipes,
                context.idleStrategySupplier().get(), "receiver", context.idleTimeoutNs(), plan.rateBitsPerSecond());
            final Thread files = new Thread(worker, "pacelink-send-files");
            files.start();
            channel.run(() -> output.progress(progress.snapshot(System.nanoTime(), channel.dataBytesDelivered(),
                connection.stats().packetsRetransmitted())));
            join(files);
            int entriesOk = 0;
            for (final FileOutcome outcome : worker.outcomes())
            {
                entriesOk += null != outcome && outcome.status().isSuccess() ? 1 : 0;
            }
            final TransferSummary summary = new TransferSummary(worker.succeeded(), entries.size(), entriesOk,
                entries.size() - entriesOk, totalBytes, worker.bytesSent(), worker.bytesResumed(),
                worker.bytesResent(), System.nanoTime() - startNs, connection.stats().packetsRetransmitted(),
                EndpointCounterValue.integrityFailures(endpoint), worker.failure());
            output.summary(summary);
            return summary.succeeded() ? 0 : 1;
        }
        finally
        {
            output.close();
        }
    }

    /**
     * Wait for a session's file thread, which ends soon after its network thread: it learns of a failure at its
     * next wait.
     */
    static void join(final Thread thread)
    {
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
