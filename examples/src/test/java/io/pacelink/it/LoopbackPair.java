package io.pacelink.it;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ThreadingMode;
import io.pacelink.transport.port.ImpairmentConfig;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.CompositeAgent;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A server and a client endpoint on real loopback sockets, both run by one agent thread (SHARED mode in a
 * {@link CompositeAgent}) while the test thread is the application. Optional impairment on both endpoints' sends.
 */
final class LoopbackPair implements AutoCloseable
{
    final Endpoint server;
    final Endpoint client;
    private final AgentRunner runner;

    LoopbackPair(
        final Consumer<PacelinkContext> configure,
        final ImpairmentConfig clientSend,
        final ImpairmentConfig serverSend)
    {
        final PacelinkContext serverContext = new PacelinkContext()
            .threadingMode(ThreadingMode.SHARED)
            .sendImpairment(serverSend)
            .congestionControl("reno");
        final PacelinkContext clientContext = new PacelinkContext()
            .threadingMode(ThreadingMode.SHARED)
            .sendImpairment(clientSend)
            .acceptConnections(false)
            .congestionControl("reno");
        configure.accept(serverContext);
        configure.accept(clientContext);
        server = Endpoint.launch(serverContext);
        client = Endpoint.launch(clientContext);
        runner = new AgentRunner(
            new BackoffIdleStrategy(100, 10, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(50)),
            Throwable::printStackTrace,
            null,
            new CompositeAgent(server.agent(), client.agent()));
        AgentRunner.startOnThread(runner);
    }

    /**
     * Connect a client connection and wait for the server to accept it.
     *
     * @return {client side, server side}.
     */
    Connection[] connect(final long timeoutNs)
    {
        final Connection clientSide = client.connect(server.localAddress());
        final long deadlineNs = System.nanoTime() + timeoutNs;
        Connection serverSide = null;
        while (null == serverSide || ConnectionState.CONNECTING == clientSide.state())
        {
            if (null == serverSide)
            {
                serverSide = server.accept();
            }
            if (System.nanoTime() > deadlineNs)
            {
                throw new AssertionError("connect timed out: " + clientSide);
            }
            Thread.onSpinWait();
        }
        return new Connection[]{ clientSide, serverSide };
    }

    public void close()
    {
        CloseHelper.close(runner);
    }
}
