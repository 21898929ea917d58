package io.pacelink.cli;

import io.pacelink.link.PathSpec;
import io.pacelink.link.relay.NetemRelay;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The relays of {@code pacelink netem} and {@code pacelink demo}, as the commands configure them, warn when their own
 * release lateness distorts the path, and stay quiet when it does not: real sockets, but the relay's clock is one
 * that moves only when read, by a fixed step. The relay reads its clock a few times per turn of its loop, so it finds
 * a packet due at most a few steps after its delivery time and measures its lateness one reading later: how late the
 * relay's own accounting says it was is set by the step, whatever the machine does. A step of 20 ms makes a relay
 * that is late by 20 ms or more on a 40 ms path (as a descheduled relay thread is); a step of 10 µs, a healthy one.
 */
class RelayLatenessClockTest
{
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long US = TimeUnit.MICROSECONDS.toNanos(1);
    private static final int PACKETS = 20;

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void netemWarnsWhenItsReleasesAreLateByAShareOfThePath() throws IOException
    {
        final PathSpec.Pair path = PathSpec.Pair.parse("delay=40ms", null);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final long p99Ns = relayPackets((server) -> NetemCommand.relayContext(
            new InetSocketAddress("127.0.0.1", 0), server, path, 1, print(out), print(err)), 20 * MS);

        assertTrue(p99Ns >= 20 * MS, "the accounting: every release at least one step late, p99 " + p99Ns);
        final String said = err.toString(StandardCharsets.UTF_8);
        assertTrue(said.startsWith("pacelink netem: warning: the relay released packets late by "), said);
        assertTrue(said.contains("on a path of 40.0 ms one way: the path it emulates is distorted by that much"),
            said);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains(Integer.toString(PACKETS)),
            "the reports still printed: " + out);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void netemIsQuietWhenItsReleasesAreOnTime() throws IOException
    {
        final PathSpec.Pair path = PathSpec.Pair.parse("delay=40ms", null);
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final long p99Ns = relayPackets((server) -> NetemCommand.relayContext(
            new InetSocketAddress("127.0.0.1", 0), server, path, 1, print(new ByteArrayOutputStream()), print(err)),
            10 * US);

        assertTrue(p99Ns < RelayLatenessWarning.thresholdNs(40 * MS), "p99 " + p99Ns);
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void theDemosRelayWarnsOnceAndIsQuietOnTime() throws IOException
    {
        // The demo's lossy long path without its loss, so that every packet arrives: 75 ms one way, threshold 7.5 ms.
        final PathSpec.Pair path = PathSpec.Pair.parse("rate=100mbit delay=75ms", "delay=75ms");
        final LoopbackTransfer.Plan plan =
            LoopbackTransfer.Plan.timedThroughRelay("cubic", TimeUnit.SECONDS.toNanos(1), 1024, path, 1);

        final ByteArrayOutputStream late = new ByteArrayOutputStream();
        relayPackets((server) -> LoopbackTransfer.relayContext(plan, server, print(late)), 40 * MS);
        final String said = late.toString(StandardCharsets.UTF_8);
        assertTrue(said.startsWith("pacelink demo: warning: the relay released packets late by "), said);
        assertEquals(1, said.lines().count(), "once per transfer, not again in a summary the demo does not print: " +
            said);

        final ByteArrayOutputStream onTime = new ByteArrayOutputStream();
        relayPackets((server) -> LoopbackTransfer.relayContext(plan, server, print(onTime)), 10 * US);
        assertEquals("", onTime.toString(StandardCharsets.UTF_8));
    }

    /**
     * Send {@link #PACKETS} datagrams through a relay configured by {@code configure} and driven by a clock of the
     * given step, wait until the server has them all, stop the relay.
     *
     * @return the relay's 99th percentile of release lateness over the run.
     */
    private static long relayPackets(final RelayConfiguration configure, final long clockStepNs) throws IOException
    {
        try (DatagramChannel server = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            DatagramChannel client = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0)))
        {
            final NetemRelay relay = new NetemRelay(configure.context((InetSocketAddress)server.getLocalAddress())
                .clock(new SteppingClock(clockStepNs))
                .maxParkNs(10 * US)
                .maxWaitNs(10 * US) // its clock moves only when read: a real-time sleep must stay short
                .reportIntervalNs(100 * MS));
            try
            {
                relay.start();
                for (int i = 0; i < PACKETS; i++)
                {
                    client.send(ByteBuffer.wrap(new byte[] { (byte)i }), relay.listenAddress());
                }
                final ByteBuffer buffer = ByteBuffer.allocate(64);
                for (int i = 0; i < PACKETS; i++)
                {
                    buffer.clear();
                    server.receive(buffer);
                }
            }
            finally
            {
                relay.close();
            }
            assertEquals(PACKETS, relay.stats().releasedPackets());
            return relay.stats().releaseLateP99Ns();
        }
    }

    private static PrintStream print(final ByteArrayOutputStream bytes)
    {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    @FunctionalInterface
    private interface RelayConfiguration
    {
        NetemRelay.Context context(InetSocketAddress server);
    }

    /**
     * Time that moves only when read: each reading is one step after the previous.
     */
    private static final class SteppingClock implements NanoClock
    {
        private final AtomicLong nowNs = new AtomicLong(TimeUnit.SECONDS.toNanos(1));
        private final long stepNs;

        SteppingClock(final long stepNs)
        {
            this.stepNs = stepNs;
        }

        public long nanoTime()
        {
            return nowNs.addAndGet(stepNs);
        }
    }
}
