package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.testing.TestNetwork;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 9 item 11: the agent read the clock once per duty cycle, before receiving, so an ACK that arrived while the
 * thread was descheduled was stamped with the older time and an RTT sample could be far shorter than the path's RTT
 * (a BBR sender's min RTT fell to 0.007 ms on a 38 ms path). A duty cycle now stamps each datagram with a clock read
 * taken after it was read, and each packet with a read at its send. Proven here with a clock that jumps in the middle
 * of a duty cycle, as it does for a thread that stalls there.
 */
class DutyCycleClockTest
{
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final CoreTestBed bed = new CoreTestBed(TimeUnit.SECONDS.toNanos(10), TimeUnit.SECONDS.toNanos(1));
    private final TestNetwork network = bed.network();
    private final TestNetwork.Port serverPort = network.newPort(1000);
    private final EndpointCore server = bed.newCore(serverPort, true, 16);
    private final TestNetwork.Port clientPort = network.newPort(2000);
    private final EndpointCore client = bed.newCore(clientPort, false, 16);
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[100]);

    /**
     * A clock whose reads return the given times in turn, then the last one ever after: a thread that stalls between
     * two reads of one duty cycle.
     */
    private static NanoClock clockReading(final long... timesNs)
    {
        final int[] reads = new int[1];
        return () -> timesNs[Math.min(reads[0]++, timesNs.length - 1)];
    }

    /**
     * The server receives the data and acknowledges it (its ACK delay is 1 ms).
     */
    private void serverAcknowledges(final long fromNs)
    {
        server.doWork(fromNs);
        server.doWork(fromNs + 2 * MS);
    }

    @Test
    void aDatagramIsStampedWhenItWasReadNotWhenTheCycleBegan()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        bed.runFor(50 * MS);
        final long t = bed.nowNs();

        assertTrue(pair[0].offer(message, 0, message.capacity()) > 0);
        client.doWork(t + MS);
        serverAcknowledges(t + 2 * MS);

        // The client's cycle starts at t + 5 ms, the thread stalls, and the ACK waiting in the socket is read at
        // t + 50 ms: it did not arrive before it was read, so the sample may not claim less than 49 ms.
        client.doWork(clockReading(t + 5 * MS, t + 50 * MS));
        assertEquals(49 * MS, pair[0].stats().latestRttNs());
        assertTrue(client.counters().longestDutyCycleNs().get() >= 45 * MS, "the stall is recorded");
    }

    /**
     * The same stall, on a port that read the kernel's receive time: the ACK arrived 45 ms before it was read, at
     * t + 5 ms. Its delivery-rate sample is timed by that arrival less the 1 ms the server reports it held the ACK
     * (RFC 9000 section 13.2.5) — the client's rate sampler delivered it at t + 4 ms — and its RTT sample still by the
     * read, never shorter than the path's.
     */
    @Test
    void anAckIsDeliveredWhenItArrivedAndItsRttSampleIsTakenWhenItWasRead()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        bed.runFor(50 * MS);
        final long t = bed.nowNs();

        assertTrue(pair[0].offer(message, 0, message.capacity()) > 0);
        client.doWork(t + MS);
        serverAcknowledges(t + 2 * MS);

        clientPort.reportArrivalAge(45 * MS);
        client.doWork(clockReading(t + 5 * MS, t + 50 * MS));
        assertEquals(49 * MS, pair[0].stats().latestRttNs());
        final ConnectionCore connection = client.connectionCore(pair[0].connectionId());
        assertEquals(
            t + 4 * MS, connection.lossRecovery().rateSampler().deliveredTimeNs(), "arrival less its delay");
    }

    @Test
    void aDutyCycleHandsAllItsPacketsToThePortInOneBatch()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        bed.runFor(50 * MS);
        final UnsafeBuffer bulk = new UnsafeBuffer(new byte[60_000]);
        assertTrue(pair[0].offer(bulk, 0, bulk.capacity()) > 0);
        final long batchesBefore = clientPort.batchesSent();
        final long datagramsBefore = clientPort.sent();

        client.doWork(bed.nowNs() + MS);

        assertEquals(batchesBefore + 1, clientPort.batchesSent(), "one send of the port for the whole cycle");
        assertTrue(clientPort.sent() - datagramsBefore >= 40, "60,000 bytes in one window: " +
            (clientPort.sent() - datagramsBefore) + " datagrams in that batch");
        assertEquals(client.counters().datagramsSent().get(), clientPort.sent(), "every datagram counted");
    }

    @Test
    void aPacketIsStampedWhenItIsSent()
    {
        // A window of one packet: the second message waits for the first one's ACK, and leaves in the send phase
        // after the receive that brings it (what an application offered since the last cycle leaves before that
        // receive, stamped with the time read as the cycle starts: OfferBeforeReceiveTest).
        final TestNetwork.Port narrowPort = network.newPort(3000);
        final EndpointCore narrow = bed.newCore(narrowPort, false, 16, new PacelinkContext(), new ArrayList<>(),
            CongestionControlRegistry.of(FixedWindowController.factory(1000)));
        final Connection[] pair = bed.connect(narrow, server, serverPort);
        bed.runFor(50 * MS);
        final long t = bed.nowNs();
        final UnsafeBuffer kilobyte = new UnsafeBuffer(new byte[1000]);
        assertTrue(pair[0].offer(kilobyte, 0, kilobyte.capacity()) > 0);
        assertTrue(pair[0].offer(kilobyte, 0, kilobyte.capacity()) > 0);
        final long sentBefore = narrowPort.sent();
        narrow.doWork(t + MS);
        assertEquals(sentBefore + 1, narrowPort.sent(), "the window holds one packet");
        serverAcknowledges(t + 2 * MS);

        // The cycle starts at t + 5 ms, reads the ACK and fires its timers at t + 5 ms, then the thread stalls and
        // the second packet leaves at t + 45 ms.
        narrow.doWork(clockReading(t + 5 * MS, t + 5 * MS, t + 45 * MS));
        assertEquals(sentBefore + 2, narrowPort.sent(), "the ACK opened the window for the second packet");
        serverAcknowledges(t + 46 * MS);
        narrow.doWork(t + 50 * MS);
        assertEquals(5 * MS, pair[0].stats().latestRttNs(), "the stall before the send is no part of the RTT");
    }

    @Test
    void anIdleCycleReadsTheClockOnlyForItsStartAndABusyOneAfterItsReceiveBeforeItsSendAndAtItsEnd()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        bed.runFor(50 * MS);
        final long t = bed.nowNs();
        client.doWork(t + MS);
        final long[] reads = new long[1];
        final NanoClock counting = () ->
        {
            reads[0]++;
            return t + 2 * MS;
        };

        // Nothing arrived, nothing due: the time the cycle started at stands, and is its end.
        assertEquals(0, client.doWork(counting, t + 2 * MS));
        assertEquals(0, reads[0], "an idle cycle started at a given time reads no clock");
        reads[0] = 0;
        assertEquals(0, client.doWork(counting));
        assertEquals(1, reads[0], "and once when it reads its start itself");

        // A datagram processed: the send phase and the cycle's end read the time again.
        assertTrue(pair[1].offer(message, 0, message.capacity()) > 0);
        server.doWork(t + 2 * MS);
        reads[0] = 0;
        assertTrue(client.doWork(counting, t + 2 * MS) > 0);
        assertEquals(3, reads[0], "after the receive, before the send, at the end");
    }

    @Test
    void anIdleCycleComparesItsTimersWithItsStartSoOneThatFellDueDuringItsReceiveFiresInTheNextCycle()
    {
        bed.connect(client, server, serverPort);
        bed.runFor(50 * MS);
        final long deadlineNs = client.nextTimerDeadlineNs();
        assertTrue(Long.MAX_VALUE != deadlineNs, "a connection has a timer (its idle timeout at least)");
        final NanoClock late = () -> deadlineNs + MS;

        // The thread stalls in the empty receive past the deadline: the cycle began before it, so the timer waits.
        assertEquals(0, client.doWork(late, deadlineNs - 1));
        assertEquals(0, client.connectionsServed(), "not due when the cycle began");
        client.doWork(late, deadlineNs);
        assertEquals(1, client.connectionsServed(), "due when the next one began: served then");
    }

    @Test
    void aCycleThatOnlyLeavesARequestToItsAnswerReadsTheClockOnlyAfterItsReceive()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        bed.runFor(50 * MS);
        final long t = bed.nowNs();
        // The server's message is in flight when the client's answer, with its ACK, arrives: a request whose ACK
        // frame the server parks and whose service it leaves to its own answer.
        assertTrue(pair[1].offer(message, 0, message.capacity()) > 0);
        server.doWork(t + MS);
        client.doWork(t + MS);
        assertEquals(1, pair[0].poll((buffer, offset, length) -> { }, 1));
        assertTrue(pair[0].offer(message, 0, message.capacity()) > 0);
        client.doWork(t + MS);
        final long[] reads = new long[1];
        final NanoClock counting = () ->
        {
            reads[0]++;
            return t + 2 * MS;
        };

        assertTrue(server.doWork(counting, t + 2 * MS) > 0);
        assertEquals(0, server.connectionsServed(), "the request's service is left to its answer");
        assertEquals(1, reads[0], "the read after the receive stamps the datagram and ends the cycle");
    }
}
