package io.pacelink.it;

import io.pacelink.link.PathSpec;
import io.pacelink.link.relay.NetemRelay;
import io.pacelink.link.relay.RelayStats;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.port.ImpairmentConfig;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 3's relay acceptance test on real loopback sockets: a transfer through {@link NetemRelay} with
 * {@code delay=20ms loss=1%} in each direction arrives byte-exact, the losses are repaired, and the connection
 * measures the emulated 40 ms RTT. Correctness only: the rate is whatever the controller reaches under 1 % loss.
 * <p>
 * The RTT checked is the median of the sender's latest RTT sampled every 10 ms, and its smoothed RTT at the end,
 * not its minimum: the endpoint reads the clock once per duty cycle, so an ACK that arrives while the agent thread is
 * preempted between that read and the socket read is stamped early, and on a busy two-core machine the minimum then
 * picks up such an outlier (observed: 34.9 ms through a relay that never releases early).
 * <p>
 * What is asserted is what the transport decides, not how promptly the machine runs it: the RTT is never measured
 * below the emulated one (beyond {@value #RTT_STAMP_SLACK_MS} ms of early stamping), and its median stays below
 * {@value #MAX_MEDIAN_RTT_MS} ms (an RTT taken from an earlier packet's send time would be a round trip or more
 * off). How far above 40 ms it lands is the relay's and the endpoints' scheduling lateness: with other builds on
 * the same two cores the smoothed RTT was observed at up to 42.3 ms and the median at 41.7 ms, so a 2 ms upper bound
 * asserted the machine's load rather than the transport.
 */
class NetemRelayTransferTest
{
    private static final long BASE_RTT_NS = TimeUnit.MILLISECONDS.toNanos(40);
    private static final long RTT_STAMP_SLACK_MS = 2;
    private static final long MIN_RTT_NS = BASE_RTT_NS - TimeUnit.MILLISECONDS.toNanos(RTT_STAMP_SLACK_MS);
    private static final long MAX_MEDIAN_RTT_MS = 60;
    private static final long RTT_SAMPLE_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long TOTAL_BYTES = 1 << 20;
    private static final int MAX_MESSAGE_BYTES = 32 * 1024;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aTransferThroughTheRelayIsByteExactAndMeasuresTheEmulatedRtt()
    {
        try (LoopbackPair pair = new LoopbackPair(
                (context) -> context.congestionControl("cubic"), ImpairmentConfig.NONE, ImpairmentConfig.NONE);
            NetemRelay relay = new NetemRelay(new NetemRelay.Context()
                .listenAddress(new InetSocketAddress("127.0.0.1", 0))
                .forwardAddress(pair.server.localAddress())
                .path(PathSpec.Pair.parse("delay=20ms loss=1%"))
                .seed(7))
                .start())
        {
            final Connection sender = pair.client.connect(relay.listenAddress());
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            Connection receiver = null;
            while (null == receiver || ConnectionState.CONNECTING == sender.state())
            {
                receiver = null == receiver ? pair.server.accept() : receiver;
                assertTrue(System.nanoTime() < deadlineNs, "connect timed out: " + sender);
                Thread.onSpinWait();
            }

            final IdleStrategy idle = new BackoffIdleStrategy(
                100, 10, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(100));
            final SplittableRandom random = new SplittableRandom(42);
            final byte[] content = new byte[MAX_MESSAGE_BYTES];
            final UnsafeBuffer message = new UnsafeBuffer(content);
            final CRC32 sent = new CRC32();
            final Verifier received = new Verifier();
            final List<Long> rttSamples = new ArrayList<>();
            long nextRttSampleNs = System.nanoTime();
            long offeredBytes = 0;
            long offeredMessages = 0;
            int pendingLength = 0;
            while (received.messages < offeredMessages || offeredBytes < TOTAL_BYTES)
            {
                if (0 == pendingLength && offeredBytes < TOTAL_BYTES)
                {
                    pendingLength = 1 + random.nextInt(MAX_MESSAGE_BYTES);
                    for (int i = 0; i < pendingLength; i++)
                    {
                        content[i] = (byte)random.nextInt(256);
                    }
                }
                int work = 0;
                if (pendingLength > 0 && sender.offer(message, 0, pendingLength) >= 0)
                {
                    updateLength(sent, pendingLength);
                    sent.update(content, 0, pendingLength);
                    offeredBytes += pendingLength;
                    offeredMessages++;
                    pendingLength = 0;
                    work++;
                }
                work += receiver.poll(received, 64);
                final long nowNs = System.nanoTime();
                if (nowNs >= nextRttSampleNs)
                {
                    rttSamples.add(sender.stats().latestRttNs());
                    nextRttSampleNs = nowNs + RTT_SAMPLE_INTERVAL_NS;
                }
                // Back off when idle: a spinning test thread would compete with the relay and the agent for the
                // two cores, and a preempted agent stamps arrivals late or early.
                idle.idle(work);
                assertTrue(System.nanoTime() < deadlineNs, "timed out with " + received.bytes + " of " +
                    offeredBytes + " bytes delivered");
                assertTrue(ConnectionState.CLOSED != sender.state(), "closed: " + sender.closeReason());
            }

            assertEquals(offeredMessages, received.messages, "messages");
            assertEquals(offeredBytes, received.bytes, "bytes");
            assertEquals(sent.getValue(), received.crc.getValue(), "content (CRC-32 of lengths and bytes)");

            final ConnectionStats stats = sender.stats();
            final long medianRttNs = rttSamples.stream().sorted().skip(rttSamples.size() / 2).findFirst().orElseThrow();
            final String rtts = String.format("median RTT %.3f ms, smoothed %.3f ms, min %.3f ms over %d samples on " +
                "a 40 ms path", medianRttNs / 1e6, stats.smoothedRttNs() / 1e6, stats.minRttNs() / 1e6,
                rttSamples.size());
            assertTrue(medianRttNs >= MIN_RTT_NS && stats.smoothedRttNs() >= MIN_RTT_NS, rtts);
            assertTrue(medianRttNs < TimeUnit.MILLISECONDS.toNanos(MAX_MEDIAN_RTT_MS), rtts);
            assertTrue(stats.packetsRetransmitted() > 0, "losses must have been repaired");
            final RelayStats relayStats = relay.stats();
            assertTrue(relayStats.forward().randomLossPackets() > 0 && relayStats.reverse().randomLossPackets() > 0,
                "the relay must drop in both directions: " + relayStats.formatSummary());
        }
    }

    private static void updateLength(final CRC32 crc, final int length)
    {
        crc.update(length >>> 24);
        crc.update(length >>> 16);
        crc.update(length >>> 8);
        crc.update(length);
    }

    /**
     * Checks what arrives: a CRC-32 over each message's length and bytes, in order, as the sender computed it.
     */
    private static final class Verifier implements MessageHandler
    {
        private final CRC32 crc = new CRC32();
        private final byte[] scratch = new byte[MAX_MESSAGE_BYTES];
        private long messages;
        private long bytes;

        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            buffer.getBytes(offset, scratch, 0, length);
            updateLength(crc, length);
            crc.update(scratch, 0, length);
            messages++;
            bytes += length;
        }
    }
}
