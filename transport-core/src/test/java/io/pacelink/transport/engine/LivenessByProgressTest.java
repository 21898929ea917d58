package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.EndpointLimits;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.testing.TestNetwork;
import io.pacelink.transport.testing.TestPackets;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Liveness by progress (docs/security.md, "Liveness and work per duty cycle") in virtual time, both sides of the
 * bound: a peer that sends only PINGs (or ACKs that acknowledge nothing new) beyond
 * {@link EndpointLimits#maxPacketsWithoutProgress} in an idle timeout is closed as {@code NO_PROGRESS}, one within it
 * is not; an idle connection both applications keep open lives on its keep-alives; a peer held back by this side's flow
 * control (its application does not read) is not closed, and is once the application reads; ACK-only packets draw
 * no packet back.
 */
class LivenessByProgressTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long IDLE_TIMEOUT_NS = 2 * SECOND_NS;
    private static final long PING_PACKET_NUMBER = 1 << 20;

    private final CoreTestBed bed = new CoreTestBed(IDLE_TIMEOUT_NS, SECOND_NS);
    private final TestNetwork.Port serverPort = bed.network().newPort(1000);
    private final TestNetwork.Port clientPort = bed.network().newPort(2000);
    private final EndpointCore server =
        bed.newCore(serverPort, true, 16, new PacelinkContext(), new ArrayList<>(), null);
    private final EndpointCore client = bed.newCore(clientPort, false, 16);
    private final UnsafeBuffer packet = new UnsafeBuffer(new byte[256]);
    private final PacketWriter writer = new PacketWriter();
    private long nextPacketNumber = PING_PACKET_NUMBER;

    @Test
    void aPeerSendingOnlyPingsBeyondTheBoundIsClosedAfterAnIdleTimeout()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        bed.stop(client);
        final long startNs = bed.nowNs();
        // 100 PINGs a second: 200 in an idle timeout, beyond the bound of 64.
        final long closedAfterNs = injectUntilClosed(pair[1], TimeUnit.MILLISECONDS.toNanos(10),
            (writer) -> writer.appendPing(), 5 * IDLE_TIMEOUT_NS);
        assertEquals(CloseReason.NO_PROGRESS, pair[1].closeReason());
        assertTrue(closedAfterNs >= IDLE_TIMEOUT_NS - TimeUnit.MILLISECONDS.toNanos(20) &&
            closedAfterNs <= 2 * IDLE_TIMEOUT_NS, "closed after " + closedAfterNs + " ns");
        assertEquals(1, server.securityCounters().noProgressCloses().get());
        assertTrue(bed.nowNs() - startNs < 2 * IDLE_TIMEOUT_NS + SECOND_NS);
    }

    @Test
    void pingsWithinTheBoundKeepTheConnectionOpenAndJustBeyondItDoNot()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        bed.stop(client);
        // 50 in an idle timeout (one every 40 ms), within the bound of 64: open through 5 idle timeouts.
        injectUntilClosed(pair[1], TimeUnit.MILLISECONDS.toNanos(40), (writer) -> writer.appendPing(),
            5 * IDLE_TIMEOUT_NS);
        assertEquals(ConnectionState.CONNECTED, pair[1].state());
        assertEquals(0, server.securityCounters().noProgressCloses().get());

        // 80 in an idle timeout (one every 25 ms): closed.
        injectUntilClosed(pair[1], TimeUnit.MILLISECONDS.toNanos(25), (writer) -> writer.appendPing(),
            5 * IDLE_TIMEOUT_NS);
        assertEquals(CloseReason.NO_PROGRESS, pair[1].closeReason());
    }

    @Test
    void ackOnlyPacketsThatAcknowledgeNothingNewDrawNothingAndCountAsNoProgress()
    {
        final long[] largestFromServer = {-1};
        final Connection[] pair = bed.connect(client, server, serverPort);
        bed.network().dropWhen((datagram) ->
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(datagram);
            if (PacketType.ONE_RTT == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET] &&
                pair[0].connectionId() == buffer.getLong(PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET,
                PacketHeaderFlyweight.BYTE_ORDER))
            {
                largestFromServer[0] = Math.max(largestFromServer[0],
                    buffer.getLong(PacketHeaderFlyweight.PACKET_NUMBER_OFFSET, PacketHeaderFlyweight.BYTE_ORDER));
            }
            return false;
        });
        final UnsafeBuffer message = new UnsafeBuffer(new byte[100]);
        pair[1].offer(message, 0, message.capacity());
        bed.run(() -> largestFromServer[0] >= 0, SECOND_NS, "a packet from the server");
        bed.runFor(SECOND_NS / 10);
        bed.stop(client);
        bed.runFor(SECOND_NS / 10);

        final long sentBefore = serverPort.sent();
        for (int i = 0; i < 1000; i++)
        {
            inject(pair[1], (writer) -> writer.appendAck(largestFromServer[0], 0, 0, 0));
            bed.step();
        }
        bed.runFor(SECOND_NS / 10);
        assertEquals(sentBefore, serverPort.sent(), "packets the server sent for 1,000 ACK-only packets");

        // They make no progress: beyond the bound for an idle timeout, the connection closes.
        injectUntilClosed(pair[1], TimeUnit.MILLISECONDS.toNanos(10),
            (writer) -> writer.appendAck(largestFromServer[0], 0, 0, 0), 3 * IDLE_TIMEOUT_NS);
        assertEquals(CloseReason.NO_PROGRESS, pair[1].closeReason());
    }

    @Test
    void anIdleConnectionBothApplicationsKeepOpenLivesOnItsKeepAlives()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        bed.runFor(10 * IDLE_TIMEOUT_NS);
        assertEquals(ConnectionState.CONNECTED, pair[0].state());
        assertEquals(ConnectionState.CONNECTED, pair[1].state());
        final UnsafeBuffer message = new UnsafeBuffer(new byte[100]);
        assertTrue(pair[0].offer(message, 0, message.capacity()) > 0);
        final int[] received = {0};
        bed.run(() -> 0 < pair[1].poll((buffer, offset, length) -> received[0]++, 1), SECOND_NS, "the message");
        assertEquals(0, server.securityCounters().noProgressCloses().get());
        assertEquals(0, client.securityCounters().noProgressCloses().get());
    }

    @Test
    void aPeerHeldBackByThisSidesFlowControlIsNotClosedUntilTheApplicationReads()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[16 * 1024]);
        // The server's application does not read: the client fills the server's receive window and waits.
        long offered = 0;
        for (int i = 0; i < 10_000 && offered < 1024 * 1024; i++)
        {
            final long result = pair[0].offer(message, 0, message.capacity());
            offered += Math.max(0, result) > 0 ? message.capacity() : 0;
            bed.step();
        }
        bed.runFor(IDLE_TIMEOUT_NS);
        bed.stop(client);

        // Beyond the bound, but the peer cannot make progress: this side holds it back.
        injectUntilClosed(pair[1], TimeUnit.MILLISECONDS.toNanos(10), (writer) -> writer.appendPing(),
            4 * IDLE_TIMEOUT_NS);
        assertEquals(ConnectionState.CONNECTED, pair[1].state());

        // The application reads: the window opens, and a peer that still sends only PINGs is closed.
        while (0 < pair[1].poll((buffer, offset, length) -> { }, 100))
        {
            bed.step();
        }
        injectUntilClosed(pair[1], TimeUnit.MILLISECONDS.toNanos(10), (writer) -> writer.appendPing(),
            4 * IDLE_TIMEOUT_NS);
        assertEquals(CloseReason.NO_PROGRESS, pair[1].closeReason());
    }

    // ---------------------------------------------------------------- helpers

    /**
     * Inject one packet with the given frames every interval, from the client's address to the server's connection,
     * until it closes or the time is up.
     *
     * @return how long it took to close, or the whole time.
     */
    private long injectUntilClosed(
        final Connection serverSide, final long intervalNs, final Consumer<PacketWriter> frames, final long maxNs)
    {
        final long startNs = bed.nowNs();
        long nextNs = startNs;
        while (ConnectionState.CLOSED != serverSide.state() && !serverSide.isEndOfStream() &&
            bed.nowNs() - startNs < maxNs)
        {
            if (bed.nowNs() >= nextNs)
            {
                inject(serverSide, frames);
                nextNs += intervalNs;
            }
            bed.step();
            if (ConnectionState.CONNECTED != serverSide.state())
            {
                break;
            }
        }
        return bed.nowNs() - startNs;
    }

    private void inject(final Connection serverSide, final Consumer<PacketWriter> frames)
    {
        writer.wrap(packet, 0, packet.capacity() - 4);
        writer.writeHeader(PacketType.ONE_RTT, serverSide.connectionId(), nextPacketNumber++);
        frames.accept(writer);
        serverPort.inject(TestPackets.withCrc(packet, writer.length()), clientPort.localAddress());
    }
}
