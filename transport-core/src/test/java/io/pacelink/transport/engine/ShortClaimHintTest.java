package io.pacelink.transport.engine;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.Dumbbell;
import io.pacelink.sim.SimHost;
import io.pacelink.sim.SimulatedAgent;
import io.pacelink.sim.Simulator;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.SendBatch;
import io.pacelink.transport.port.SendMemory;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The endpoint tells its port's memory which datagrams it expects to be short: a packet the scheduler released for an
 * ACK alone is claimed as short, a data packet never is (the simulator's port then gives an ACK a packet that last
 * carried an ACK, and data a packet whose bytes a receiver just read: {@code LinkPacketPool}).
 */
class ShortClaimHintTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int MESSAGES = 300;
    private static final int MESSAGE_BYTES = 4000;
    private static final int SHORT_BYTES = 200;

    @Test
    void anAckAloneIsClaimedAsShortAndADataPacketNever()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=1ms"));
        final SimHost clientHost = dumbbell.addLeftHost();
        final SimHost serverHost = dumbbell.addRightHost();
        final ArrayList<Connection> accepted = new ArrayList<>();
        final HintRecordingPort clientPort = new HintRecordingPort(clientHost.port());
        final HintRecordingPort serverPort = new HintRecordingPort(serverHost.port());
        final EndpointCore client = SimPinger.newCore(clientPort, false, accepted);
        final EndpointCore server = SimPinger.newCore(serverPort, true, accepted);
        final Receiver receiver = new Receiver(server, accepted);
        clientHost.addAgent(new Sender(client, serverHost));
        serverHost.addAgent(receiver);

        simulator.runUntil(2 * SECOND_NS);

        assertEquals(MESSAGES, receiver.messages);
        assertTrue(serverPort.shortClaims > MESSAGES / 2, "the receiver's ACKs claimed as short: " +
            serverPort.shortClaims + " of " + serverPort.datagrams);
        assertEquals(0, serverPort.longSentAsShort + clientPort.longSentAsShort, "no long datagram claimed as short");
        assertTrue(clientPort.datagrams - clientPort.shortClaims > MESSAGES, "the sender's data claimed as long");
    }

    /**
     * Lends no memory (the datagrams are written in the batch's buffer, as before) but records, per entry, whether
     * the endpoint expected it short, and checks that against the length it was sent with.
     */
    private static final class HintRecordingPort extends ForwardingDatagramPort
    {
        private final boolean[] expectedShort = new boolean[1024];
        private int datagrams;
        private int shortClaims;
        private int longSentAsShort;

        HintRecordingPort(final DatagramPort port)
        {
            super(port);
        }

        public SendBatch newSendBatch(final int maxDatagrams, final int capacityBytes)
        {
            return new SendBatch(maxDatagrams, capacityBytes, new SendMemory()
            {
                public UnsafeBuffer lend(final int index, final int maxLengthBytes)
                {
                    throw new AssertionError("the endpoint always says whether it expects a short datagram");
                }

                public UnsafeBuffer lend(final int index, final int maxLengthBytes, final boolean isShort)
                {
                    expectedShort[index] = isShort;
                    return null;
                }
            });
        }

        public int send(final SendBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                datagrams++;
                if (expectedShort[i])
                {
                    shortClaims++;
                    longSentAsShort += batch.length(i) > SHORT_BYTES ? 1 : 0;
                }
                expectedShort[i] = false;
            }
            return port.send(batch);
        }
    }

    private static final class Sender implements SimulatedAgent
    {
        private final EndpointCore core;
        private final SimHost server;
        private final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_BYTES]);
        private Connection connection;
        private int offered;

        Sender(final EndpointCore core, final SimHost server)
        {
            this.core = core;
            this.server = server;
        }

        public int doWork(final long nowNs)
        {
            if (null == connection)
            {
                connection = core.connect(server.address(), null, nowNs);
            }
            while (ConnectionState.CONNECTED == connection.state() && offered < MESSAGES &&
                connection.offer(message, 0, MESSAGE_BYTES) > 0)
            {
                offered++;
            }
            return core.doWork(nowNs);
        }

        public long nextDeadlineNs()
        {
            return core.nextDeadlineNs();
        }
    }

    private static final class Receiver implements SimulatedAgent, MessageHandler
    {
        private final EndpointCore core;
        private final List<Connection> accepted;
        private int messages;

        Receiver(final EndpointCore core, final List<Connection> accepted)
        {
            this.core = core;
            this.accepted = accepted;
        }

        public int doWork(final long nowNs)
        {
            final int work = core.doWork(nowNs);
            for (int i = 0; i < accepted.size(); i++)
            {
                accepted.get(i).poll(this, Integer.MAX_VALUE);
            }
            return work;
        }

        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            messages++;
        }

        public long nextDeadlineNs()
        {
            return core.nextDeadlineNs();
        }
    }
}
