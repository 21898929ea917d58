package io.pacelink.hostile;

import io.pacelink.transport.Endpoint;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.pacelink.hostile.Servers.counter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Liveness by progress from a raw socket (docs/security.md, "Liveness and work per duty cycle"): 1,000 ACK-only
 * packets draw no packet back; a peer that sends only PINGs after its handshake is closed once an idle timeout passed
 * with more of them than a keep-alive needs, with a CLOSE that says why.
 */
class LivenessHostileTest
{
    private static final long MILLISECOND_NS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void aThousandAckOnlyPacketsDrawNoPacketBack()
    {
        try (Endpoint server = Servers.launch((context) -> { });
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            peer.handshake(TimeUnit.SECONDS.toNanos(2));
            peer.receiveFor(300 * MILLISECOND_NS);
            final List<Long> fromServer = peer.oneRttPacketNumbers();
            assertFalse(fromServer.isEmpty(), "the server acknowledged the confirming PING");
            final long largest = fromServer.stream().mapToLong(Long::longValue).max().getAsLong();
            // Everything the server sent so far acknowledged, each number on its own (a range could cover a number it
            // skipped): its NEW_TOKEN after the confirmation is ack-eliciting, and left unacknowledged its probe
            // timeout would send it again during the count below.
            for (final long packetNumber : fromServer)
            {
                peer.sendOneRtt((writer) -> writer.appendAck(packetNumber, 0, 0, 0));
            }
            peer.receiveFor(100 * MILLISECOND_NS);
            peer.received().clear();

            for (int i = 0; i < 1000; i++)
            {
                peer.sendOneRtt((writer) -> writer.appendAck(largest, 0, 0, 0));
                if (0 == i % 50)
                {
                    LockSupport.parkNanos(MILLISECOND_NS);
                }
            }
            peer.receiveFor(500 * MILLISECOND_NS);
            assertEquals(0, peer.received().size(), "packets drawn by 1,000 ACK-only packets");
            assertEquals(0, counter(server, "protocol-violations"));
        }
    }

    @Test
    void aPeerSendingOnlyPingsIsClosedAfterAnIdleTimeoutSayingWhy()
    {
        final long idleTimeoutNs = TimeUnit.SECONDS.toNanos(1);
        try (Endpoint server = Servers.launch((context) -> context.idleTimeoutNs(idleTimeoutNs));
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            peer.handshake(TimeUnit.SECONDS.toNanos(2));
            final long startNs = System.nanoTime();
            int closeErrorCode = -1;
            // 200 PINGs a second, beyond the 64 a keep-alive could need in an idle timeout.
            while (closeErrorCode < 0)
            {
                assertTrue(System.nanoTime() - startNs < 4 * idleTimeoutNs, "still open after 4 idle timeouts");
                peer.sendOneRtt((writer) -> writer.appendPing());
                peer.receiveFor(5 * MILLISECOND_NS);
                closeErrorCode = peer.closeErrorCode();
            }
            assertEquals(3, closeErrorCode, "ABORTED");
            assertTrue(peer.closeReasonText().contains("only PINGs and ACKs"), peer.closeReasonText());
            assertEquals(1, counter(server, "no-progress-closes"));
            assertTrue(System.nanoTime() - startNs >= idleTimeoutNs - 50 * MILLISECOND_NS, "not before the timeout");
        }
    }
}
