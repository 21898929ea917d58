package io.pacelink.transport.engine;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.Dumbbell;
import io.pacelink.sim.SimHost;
import io.pacelink.sim.SimulatedAgent;
import io.pacelink.sim.Simulator;
import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.SendBatch;
import io.pacelink.transport.schedule.RoundRobinScheduler;
import io.pacelink.transport.schedule.SchedulableFlow;
import io.pacelink.transport.stats.CountersBuffers;
import io.pacelink.transport.stream.SendLog;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lone answer's shortcut ({@code EndpointCore.sendLoneAnswer}): an answer offered between two duty cycles on the
 * one connection its application acted on leaves without the scheduler's activation and release, and the datagrams
 * both ends send — every byte, every instant, in order — are those of the general path; and each condition that makes
 * the general path do something else sends the answer the general way. In the simulator, a ping-pong whose ends each
 * offer from their duty cycle's end and send it with a second cycle at once.
 */
class LoneAnswerTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int REQUEST_BYTES = 32;
    private static final byte[] PRE_SHARED_KEY = new byte[32];

    @Test
    void theShortcutSendsWhatTheGeneralPathSendsByteForByteAtTheSameInstants()
    {
        for (final String path : new String[] {"rate=100mbit delay=1ms", "rate=10mbit delay=2ms loss=3%"})
        {
            final Bed shortcut = new Bed(path, 200, false, true);
            final Bed general = new Bed(path, 200, false, false);

            shortcut.simulator.runUntil(4 * SECOND_NS);
            general.simulator.runUntil(4 * SECOND_NS);

            assertEquals(200, shortcut.pinger.echoes(), path + ": every request echoed");
            assertEquals(200, general.pinger.echoes(), path + ": every request echoed");
            assertEquals(0, general.server.loneAnswersSent() + general.client.loneAnswersSent(), path);
            assertTrue(shortcut.server.loneAnswersSent() >= 150, path + ": echoes by the shortcut: " +
                shortcut.server.loneAnswersSent());
            assertTrue(shortcut.client.loneAnswersSent() >= 150, path + ": requests by the shortcut: " +
                shortcut.client.loneAnswersSent());
            assertDatagramsEqual(general.serverPort.sent, shortcut.serverPort.sent, path + ", server");
            assertDatagramsEqual(general.clientPort.sent, shortcut.clientPort.sent, path + ", client");
        }
    }

    @Test
    void aSealedAnswerGoesTheGeneralWay()
    {
        final Bed bed = new Bed("rate=100mbit delay=1ms", 24, true, true);

        bed.simulator.runUntil(SECOND_NS);

        assertEquals(24, bed.pinger.echoes(), "every request echoed");
        assertEquals(0, bed.server.loneAnswersSent() + bed.client.loneAnswersSent(), "the secure mode's answers");
    }

    @Test
    void anAnswerWithNothingElseToSendMayTakeTheShortcut()
    {
        final Bed bed = steadyBed();
        final ConnectionCore connection = bed.serverConnection();

        assertTrue(connection.isLoneAnswer(SchedulableFlow.ACK_ELICITING, bed.simulator.nowNs()));
        assertTrue(connection.isLoneAnswer(SchedulableFlow.ACK_ELICITING | SchedulableFlow.ACK_DUE,
            bed.simulator.nowNs()));
    }

    @Test
    void anAnswerTheWindowHoldsBackGoesTheGeneralWay()
    {
        final Bed bed = steadyBed();

        // A full congestion window leaves at most an ACK to send (SendReadiness: LIMITED_BY_CWND, no ACK_ELICITING).
        assertFalse(bed.serverConnection().isLoneAnswer(SchedulableFlow.ACK_DUE, bed.simulator.nowNs()));
        assertFalse(bed.serverConnection().isLoneAnswer(0, bed.simulator.nowNs()));
    }

    @Test
    void anAnswerWithARangeToRetransmitGoesTheGeneralWay()
    {
        final Bed bed = new Bed("rate=100mbit delay=1ms", 100, false, true);
        // The 20th echo just sent is lost before it is acknowledged.
        bed.stopAfterEchoes = 20;
        bed.simulator.runUntil(SECOND_NS);
        assertTrue(bed.server.loneAnswersSent() > 0, "the shortcut was taken");
        final ConnectionCore connection = bed.serverConnection();
        final SendLog sendLog = connection.handle().sendLog();
        assertTrue(sendLog.nextSendPosition() > sendLog.ackedHead(), "an echo in flight");
        assertTrue(connection.isLoneAnswer(SchedulableFlow.ACK_ELICITING, bed.simulator.nowNs()));

        sendLog.onRangeLost(sendLog.ackedHead(), (int)(sendLog.nextSendPosition() - sendLog.ackedHead()), false);

        assertTrue(sendLog.hasRetransmission());
        assertFalse(connection.isLoneAnswer(SchedulableFlow.ACK_ELICITING, bed.simulator.nowNs()));
    }

    @Test
    void anAnswerBehindAPendingCloseGoesTheGeneralWay()
    {
        final Bed bed = steadyBed();
        final ConnectionCore connection = bed.serverConnection();

        connection.abortWithClose(ConnectionLifecycle.ABORTED_ERROR, CloseReason.ABORTED);

        assertFalse(connection.isLoneAnswer(SchedulableFlow.ACK_ELICITING, bed.simulator.nowNs()));
    }

    @Test
    void anAnswerWhileAHandshakePacketOrAPathChallengeIsDueGoesTheGeneralWay()
    {
        final Bed handshake = steadyBed();
        // The client's confirmation lost and its hello again: the server's answer is due once more.
        handshake.serverConnection().onHandshakeRetransmission(handshake.simulator.nowNs() + SECOND_NS);
        assertFalse(handshake.serverConnection().isLoneAnswer(
            SchedulableFlow.ACK_ELICITING, handshake.simulator.nowNs() + SECOND_NS));

        final Bed path = steadyBed();
        path.serverConnection().onPacketFromNewAddress(
            new InetSocketAddress(path.clientAddress.getAddress(), path.clientAddress.getPort() + 1), 1200,
            path.simulator.nowNs());
        assertFalse(path.serverConnection().isLoneAnswer(SchedulableFlow.ACK_ELICITING, path.simulator.nowNs()));
    }

    @Test
    void aRequestOfferedWhileAnotherConnectionIsQueuedGoesTheGeneralWay()
    {
        final Bed bed = steadyBed();
        final ConnectionCore connection = bed.serverConnection();
        final long nowNs = bed.simulator.nowNs();
        final RoundRobinScheduler<ConnectionCore> scheduler = bed.serverScheduler;
        assertTrue(scheduler.releasesAloneNow(connection, nowNs));

        // Another flow in the ring: the general walk decides who goes first.
        final ConnectionCore other = bed.clientConnection();
        scheduler.addFlow(other);
        scheduler.activate(other, 0, 0, nowNs);

        assertFalse(scheduler.releasesAloneNow(connection, nowNs));
    }

    private static Bed steadyBed()
    {
        final Bed bed = new Bed("rate=100mbit delay=1ms", 24, false, true);
        bed.simulator.runUntil(SECOND_NS);
        assertEquals(24, bed.pinger.echoes(), "every request echoed");
        assertTrue(bed.server.loneAnswersSent() > 0, "the shortcut was taken");
        return bed;
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
     * A client pinging an echo server in the simulator, each end's sends recorded.
     */
    private static final class Bed
    {
        private final Simulator simulator = new Simulator(5);
        private final ArrayList<Connection> accepted = new ArrayList<>();
        private final RecordingPort serverPort;
        private final RecordingPort clientPort;
        private final RoundRobinScheduler<ConnectionCore> serverScheduler = new RoundRobinScheduler<>();
        private final EndpointCore server;
        private final EndpointCore client;
        private final SimPinger pinger;
        private final InetSocketAddress clientAddress;
        private int stopAfterEchoes = -1;

        Bed(final String path, final int pings, final boolean secure, final boolean shortcut)
        {
            final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse(path));
            final SimHost clientHost = dumbbell.addLeftHost();
            final SimHost serverHost = dumbbell.addRightHost();
            clientAddress = clientHost.address();
            serverPort = new RecordingPort(serverHost.port(), simulator);
            clientPort = new RecordingPort(clientHost.port(), simulator);
            server = newCore(serverPort, true, secure, serverScheduler, accepted);
            client = newCore(clientPort, false, secure, new RoundRobinScheduler<>(), accepted);
            server.loneAnswerShortcut(shortcut);
            client.loneAnswerShortcut(shortcut);
            pinger = new SimPinger(client, serverHost.address(), REQUEST_BYTES, pings);
            clientHost.addAgent(pinger);
            serverHost.addAgent(new Echo(this));
        }

        ConnectionCore serverConnection()
        {
            return server.connectionCore(accepted.get(0).connectionId());
        }

        ConnectionCore clientConnection()
        {
            final ConnectionTable table = client.connectionTable();
            return table.get(0);
        }

        private static EndpointCore newCore(
            final DatagramPort port,
            final boolean accept,
            final boolean secure,
            final RoundRobinScheduler<ConnectionCore> scheduler,
            final List<Connection> accepted)
        {
            final PacelinkContext context = new PacelinkContext()
                .datagramPort(port)
                .congestionControl(FixedWindowController.NAME)
                .acceptConnections(accept)
                .sendBufferBytes(64 * 1024)
                .receiveBufferBytes(64 * 1024)
                .maxMessageLengthBytes(16 * 1024)
                .randomSeed(accept ? 2 : 3);
            if (secure)
            {
                context.security().preSharedKey(PRE_SHARED_KEY);
            }
            context.conclude();
            return new EndpointCore(
                context,
                port,
                CongestionControlRegistry.of(FixedWindowController.factory(64 * 1024)),
                scheduler,
                CountersBuffers.newManager(256 * 1024),
                accepted::add);
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
        private int echoes;

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
                if (++echoes == bed.stopAfterEchoes)
                {
                    bed.simulator.stop();
                }
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
