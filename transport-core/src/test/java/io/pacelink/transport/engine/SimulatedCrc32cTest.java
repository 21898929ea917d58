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
import io.pacelink.transport.port.ReceiveBatch;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A plaintext packet's CRC32C trailer left to the simulator's port ({@link DatagramPort#offloadsCrc32c()}), end to
 * end between two endpoint cores: over a clean path the receiving endpoint is handed the data packets as verified
 * (neither end computed their CRC32C) and every message arrives; over a path that corrupts packets both ways, every
 * corrupted packet is still caught and counted, as it would be on a wire, and what arrives is intact. Either way the
 * run is the one both ends would have had sealing and checking every packet themselves.
 */
class SimulatedCrc32cTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int MESSAGES = 400;
    private static final int MESSAGE_BYTES = 4000;

    @Test
    void overACleanPathTheDataPacketsArriveVerifiedAndEveryMessageArrives()
    {
        final Bed bed = new Bed("rate=100mbit delay=1ms", true);

        bed.simulator.runUntil(2 * SECOND_NS);

        assertEquals(MESSAGES, bed.receiver.messages, "every message arrived, in order and intact");
        assertTrue(bed.receiverPort.verified > MESSAGES, "the data packets were vouched for by the port: " +
            bed.receiverPort.verified + " of " + bed.receiverPort.received);
        assertEquals(0, bed.integrityFailures());
        assertSameRun(bed, "rate=100mbit delay=1ms", 2 * SECOND_NS);
    }

    @Test
    void overACorruptingPathEveryCorruptedPacketIsCaughtAsOnAWireAndTheRunIsTheSame()
    {
        final String path = "rate=100mbit delay=1ms corrupt=2%";
        final Bed bed = new Bed(path, true);

        bed.simulator.runUntil(3 * SECOND_NS);

        assertTrue(bed.receiver.messages > 50, "messages arrived, in order and intact: " + bed.receiver.messages);
        final long corrupted =
            bed.dumbbell.forward().counters().corruptedPackets() + bed.dumbbell.reverse().counters().corruptedPackets();
        assertTrue(corrupted > 5, "corrupted: " + corrupted);
        assertEquals(corrupted, bed.integrityFailures(), "each corrupted packet failed its CRC32C at its receiver");
        assertSameRun(bed, path, 3 * SECOND_NS);
    }

    /**
     * The same run with the client's port behind a wrapper that does not offload the CRC32C (so the client seals
     * every packet and the server checks every one) has the same events, deliveries and counts.
     */
    private static void assertSameRun(final Bed offloaded, final String path, final long durationNs)
    {
        final Bed sealed = new Bed(path, false);
        sealed.simulator.runUntil(durationNs);
        assertEquals(0, sealed.receiverPort.verified);
        assertEquals(sealed.simulator.traceHash(), offloaded.simulator.traceHash());
        assertEquals(sealed.receiver.messages, offloaded.receiver.messages);
        assertEquals(sealed.integrityFailures(), offloaded.integrityFailures());
        assertEquals(sealed.receiverPort.received, offloaded.receiverPort.received);
    }

    /**
     * A client offering {@link #MESSAGES} numbered messages as fast as its send buffer takes them, to a server that
     * checks each; the server's port counts the datagrams it is handed, and those vouched for (it does not offload
     * the CRC32C itself: the server seals what it sends).
     */
    private static final class Bed
    {
        private final Simulator simulator = new Simulator(1);
        private final Dumbbell dumbbell;
        private final ArrayList<Connection> accepted = new ArrayList<>();
        private final EndpointCore client;
        private final EndpointCore server;
        private final CountingPort receiverPort;
        private final Receiver receiver;

        /**
         * @param offloaded false to put the client's port behind a wrapper that does not offload the CRC32C.
         */
        Bed(final String path, final boolean offloaded)
        {
            dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse(path));
            final SimHost clientHost = dumbbell.addLeftHost();
            final SimHost serverHost = dumbbell.addRightHost();
            receiverPort = new CountingPort(serverHost.port());
            client = SimPinger.newCore(
                offloaded ? clientHost.port() : new CountingPort(clientHost.port()), false, accepted);
            server = SimPinger.newCore(receiverPort, true, accepted);
            receiver = new Receiver(server, accepted);
            clientHost.addAgent(new Sender(client, serverHost));
            serverHost.addAgent(receiver);
        }

        long integrityFailures()
        {
            return client.securityCounters().integrityFailures().get() +
                server.securityCounters().integrityFailures().get();
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
            while (ConnectionState.CONNECTED == connection.state() && offered < MESSAGES)
            {
                message.setMemory(0, MESSAGE_BYTES, (byte)offered);
                message.putInt(0, offered);
                if (connection.offer(message, 0, MESSAGE_BYTES) <= 0)
                {
                    break;
                }
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
            assertEquals(MESSAGE_BYTES, length);
            assertEquals(messages, buffer.getInt(offset), "in order");
            for (int i = 4; i < length; i++)
            {
                assertEquals((byte)messages, buffer.getByte(offset + i), "intact");
            }
            messages++;
        }

        public long nextDeadlineNs()
        {
            return core.nextDeadlineNs();
        }
    }

    /**
     * Counts the datagrams its endpoint is handed, and those the simulated port vouched for.
     */
    private static final class CountingPort extends ForwardingDatagramPort
    {
        private int received;
        private int verified;

        CountingPort(final DatagramPort port)
        {
            super(port);
        }

        public int receive(final ReceiveBatch batch, final int limit)
        {
            final int count = port.receive(batch, limit);
            for (int i = 0; i < batch.size(); i++)
            {
                received++;
                verified += batch.isVerified(i) ? 1 : 0;
            }
            return count;
        }
    }
}
