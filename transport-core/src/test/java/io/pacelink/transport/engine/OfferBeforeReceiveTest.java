package io.pacelink.transport.engine;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.Dumbbell;
import io.pacelink.sim.SimHost;
import io.pacelink.sim.SimulatedAgent;
import io.pacelink.sim.Simulator;
import io.pacelink.transport.Connection;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.port.DatagramHandler;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.ReceiveBatch;
import io.pacelink.transport.port.SendBatch;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The order of a duty cycle's steps, in the simulator: what an application offers between two duty cycles (an echo
 * server answering the request the last cycle delivered) leaves in the next cycle before that cycle reads its port,
 * when the last cycle left the connection with nothing else to do; a connection with work of its own is served after
 * the receive. Each host's port records the calls the core makes
 * on it, so the test sees the order itself, not its effect on timing (in virtual time nothing takes time either way).
 */
class OfferBeforeReceiveTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int REQUEST_BYTES = 32;
    private static final int PINGS = 20;

    @Test
    void anOfferMadeBetweenDutyCyclesLeavesInTheNextCycleBeforeItReadsThePort()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=1ms"));
        final SimHost clientHost = dumbbell.addLeftHost();
        final SimHost serverHost = dumbbell.addRightHost();
        final RecordingPort clientPort = new RecordingPort(clientHost.port());
        final RecordingPort serverPort = new RecordingPort(serverHost.port());
        final ArrayList<Connection> accepted = new ArrayList<>();
        final EndpointCore client = SimPinger.newCore(clientPort, false, accepted);
        final EndpointCore server = SimPinger.newCore(serverPort, true, accepted);
        final Echo echo = new Echo(server, serverPort, accepted);
        final SimPinger pinger = new SimPinger(client, serverHost.address(), REQUEST_BYTES, PINGS);
        clientHost.addAgent(pinger);
        serverHost.addAgent(echo);

        simulator.runUntil(SECOND_NS);

        assertEquals(PINGS, pinger.echoes(), "every request was echoed");
        assertEquals(PINGS, echo.echoes);
        assertEquals(PINGS, echo.cyclesAfterOffer.size());
        int applicationLimited = 0;
        for (int i = 0; i < PINGS; i++)
        {
            final int[] requestCycle = echo.requestCycles.get(i);
            final int[] cycle = echo.cyclesAfterOffer.get(i);
            assertEquals(RecordingPort.RECEIVE, requestCycle[0], "the request's cycle reads first: " +
                describe(requestCycle));
            if (!hasSend(requestCycle))
            {
                // The cycle that delivered the request left the connection with nothing to do: the application was
                // its limit, so its echo goes before the next cycle reads the port.
                applicationLimited++;
                assertTrue(cycle.length >= 2 && cycle[0] > 0 && RecordingPort.RECEIVE == cycle[1],
                    "echo " + i + ": the send, then the receive: " + describe(cycle));
            }
            else
            {
                // It sent something of its own in that cycle (an ACK, a probe): it is served after the receive, as a
                // connection with work of its own is.
                assertEquals(RecordingPort.RECEIVE, cycle[0], "echo " + i + ": " + describe(cycle));
            }
        }
        assertTrue(applicationLimited >= PINGS - 2, "most requests leave the echo server with nothing else to do: " +
            applicationLimited + " of " + PINGS);
    }

    private static boolean hasSend(final int[] calls)
    {
        for (final int call : calls)
        {
            if (call > 0)
            {
                return true;
            }
        }
        return false;
    }

    private static String describe(final int[] calls)
    {
        final StringBuilder text = new StringBuilder();
        for (final int call : calls)
        {
            text.append(RecordingPort.RECEIVE == call ? "receive " : "send(" + call + ") ");
        }
        return text.toString().trim();
    }

    /**
     * The server: one duty cycle per run; after it, the application polls and offers each request back, and the
     * host runs the next cycle at once (its deadline is now). The port's calls are recorded per cycle.
     */
    private static final class Echo implements SimulatedAgent, MessageHandler
    {
        private final EndpointCore core;
        private final RecordingPort port;
        private final List<Connection> accepted;
        private final UnsafeBuffer echo = new UnsafeBuffer(new byte[REQUEST_BYTES]);
        private final List<int[]> cyclesAfterOffer = new ArrayList<>();
        private final List<int[]> requestCycles = new ArrayList<>();
        private boolean hasOffered;
        private int echoes;

        Echo(final EndpointCore core, final RecordingPort port, final List<Connection> accepted)
        {
            this.core = core;
            this.port = port;
            this.accepted = accepted;
        }

        public int doWork(final long nowNs)
        {
            final boolean afterOffer = hasOffered;
            hasOffered = false;
            port.calls.clear();
            final int work = core.doWork(nowNs);
            final int[] calls = port.takeCalls();
            if (afterOffer)
            {
                cyclesAfterOffer.add(calls);
            }
            for (int i = 0; i < accepted.size(); i++)
            {
                accepted.get(i).poll(this, 1);
            }
            if (hasOffered)
            {
                requestCycles.add(calls);
            }
            return work;
        }

        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            echo.putBytes(0, buffer, offset, length);
            assertTrue(accepted.get(0).offer(echo, 0, length) > 0);
            hasOffered = true;
            echoes++;
        }

        public long nextDeadlineNs()
        {
            return hasOffered ? Long.MIN_VALUE : core.nextDeadlineNs();
        }
    }

    /**
     * A port that records its core's calls: {@link #RECEIVE} for a receive, the datagram count for a send.
     */
    private static final class RecordingPort extends ForwardingDatagramPort
    {
        static final int RECEIVE = -1;

        private final ArrayList<Integer> calls = new ArrayList<>();

        RecordingPort(final DatagramPort port)
        {
            super(port);
        }

        int[] takeCalls()
        {
            final int[] taken = calls.stream().mapToInt(Integer::intValue).toArray();
            calls.clear();
            return taken;
        }

        public int receive(final DatagramHandler handler, final int limit, final long nowNs)
        {
            calls.add(RECEIVE);
            return port.receive(handler, limit, nowNs);
        }

        public int receive(final ReceiveBatch batch, final int limit)
        {
            calls.add(RECEIVE);
            return port.receive(batch, limit);
        }

        public int send(final SendBatch batch)
        {
            final int count = batch.size();
            if (count > 0)
            {
                calls.add(count);
            }
            return port.send(batch);
        }

        public boolean send(
            final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
        {
            calls.add(1);
            return port.send(buffer, offset, length, destination);
        }
    }
}
