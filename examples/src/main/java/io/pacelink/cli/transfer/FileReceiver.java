package io.pacelink.cli.transfer;

import io.pacelink.cli.ServerHeap;
import io.pacelink.cli.net.EndpointCloser;
import io.pacelink.transport.Connection;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@code pacelink receive}: one endpoint that accepts senders, each connection a session with its own network
 * thread ({@link TransferChannel}) and file thread ({@link ReceiveWorker}), side by side, sharing the directory,
 * the free-space budget and the file leases. With {@code -1} it serves one session and exits with its status.
 * Ctrl-C stops every session, each keeping its partial file for {@code --resume}.
 */
public final class FileReceiver
{
    /**
     * Sessions at once: the endpoint refuses more connections, so memory stays bounded (4 MiB of slots each).
     */
    public static final int MAX_SESSIONS = 16;

    private static final int INBOUND_SLOTS = 16;
    private static final int OUTBOUND_SLOTS = 256;

    private final Plan plan;
    private final Function<String, TransferOutput> outputs;
    private final List<Session> sessions = new CopyOnWriteArrayList<>();
    private volatile boolean stopping;

    /**
     * How to receive.
     *
     * @param listen     where to listen.
     * @param directory  where files go.
     * @param overwrite  existing files may be replaced.
     * @param resumeOnly only interrupted transfers are completed.
     * @param once       serve one session and exit with its status ({@code -1}).
     * @param diskSpace  where the free space comes from ({@link DiskSpace#FILE_STORE}).
     */
    public record Plan(
        InetSocketAddress listen,
        Path directory,
        boolean overwrite,
        boolean resumeOnly,
        boolean once,
        DiskSpace diskSpace,
        Consumer<PacelinkContext> security)
    {
    }

    private FileReceiver(final Plan plan, final Function<String, TransferOutput> outputs)
    {
        this.plan = plan;
        this.outputs = outputs;
    }

    /**
     * @param plan    how to receive.
     * @param outputs an output per session, given the sender's address (null: the receiver's own).
     * @return the exit status: with {@code -1} 0 if the session's every entry arrived, else 1; without it 0 when
     * stopped.
     * @throws IOException if the directory cannot be resolved.
     */
    public static int run(final Plan plan, final Function<String, TransferOutput> outputs) throws IOException
    {
        return new FileReceiver(plan, outputs).serve();
    }

    private int serve() throws IOException
    {
        final DestinationPaths paths = new DestinationPaths(plan.directory());
        final ReceiveSettings settings = new ReceiveSettings(
            paths, plan.overwrite(), plan.resumeOnly(), new SpaceBudget(plan.diskSpace()), new FileLeases());
        final PacelinkContext context = TransferChannel.endpointContext(plan.listen()).maxConnections(MAX_SESSIONS);
        plan.security().accept(context);
        final TransferOutput output = outputs.apply(null);
        // The endpoint closes (deleting its counters file) before the hook lets an interrupted JVM exit; at once, as
        // every session has ended by then (see FileSender).
        try (InterruptHook ignore = new InterruptHook(this::stopAll);
            EndpointCloser endpointCloser = new EndpointCloser(Endpoint.launch(context)))
        {
            final Endpoint endpoint = endpointCloser.endpoint();
            ServerHeap.watchTraffic(endpoint.counters().datagramsReceived()::get);
            final InetSocketAddress address = endpoint.localAddress();
            output.listening(address.getHostString() + ":" + address.getPort(), paths.root().toString());
            while (!stopping)
            {
                final Connection connection = TransferChannel.accept(endpoint, () -> stopping);
                if (null == connection)
                {
                    break;
                }
                final Session session = new Session(connection, settings, context, endpoint);
                sessions.removeIf(Session::isOver);
                sessions.add(session);
                if (plan.once())
                {
                    session.run();
                    return session.worker.succeeded() ? 0 : 1;
                }
                session.start();
            }
            for (final Session session : sessions)
            {
                session.join();
            }
            return 0;
        }
        finally
        {
            output.close();
        }
    }

    private void stopAll()
    {
        stopping = true;
        for (final Session session : sessions)
        {
            session.pipes.stop("the receiver was interrupted");
        }
    }

    private final class Session implements Runnable
    {
        private final Connection connection;
        private final Endpoint endpoint;
        private final SessionPipes pipes;
        private final ReceiveWorker worker;
        private final TransferChannel channel;
        private final TransferOutput output;
        private final TransferProgress progress;
        private final Thread files;
        private final long startNs = System.nanoTime();
        private Thread network;

        Session(
            final Connection connection,
            final ReceiveSettings settings,
            final PacelinkContext context,
            final Endpoint endpoint)
        {
            this.connection = connection;
            this.endpoint = endpoint;
            final String peer = connection.remoteAddress().getHostString() + ":" +
                connection.remoteAddress().getPort();
            output = outputs.apply(peer);
            progress = new TransferProgress(startNs);
            pipes = new SessionPipes(
                new SlotPipe(OUTBOUND_SLOTS, FileSender.CONTROL_MESSAGE_BYTES),
                new SlotPipe(INBOUND_SLOTS, Messages.MAX_MESSAGE_BYTES),
                context.idleStrategySupplier().get());
            worker = new ReceiveWorker(settings, pipes, peer, progress, output);
            channel = new TransferChannel(connection, pipes, context.idleStrategySupplier().get(), "sender",
                context.idleTimeoutNs(), 0);
            files = new Thread(worker, "pacelink-receive-files-" + peer);
        }

        void start()
        {
            network = new Thread(this, "pacelink-receive-net-" + connection.remoteAddress().getPort());
            network.start();
        }

        public void run()
        {
            files.start();
            channel.run(() -> output.progress(progress.snapshot(System.nanoTime(), worker.bytesWritten(),
                ProgressSnapshot.NOT_SENDING)));
            FileSender.join(files);
            output.summary(new TransferSummary(worker.succeeded(), worker.entries(), worker.entriesOk(),
                worker.entries() - worker.entriesOk(), worker.bytesTotal(), worker.bytesWritten(),
                worker.bytesResumed(), worker.bytesResent(), System.nanoTime() - startNs,
                ProgressSnapshot.NOT_SENDING, EndpointCounterValue.integrityFailures(endpoint),
                worker.failure()));
            output.close();
        }

        boolean isOver()
        {
            return null != network && !network.isAlive();
        }

        void join()
        {
            if (null != network)
            {
                FileSender.join(network);
            }
        }
    }
}
