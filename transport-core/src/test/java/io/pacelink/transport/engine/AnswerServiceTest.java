package io.pacelink.transport.engine;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.Dumbbell;
import io.pacelink.sim.SimHost;
import io.pacelink.sim.SimulatedAgent;
import io.pacelink.sim.Simulator;
import io.pacelink.transport.Connection;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.ReceiveBatch;
import io.pacelink.transport.port.SendBatch;
import io.pacelink.transport.wire.EcnCodepoint;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A duty cycle that receives a request — a packet with application data whose ACK frame the connection parks until
 * the answer ({@code FrameReceiver#onAck}) — leaves the connection's service to the answer's send, unless something
 * of the connection is due now ({@code ConnectionCore#leavesServiceToAnswer}): an ACK that must go at once still goes
 * in that cycle, and a request left unanswered is acknowledged at the ACK deadline as before; the answer's cycle,
 * serving that one connection, hands its lone packet to the port before it records it. In the simulator, a ping-pong
 * over a 1-ms path; the echo server runs one duty cycle, polls, and answers with a second one.
 */
class AnswerServiceTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int REQUEST_BYTES = 32;
    private static final int PINGS = 24;
    /**
     * The first requests are the handshake's confirmation and the first exchange (no echo in flight yet, so no
     * ACK to park): steady state after them.
     */
    private static final int STEADY_FROM = 2;

    @Test
    void theCycleThatReceivesARequestServesNoConnectionAndTheAnswersCycleServesAndSendsItBeforeItsRecord()
    {
        final Bed bed = new Bed(0, 0);

        bed.simulator.runUntil(SECOND_NS);

        assertEquals(PINGS, bed.pinger.echoes(), "every request was echoed");
        final Echo echo = bed.echo;
        assertEquals(PINGS, echo.requests.size());
        int left = 0;
        for (int i = STEADY_FROM; i < PINGS; i++)
        {
            final Request request = echo.requests.get(i);
            // A request is served at once only for an ACK that must go now: one after a packet number the client
            // skipped (RFC 9000 sections 13.2.1 and 21.4), about one in 256 packets.
            if (!request.wasMarked)
            {
                assertEquals(request.servedByReceive, request.sentByReceive, "request " + i + ": the receiving " +
                    "cycle served the connection only to send an ACK at once");
                left += 1 - request.servedByReceive;
            }
            assertEquals(1, request.servedByAnswer, "request " + i + ": the answer's cycle served the connection");
            assertEquals(1, request.sentByAnswer, "request " + i + ": and sent the echo");
            if (!request.wasMarked && 0 == request.sentByReceive)
            {
                // Served in the answer's first step (a connection the cycle before left work waits for the receive).
                assertEquals(request.recordedBeforeAnswer, request.recordedAtAnswersSend, "request " + i + ": the " +
                    "echo left before loss recovery recorded it");
            }
            assertEquals(request.recordedBeforeAnswer + 1, request.recordedAfterAnswer, "request " + i + ": the " +
                "echo was recorded in the cycle that sent it");
        }
        assertTrue(left >= PINGS - STEADY_FROM - 2, "requests left to the answer's service: " + left);
        assertTrue(bed.server.loneAnswersSent() >= PINGS - STEADY_FROM - 2,
            "echoes sent by the lone answer's shortcut: " + bed.server.loneAnswersSent());
        assertTrue(bed.serverConnection().nextDeadlineNs() > bed.simulator.nowNs(),
            "the connection's timer was moved by the answer's service");
    }

    @Test
    void anAckThatMustGoNowLeavesInTheCycleThatReceivedTheRequest()
    {
        final Bed bed = new Bed(3, 0);

        bed.simulator.runUntil(SECOND_NS);

        assertEquals(PINGS, bed.pinger.echoes(), "every request was echoed");
        int marked = 0;
        int eligible = 0;
        int left = 0;
        for (int i = STEADY_FROM; i < PINGS; i++)
        {
            final Request request = bed.echo.requests.get(i);
            if (request.isCeMarked)
            {
                // RFC 9000 section 13.2.1: a packet marked CE is acknowledged without delay.
                marked++;
                assertEquals(1, request.servedByReceive, "request " + i + " (CE): served by the receiving cycle");
                assertEquals(1, request.sentByReceive, "request " + i + " (CE): its ACK sent by that cycle");
            }
            else if (!request.wasMarked)
            {
                assertEquals(request.servedByReceive, request.sentByReceive, "request " + i + ": served at once " +
                    "only to send an ACK at once");
                eligible++;
                left += 1 - request.servedByReceive;
            }
        }
        assertTrue(marked >= 6, "requests marked CE: " + marked);
        assertTrue(eligible >= 5 && left >= eligible - 2, "requests left to the answer's service: " + left + " of " +
            eligible + " unmarked and not left work by the cycle before");
    }

    @Test
    void aRequestLeftUnansweredIsAcknowledgedAtItsAckDeadline()
    {
        final long answerDelayNs = TimeUnit.MILLISECONDS.toNanos(5);
        final Bed bed = new Bed(0, answerDelayNs);

        bed.simulator.runUntil(SECOND_NS);

        assertEquals(PINGS, bed.pinger.echoes(), "every request was echoed, late");
        int left = 0;
        for (int i = STEADY_FROM; i < PINGS; i++)
        {
            final Request request = bed.echo.requests.get(i);
            if (request.wasMarked)
            {
                continue;
            }
            if (0 == request.servedByReceive)
            {
                left++;
                assertEquals(PacelinkContext.DEFAULT_MAX_ACK_DELAY_NS, request.firstSendNs - request.receivedNs,
                    "request " + i + ": its ACK left at the max ACK delay, before the answer, never later");
            }
            else
            {
                assertEquals(request.receivedNs, request.firstSendNs, "request " + i + ": its ACK left at once");
            }
        }
        assertTrue(left >= PINGS - STEADY_FROM - 2, "requests left to the answer's service: " + left);
    }

    /**
     * What the echo server's duty cycles did with one request.
     */
    private static final class Request
    {
        private final long receivedNs;
        private final int servedByReceive;
        private final int sentByReceive;
        private final boolean isCeMarked;
        private final boolean wasMarked;
        private int servedByAnswer = -1;
        private int sentByAnswer = -1;
        private long firstSendNs = -1;
        private long recordedBeforeAnswer = -1;
        private long recordedAtAnswersSend = -1;
        private long recordedAfterAnswer = -1;

        /**
         * @param wasMarked true if the connection was marked for the receiving cycle before the request arrived (the
         *                  cycle before left it work: in virtual time an agent runs again only at its next event).
         */
        Request(
            final long receivedNs,
            final int servedByReceive,
            final int sentByReceive,
            final boolean isCeMarked,
            final boolean wasMarked)
        {
            this.wasMarked = wasMarked;
            this.receivedNs = receivedNs;
            this.servedByReceive = servedByReceive;
            this.sentByReceive = sentByReceive;
            this.isCeMarked = isCeMarked;
        }
    }

    /**
     * Two endpoints in the simulator: the client pings, the server echoes.
     */
    private static final class Bed
    {
        private final Simulator simulator = new Simulator(1);
        private final ArrayList<Connection> accepted = new ArrayList<>();
        private final SimPinger pinger;
        private final Echo echo;
        private final EndpointCore server;

        /**
         * @param markEvery     every so many requests arrive marked CE (0: none).
         * @param answerDelayNs how long the echo server holds each request before it answers.
         */
        Bed(final int markEvery, final long answerDelayNs)
        {
            final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=1ms"));
            final SimHost clientHost = dumbbell.addLeftHost();
            final SimHost serverHost = dumbbell.addRightHost();
            final MarkingPort serverPort = new MarkingPort(serverHost.port(), markEvery);
            final EndpointCore client = SimPinger.newCore(clientHost.port(), false, accepted);
            server = SimPinger.newCore(serverPort, true, accepted);
            echo = new Echo(this, serverPort, answerDelayNs);
            serverPort.recordedPackets =
                () -> accepted.isEmpty() ? -1 : serverConnection().lossRecovery().sentPackets();
            pinger = new SimPinger(client, serverHost.address(), REQUEST_BYTES, PINGS);
            clientHost.addAgent(pinger);
            serverHost.addAgent(echo);
        }

        ConnectionCore serverConnection()
        {
            return server.connectionCore(accepted.get(0).connectionId());
        }
    }

    /**
     * The server: one duty cycle, then the application polls; a request is offered back and sent by a second duty
     * cycle at once, or after {@code answerDelayNs}.
     */
    private static final class Echo implements SimulatedAgent, MessageHandler
    {
        private final Bed bed;
        private final MarkingPort port;
        private final long answerDelayNs;
        private final UnsafeBuffer echo = new UnsafeBuffer(new byte[REQUEST_BYTES]);
        private final List<Request> requests = new ArrayList<>();
        private int pendingLength = -1;
        private long answerNs = Long.MAX_VALUE;

        Echo(final Bed bed, final MarkingPort port, final long answerDelayNs)
        {
            this.bed = bed;
            this.port = port;
            this.answerDelayNs = answerDelayNs;
        }

        public int doWork(final long nowNs)
        {
            if (pendingLength >= 0 && nowNs >= answerNs)
            {
                answer(nowNs);
            }
            port.sentDatagrams = 0;
            port.isCeMarkedThisReceive = false;
            final boolean wasMarked = !bed.accepted.isEmpty() && bed.serverConnection().isMarked();
            int work = bed.server.doWork(nowNs);
            final int servedByReceive = bed.server.connectionsServed();
            final int sentByReceive = port.sentDatagrams;
            final boolean isCeMarked = port.isCeMarkedThisReceive;
            final int requestsBefore = requests.size();
            for (int i = 0; i < bed.accepted.size(); i++)
            {
                bed.accepted.get(i).poll(this, 1);
            }
            if (requests.size() > requestsBefore)
            {
                final Request request = new Request(nowNs, servedByReceive, sentByReceive, isCeMarked, wasMarked);
                requests.set(requests.size() - 1, request);
                if (sentByReceive > 0)
                {
                    request.firstSendNs = nowNs;
                }
                answerNs = nowNs + answerDelayNs;
                if (0 == answerDelayNs)
                {
                    work += answer(nowNs);
                }
            }
            else if (!requests.isEmpty() && requests.get(requests.size() - 1).firstSendNs < 0 && sentByReceive > 0)
            {
                requests.get(requests.size() - 1).firstSendNs = nowNs;
            }
            return work;
        }

        private int answer(final long nowNs)
        {
            assertTrue(bed.accepted.get(0).offer(echo, 0, pendingLength) > 0);
            pendingLength = -1;
            answerNs = Long.MAX_VALUE;
            port.sentDatagrams = 0;
            final long recordedBefore = bed.serverConnection().lossRecovery().sentPackets();
            final int work = bed.server.doWork(nowNs);
            final Request request = requests.get(requests.size() - 1);
            request.servedByAnswer = bed.server.connectionsServed();
            request.sentByAnswer = port.sentDatagrams;
            request.recordedBeforeAnswer = recordedBefore;
            request.recordedAtAnswersSend = port.recordedAtFirstSend;
            request.recordedAfterAnswer = bed.serverConnection().lossRecovery().sentPackets();
            if (request.firstSendNs < 0)
            {
                request.firstSendNs = nowNs;
            }
            return work;
        }

        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            echo.putBytes(0, buffer, offset, length);
            pendingLength = length;
            requests.add(null);
        }

        public long nextDeadlineNs()
        {
            return Math.min(answerNs, bed.server.nextDeadlineNs());
        }
    }

    /**
     * The server's port: counts what it sends, and marks every {@code markEvery}-th datagram it receives CE, as a
     * queue on the path that marks instead of dropping would.
     */
    private static final class MarkingPort extends ForwardingDatagramPort
    {
        private final int markEvery;
        private final int[] offsets = new int[64];
        private final int[] lengths = new int[64];
        private final InetSocketAddress[] sources = new InetSocketAddress[64];
        private final int[] ecnCodepoints = new int[64];
        private final long[] agesNs = new long[64];
        private final boolean[] verified = new boolean[64];
        private final UnsafeBuffer[] buffers = new UnsafeBuffer[64];
        private int received;
        private int sentDatagrams;
        private LongSupplier recordedPackets = () -> -1;
        private long recordedAtFirstSend = -1;
        private boolean isCeMarkedThisReceive;

        MarkingPort(final DatagramPort port, final int markEvery)
        {
            super(port);
            this.markEvery = markEvery;
        }

        /**
         * A batch without the simulated port's hook: this port clears it and adds the entries again, marked, so the
         * packets lent to it must stay lent until the port's next receive.
         */
        public ReceiveBatch newReceiveBatch(final int maxDatagrams)
        {
            return new ReceiveBatch(maxDatagrams, port.newReceiveBatch(maxDatagrams).capacityBytes());
        }

        public int receive(final ReceiveBatch batch, final int limit)
        {
            final int count = port.receive(batch, limit);
            if (0 == markEvery || 0 == batch.size())
            {
                return count;
            }
            final int size = batch.size();
            for (int i = 0; i < size; i++)
            {
                offsets[i] = batch.offset(i);
                lengths[i] = batch.length(i);
                sources[i] = batch.source(i);
                ecnCodepoints[i] = batch.ecnCodepoint(i);
                agesNs[i] = batch.arrivalAgeNs(i);
                verified[i] = batch.isVerified(i);
                buffers[i] = batch.buffer(i);
            }
            batch.clear();
            for (int i = 0; i < size; i++)
            {
                final boolean mark = 0 == ++received % markEvery;
                isCeMarkedThisReceive |= mark;
                final int codepoint = mark ? EcnCodepoint.CE : ecnCodepoints[i];
                if (buffers[i] == batch.buffer())
                {
                    batch.add(offsets[i], lengths[i], sources[i], codepoint, agesNs[i]);
                }
                else
                {
                    // The simulated port lends its packets in place: lend them again, marked, and vouched for as
                    // the port vouched (a CRC32C it left unwritten is not there to check: DatagramPort.offloadsCrc32c).
                    batch.addInPlace(buffers[i].byteArray(), lengths[i], sources[i], codepoint, agesNs[i], verified[i]);
                }
            }
            return count;
        }

        public int send(final SendBatch batch)
        {
            if (0 == sentDatagrams)
            {
                recordedAtFirstSend = recordedPackets.getAsLong();
            }
            sentDatagrams += batch.size();
            return port.send(batch);
        }

        public boolean send(
            final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
        {
            sentDatagrams++;
            return port.send(buffer, offset, length, destination);
        }
    }
}
