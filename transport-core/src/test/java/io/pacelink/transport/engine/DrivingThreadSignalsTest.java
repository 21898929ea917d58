package io.pacelink.transport.engine;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.Dumbbell;
import io.pacelink.sim.SimHost;
import io.pacelink.sim.SimulatedAgent;
import io.pacelink.sim.Simulator;
import io.pacelink.transport.Connection;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.SendBatch;
import io.pacelink.transport.schedule.RoundRobinScheduler;
import io.pacelink.transport.stats.CountersBuffers;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An application that drives its endpoint's agent on its own thread (INVOKER mode, {@link WaitDriver#drivesAgent()})
 * notes the connections it acts on for its next duty cycle without the many-to-one queue
 * ({@link ApplicationSignals#noteFromDrivingThread}): the same connections are served in the same cycles, so every
 * datagram both ends of a ping-pong send — each byte, each instant, in order — is the one the queue's way sends. In
 * the simulator, with a driver that says this thread drives the agent, against the simulator's own, which says not.
 */
class DrivingThreadSignalsTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int REQUEST_BYTES = 32;

    @Test
    void theDrivingThreadsNotesSendWhatTheQueueSendsByteForByteAtTheSameInstants()
    {
        for (final String path : new String[] {"rate=100mbit delay=1ms", "rate=10mbit delay=2ms loss=3%"})
        {
            final Bed noted = new Bed(path, 200, true);
            final Bed queued = new Bed(path, 200, false);

            noted.simulator.runUntil(4 * SECOND_NS);
            queued.simulator.runUntil(4 * SECOND_NS);

            assertEquals(200, noted.pinger.echoes(), path + ": every request echoed");
            assertEquals(200, queued.pinger.echoes(), path + ": every request echoed");
            assertEquals(0, queued.server.signalsNotedByDrivingThread() +
                queued.client.signalsNotedByDrivingThread(), path + ": the queue's way");
            // Each request is an offer at the client; each echo a read and an offer at the server.
            assertTrue(noted.client.signalsNotedByDrivingThread() >= 200, path + ": the client's notes: " +
                noted.client.signalsNotedByDrivingThread());
            assertTrue(noted.server.signalsNotedByDrivingThread() >= 200, path + ": the server's notes: " +
                noted.server.signalsNotedByDrivingThread());
            assertDatagramsEqual(queued.serverPort.sent, noted.serverPort.sent, path + ", server");
            assertDatagramsEqual(queued.clientPort.sent, noted.clientPort.sent, path + ", client");
        }
    }

    @Test
    void aConnectionNotedTwiceBeforeACycleIsServedOnce()
    {
        final Bed bed = new Bed("rate=100mbit delay=1ms", 24, true);
        bed.simulator.runUntil(SECOND_NS);
        assertEquals(24, bed.pinger.echoes(), "every request echoed");
        final Connection connection = bed.accepted.get(0);
        final long notesBefore = bed.server.signalsNotedByDrivingThread();

        final UnsafeBuffer message = new UnsafeBuffer(new byte[REQUEST_BYTES]);
        assertTrue(connection.offer(message, 0, REQUEST_BYTES) > 0);
        assertTrue(connection.offer(message, 0, REQUEST_BYTES) > 0);
        final int sentBefore = bed.serverPort.sent.size();
        bed.server.doWork(bed.simulator.nowNs());

        assertEquals(1, bed.server.signalsNotedByDrivingThread() - notesBefore, "one note for two offers");
        assertEquals(sentBefore + 1, bed.serverPort.sent.size(), "both messages in the one packet of one service");
    }

    private static void assertDatagramsEqual(final List<byte[]> expected, final List<byte[]> actual, final String what)
    {
        assertEquals(expected.size(), actual.size(), what + ": datagrams sent");
        for (int i = 0; i < expected.size(); i++)
        {
            assertArrayEquals(expected.get(i), actual.get(i), what + ": datagram " + i);
        }
    }

    /**
     * The simulator's thread drives both cores, as an INVOKER application's thread drives its endpoint; it never
     * waits.
     */
    private static final class DrivingThread implements WaitDriver
    {
        public long nowNs()
        {
            throw new UnsupportedOperationException("no waits here");
        }

        public IdleStrategy newIdleStrategy(final boolean latencySensitive)
        {
            throw new UnsupportedOperationException("no waits here");
        }

        public int turn(final IdleStrategy idleStrategy, final int workCount)
        {
            throw new UnsupportedOperationException("no waits here");
        }

        public boolean drivesAgent()
        {
            return true;
        }
    }

    /**
     * A client pinging an echo server in the simulator, each end's sends recorded.
     */
    private static final class Bed
    {
        private final Simulator simulator = new Simulator(5);
        private final ArrayList<Connection> accepted = new ArrayList<>();
        private final RecordingPort serverPort;
        private final RecordingPort clientPort;
        private final EndpointCore server;
        private final EndpointCore client;
        private final SimPinger pinger;

        Bed(final String path, final int pings, final boolean drivingThread)
        {
            final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse(path));
            final SimHost clientHost = dumbbell.addLeftHost();
            final SimHost serverHost = dumbbell.addRightHost();
            serverPort = new RecordingPort(serverHost.port(), simulator);
            clientPort = new RecordingPort(clientHost.port(), simulator);
            final WaitDriver driver = drivingThread ? new DrivingThread() : WaitDriver.UNAVAILABLE;
            server = newCore(serverPort, true, driver, accepted);
            client = newCore(clientPort, false, driver, accepted);
            pinger = new SimPinger(client, serverHost.address(), REQUEST_BYTES, pings);
            clientHost.addAgent(pinger);
            serverHost.addAgent(new Echo(this));
        }

        private static EndpointCore newCore(
            final DatagramPort port, final boolean accept, final WaitDriver driver, final List<Connection> accepted)
        {
            final PacelinkContext context = new PacelinkContext()
                .datagramPort(port)
                .congestionControl(FixedWindowController.NAME)
                .acceptConnections(accept)
                .sendBufferBytes(64 * 1024)
                .receiveBufferBytes(64 * 1024)
                .maxMessageLengthBytes(16 * 1024)
                .randomSeed(accept ? 2 : 3);
            context.conclude();
            return new EndpointCore(
                context,
                port,
                CongestionControlRegistry.of(FixedWindowController.factory(64 * 1024)),
                new RoundRobinScheduler<>(),
                CountersBuffers.newManager(256 * 1024),
                accepted::add,
                driver);
        }
    }

    /**
     * The server: one duty cycle, then the application polls, and each request is offered back and sent by a second
     * duty cycle at once.
     */
    private static final class Echo implements SimulatedAgent, MessageHandler
    {
        private final Bed bed;
        private final UnsafeBuffer echo = new UnsafeBuffer(new byte[REQUEST_BYTES]);
        private int pendingLength = -1;

        Echo(final Bed bed)
        {
            this.bed = bed;
        }

        public int doWork(final long nowNs)
        {
            int work = bed.server.doWork(nowNs);
            for (int i = 0; i < bed.accepted.size(); i++)
            {
                bed.accepted.get(i).poll(this, 1);
            }
            if (pendingLength >= 0)
            {
                assertTrue(bed.accepted.get(0).offer(echo, 0, pendingLength) > 0);
                pendingLength = -1;
                work += bed.server.doWork(nowNs);
            }
            return work;
        }

        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            echo.putBytes(0, buffer, offset, length);
            pendingLength = length;
        }

        public long nextDeadlineNs()
        {
            return bed.server.nextDeadlineNs();
        }
    }

    /**
     * An end's port that keeps each datagram it sends with the instant it left, as bytes: the instant in the first
     * eight, then the datagram.
     */
    private static final class RecordingPort extends ForwardingDatagramPort
    {
        private final Simulator simulator;
        private final List<byte[]> sent = new ArrayList<>();

        RecordingPort(final DatagramPort port, final Simulator simulator)
        {
            super(port);
            this.simulator = simulator;
        }

        public int send(final SendBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                record(batch.buffer(), batch.offset(i), batch.length(i));
            }
            return port.send(batch);
        }

        public boolean send(
            final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
        {
            record(buffer, offset, length);
            return port.send(buffer, offset, length, destination);
        }

        private void record(final DirectBuffer buffer, final int offset, final int length)
        {
            final byte[] datagram = new byte[Long.BYTES + length];
            new UnsafeBuffer(datagram).putLong(0, simulator.nowNs());
            buffer.getBytes(offset, datagram, Long.BYTES, length);
            sent.add(datagram);
        }
    }
}
