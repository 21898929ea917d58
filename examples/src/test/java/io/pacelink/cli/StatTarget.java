package io.pacelink.cli;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.port.ImpairmentConfig;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * What {@code pacelink stat} watches in its cross-process test: a server and a client endpoint in this (child)
 * process, with real sockets and their counters files in the given directory, moving data over loopback with 2 %
 * injected loss (so retransmits and losses move too) until standard input closes; then it closes both endpoints
 * and exits 0. The endpoints run on their own (DEDICATED, backing-off) agent threads. It prints
 * {@code connected <client port> <server port>} once the connection is up.
 * <p>
 * Arguments: the counters directory and the connection's congestion controller (the endpoints' default is another).
 */
public final class StatTarget
{
    private static final int MESSAGE_BYTES = 16 * 1024;

    private StatTarget()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final Path directory = Path.of(args[0]);
        final String congestionControl = args[1];
        final Thread stdinWatcher = new Thread(StatTarget::awaitEndOfInput, "stdin-watcher");
        stdinWatcher.setDaemon(true);
        stdinWatcher.start();

        // Both endpoints default to another controller than the connection's, which the client names (and the
        // server runs because the client asked), so a reader must show each connection's own.
        final String endpointDefault = "reno".equals(congestionControl) ? "cubic" : "reno";
        try (Endpoint server = Endpoint.launch(new PacelinkContext()
                .countersDirectory(directory)
                .congestionControl(endpointDefault));
            Endpoint client = Endpoint.launch(new PacelinkContext()
                .countersDirectory(directory)
                .congestionControl(endpointDefault)
                .acceptConnections(false)
                .sendImpairment(new ImpairmentConfig(0.02, 0, 0, 1, 7))))
        {
            final Connection sender = client.connect(server.localAddress(), congestionControl);
            Connection receiver = null;
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (null == receiver || ConnectionState.CONNECTING == sender.state())
            {
                receiver = null == receiver ? server.accept() : receiver;
                if (System.nanoTime() > deadlineNs)
                {
                    throw new IllegalStateException("could not connect: " + sender);
                }
                Thread.onSpinWait();
            }
            System.out.println("connected " + client.localAddress().getPort() + " " +
                server.localAddress().getPort());

            // About 16 MB/s: enough to move every counter, gentle on a shared machine.
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(MESSAGE_BYTES));
            while (stdinWatcher.isAlive())
            {
                sender.offer(message, 0, MESSAGE_BYTES);
                receiver.poll((buffer, offset, length) -> { }, 64);
                TimeUnit.MILLISECONDS.sleep(1);
            }
            // The traffic only moves the counters: abort rather than wait until the stopped receiver reads the rest.
            client.closeNow();
        }
    }

    private static void awaitEndOfInput()
    {
        try
        {
            while (System.in.read() >= 0)
            {
                Thread.onSpinWait();
            }
        }
        catch (final IOException ignore)
        {
            // Standard input broke: same as closed.
        }
    }
}
