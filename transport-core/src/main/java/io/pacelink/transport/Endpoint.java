package io.pacelink.transport;

import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.agent.DeadlineIdleStrategy;
import io.pacelink.transport.agent.EndpointAgent;
import io.pacelink.transport.engine.EndpointCore;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.ImpairedDatagramPort;
import io.pacelink.transport.port.ImpairmentConfig;
import io.pacelink.transport.port.NioDatagramPort;
import io.pacelink.transport.schedule.PacketSchedulers;
import io.pacelink.transport.stats.CountersBuffers;
import io.pacelink.transport.stats.EndpointCounters;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.status.ConcurrentCountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.net.InetSocketAddress;

/**
 * A Pacelink endpoint: one UDP socket, many connections, one agent that owns all protocol state. Open one with
 * {@link #launch(PacelinkContext)}; the context's {@link ThreadingMode} says who runs the agent.
 *
 * <pre>{@code
 * try (Endpoint server = Endpoint.launch(new PacelinkContext().bindAddress(new InetSocketAddress("127.0.0.1", 40123))))
 * {
 *     Connection connection;
 *     while (null == (connection = server.accept())) { Thread.onSpinWait(); }
 *     connection.poll((buffer, offset, length) -> process(buffer, offset, length), 10);
 * }
 * }</pre>
 */
public final class Endpoint implements AutoCloseable
{
    private final PacelinkContext context;
    private final EndpointCore core;
    private final EndpointAgent agent;
    private final ConcurrentCountersManager countersManager;
    private final AgentRunner runner;
    private final AgentInvoker invoker;

    private Endpoint(final PacelinkContext context)
    {
        context.conclude();
        this.context = context;
        final DatagramPort port = impaired(context, null != context.datagramPort() ?
            context.datagramPort() : NioDatagramPort.open(context.bindAddress(), context.socketBufferBytes()));
        countersManager = CountersBuffers.newManager(context.countersBufferBytes());
        try
        {
            core = new EndpointCore(
                context,
                port,
                CongestionControlRegistry.load(),
                PacketSchedulers.newScheduler(context.packetScheduler(), context.schedulerParameters()),
                countersManager);
        }
        catch (final RuntimeException ex)
        {
            port.close();
            throw ex;
        }
        agent = new EndpointAgent(core, context.nanoClock());

        switch (context.threadingMode())
        {
            case DEDICATED:
                runner = new AgentRunner(
                    agentIdleStrategy(context.idleStrategySupplier().get(), core, context),
                    context.errorHandler(),
                    null,
                    agent);
                invoker = null;
                AgentRunner.startOnThread(runner);
                break;

            case INVOKER:
                runner = null;
                invoker = new AgentInvoker(context.errorHandler(), null, agent);
                invoker.start();
                break;

            default:
                runner = null;
                invoker = null;
        }
    }

    /**
     * A busy-spinning strategy never sleeps, so it is used as it is (the low-latency profile); any other is wrapped
     * so it spins instead of parking near the endpoint's next deadline.
     */
    private static IdleStrategy agentIdleStrategy(
        final IdleStrategy idleStrategy, final EndpointCore core, final PacelinkContext context)
    {
        if (idleStrategy instanceof BusySpinIdleStrategy || idleStrategy instanceof NoOpIdleStrategy)
        {
            return idleStrategy;
        }
        return new DeadlineIdleStrategy(
            idleStrategy, core::nextDeadlineNs, context.nanoClock(), DeadlineIdleStrategy.DEFAULT_SPIN_WINDOW_NS);
    }

    private static DatagramPort impaired(final PacelinkContext context, final DatagramPort port)
    {
        if (ImpairmentConfig.NONE.equals(context.sendImpairment()) &&
            ImpairmentConfig.NONE.equals(context.receiveImpairment()))
        {
            return port;
        }
        return new ImpairedDatagramPort(
            port, context.sendImpairment(), context.receiveImpairment(), PacelinkContext.MAX_DATAGRAM_SIZE_BYTES);
    }

    /**
     * Open an endpoint.
     *
     * @param context its configuration.
     * @return the endpoint, bound and (in DEDICATED mode) running.
     * @throws IllegalArgumentException or {@link IllegalStateException} with a message saying what to fix if the
     *                                  configuration is invalid; {@link java.io.UncheckedIOException} if the socket
     *                                  cannot be bound.
     */
    public static Endpoint launch(final PacelinkContext context)
    {
        return new Endpoint(context);
    }

    /**
     * Open a connection to a server with the context's congestion controller.
     *
     * @param remoteAddress the server's address.
     * @return the connection, CONNECTING until the server answers.
     */
    public Connection connect(final InetSocketAddress remoteAddress)
    {
        return core.connect(remoteAddress, null);
    }

    /**
     * Open a connection to a server with a given congestion controller.
     *
     * @param remoteAddress     the server's address.
     * @param congestionControl the controller's name, e.g. {@code bbr}.
     * @return the connection, CONNECTING until the server answers.
     */
    public Connection connect(final InetSocketAddress remoteAddress, final String congestionControl)
    {
        return core.connect(remoteAddress, congestionControl);
    }

    /**
     * @return the next connection a client opened to this endpoint, or null if none is waiting.
     */
    public Connection accept()
    {
        return core.accept();
    }

    /**
     * @return the address peers send to.
     */
    public InetSocketAddress localAddress()
    {
        return core.localAddress();
    }

    /**
     * @return the endpoint-wide counters.
     */
    public EndpointCounters counters()
    {
        return core.counters();
    }

    /**
     * @return every counter of this endpoint (system, per connection, per controller) for tools like
     * {@code pacelink stat}.
     */
    public CountersReader countersReader()
    {
        return countersManager;
    }

    /**
     * @return the agent, to run it in SHARED mode (e.g. inside a {@link org.agrona.concurrent.CompositeAgent}).
     */
    public Agent agent()
    {
        return agent;
    }

    /**
     * Run one duty cycle (INVOKER mode).
     *
     * @return work done.
     * @throws IllegalStateException if the endpoint is not in INVOKER mode.
     */
    public int invoke()
    {
        if (null == invoker)
        {
            throw new IllegalStateException("invoke() needs ThreadingMode.INVOKER; this endpoint runs " +
                context.threadingMode());
        }
        return invoker.invoke();
    }

    /**
     * @return the earliest time (on the context's clock) the agent has something to do.
     */
    public long nextDeadlineNs()
    {
        return core.nextDeadlineNs();
    }

    /**
     * Close every connection and the socket. In SHARED mode the application closes the agent's runner itself.
     */
    public void close()
    {
        if (null != runner)
        {
            CloseHelper.close(runner);
        }
        else if (null != invoker)
        {
            CloseHelper.close(invoker);
        }
        else
        {
            core.close(context.nanoClock().nanoTime());
        }
    }
}
