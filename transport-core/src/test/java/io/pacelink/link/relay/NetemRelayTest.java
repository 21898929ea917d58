package io.pacelink.link.relay;

import io.pacelink.link.PathSpec;
import io.pacelink.transport.port.NioDatagramPort;
import io.pacelink.transport.stats.CounterKey;
import io.pacelink.transport.stats.CounterType;
import io.pacelink.transport.stats.CountersFileReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The relay on real loopback sockets: correctness with loose time bounds, not speed.
 */
@Timeout(30)
class NetemRelayTest
{
    private static final long MS = 1_000_000L;
    private static final int RECEIVE_TIMEOUT_MS = 2_000;

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private DatagramSocket server;
    private DatagramSocket client;
    private NetemRelay relay;

    @BeforeEach
    void openSockets() throws IOException
    {
        server = socket();
        client = socket();
    }

    @AfterEach
    void closeEverything()
    {
        if (null != relay)
        {
            relay.close();
        }
        server.close();
        client.close();
    }

    @Test
    void forwardsBothWaysWithTheConfiguredDelay() throws IOException
    {
        relay = startRelay("delay=20ms");
        final byte[] buffer = new byte[64];
        final DatagramPacket received = new DatagramPacket(buffer, buffer.length);
        for (int i = 0; i < 10; i++)
        {
            final byte[] payload = ByteBuffer.allocate(16).putLong(System.nanoTime()).putLong(i).array();
            client.send(new DatagramPacket(payload, payload.length, relay.listenAddress()));

            server.receive(received);
            final long oneWayNs = System.nanoTime() - ByteBuffer.wrap(buffer).getLong(0);
            // Never early; how late depends on the machine's load, so no upper bound (no timing assertions in tests).
            assertTrue(oneWayNs >= 20 * MS, "forward one-way delay " + oneWayNs);
            assertEquals(relay.upstreamAddress().getPort(), received.getPort());
            server.send(new DatagramPacket(buffer, 16, received.getSocketAddress()));

            client.receive(received);
            final long rttNs = System.nanoTime() - ByteBuffer.wrap(buffer).getLong(0);
            assertTrue(rttNs >= 40 * MS, "round trip " + rttNs);
            assertEquals(i, ByteBuffer.wrap(buffer).getLong(8));
        }

        relay.close();
        final RelayStats stats = relay.stats();
        assertEquals(10, stats.forward().forwardedPackets());
        assertEquals(10, stats.reverse().forwardedPackets());
        assertEquals(20, stats.releasedPackets());
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("netem relay summary"));
    }

    @Test
    void halfTheDatagramsAreLostAtFiftyPercentLoss() throws IOException
    {
        relay = startRelay("loss=50%");
        final int sent = 2_000;
        final byte[] payload = new byte[100];
        for (int i = 0; i < sent; i++)
        {
            client.send(new DatagramPacket(payload, payload.length, relay.listenAddress()));
        }
        final int arrived = receiveUntilQuiet(server);

        relay.close();
        final RelayStats.Direction forward = relay.stats().forward();
        assertEquals(sent, forward.receivedPackets());
        assertEquals(sent - forward.randomLossPackets(), arrived);
        // Binomial(2000, 0.5): sigma = 22.4.
        assertEquals(sent / 2.0, arrived, 3 * Math.sqrt(sent * 0.25));
    }

    @Test
    void thePolicerDropsWhatExceedsItsBucketAndRate() throws IOException
    {
        // A 10 KiB bucket filling at 1000 bytes per second: ten 1000-byte datagrams pass at once, then about one per
        // second the sending takes.
        relay = startRelay("police=8kbit burst=10kb");
        final long startNs = System.nanoTime();
        final int sent = 200;
        final byte[] payload = new byte[1000];
        for (int i = 0; i < sent; i++)
        {
            client.send(new DatagramPacket(payload, payload.length, relay.listenAddress()));
        }
        final int arrived = receiveUntilQuiet(server);
        final double elapsedSeconds = (System.nanoTime() - startNs) / 1e9;

        relay.close();
        final RelayStats.Direction forward = relay.stats().forward();
        assertEquals(sent, forward.receivedPackets());
        assertEquals(sent - forward.policedPackets(), arrived);
        assertTrue(arrived >= 10 && arrived <= 10 + Math.ceil(elapsedSeconds), "arrived " + arrived + " in " +
            elapsedSeconds + " s");
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("policed"), printed.toString());
    }

    @Test
    void keepsRunningWhileTheServerIsNotUpYet() throws IOException
    {
        final int serverPort = server.getLocalPort();
        server.close();
        relay = startRelay("delay=1ms", serverPort);
        final byte[] payload = new byte[32];
        for (int i = 0; i < 5; i++)
        {
            client.send(new DatagramPacket(payload, payload.length, relay.listenAddress()));
        }
        // Let the relay forward them into the closed port and get ICMP port-unreachable back.
        receiveUntilQuiet(client);

        server = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), serverPort));
        server.setSoTimeout(RECEIVE_TIMEOUT_MS);
        client.send(new DatagramPacket(payload, payload.length, relay.listenAddress()));
        server.receive(new DatagramPacket(new byte[64], 64));

        relay.close();
        assertEquals(6, relay.stats().forward().receivedPackets());
        // Loopback reports the closed port at once: some of the first five sends failed instead of killing the relay.
        assertTrue(relay.stats().forward().sendFailures() > 0);
    }

    @Test
    void publishesItsCountersInAFileThatIsDeletedOnClose(@TempDir final Path countersDirectory) throws IOException
    {
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        relay = new NetemRelay(new NetemRelay.Context()
            .listenAddress(new InetSocketAddress(loopback, 0))
            .forwardAddress(new InetSocketAddress(loopback, server.getLocalPort()))
            .path(PathSpec.Pair.parse("delay=1ms"))
            .countersDirectory(countersDirectory)).start();
        final Path file = relay.countersFile();
        assertTrue(file.getFileName().toString().startsWith("netem-"), file.toString());

        final byte[] payload = new byte[100];
        for (int i = 0; i < 5; i++)
        {
            client.send(new DatagramPacket(payload, payload.length, relay.listenAddress()));
            server.receive(new DatagramPacket(new byte[2048], 2048));
        }

        try (CountersFileReader reader = CountersFileReader.open(file).orElseThrow())
        {
            assertTrue(reader.description().startsWith("netem "), reader.description());
            final long deadlineNs = System.nanoTime() + RECEIVE_TIMEOUT_MS * MS;
            long forwarded = 0;
            while (forwarded < 5 && System.nanoTime() < deadlineNs)
            {
                forwarded = relayCounter(reader, "forward-forwarded-packets");
            }
            assertEquals(5, forwarded, "published within 100 ms");
            assertEquals(500, relayCounter(reader, "forward-forwarded-bytes"));
        }
        relay.close();
        assertFalse(Files.exists(file));
    }

    @Test
    void everyClientGetsItsOwnRepliesWhileSeveralTalkAtOnce() throws IOException
    {
        // The soak's case: one sender waits for its receiver's confirmation while another keeps sending. With one
        // socket towards the server shared by every client, the reply for the quiet client went to the last client
        // heard from, the busy one, and the quiet one never heard from its server again.
        relay = startRelay("delay=1ms");
        try (DatagramSocket quiet = socket(); DatagramSocket busy = socket())
        {
            final InetSocketAddress quietAtServer = sendThroughRelay(quiet, "hello from quiet");
            final InetSocketAddress busyAtServer = sendThroughRelay(busy, "hello from busy");
            assertNotEquals(quietAtServer, busyAtServer, "the server must see two clients");

            // The busy client was heard from last; the server answers the quiet one, then the busy one.
            reply(quietAtServer, "for quiet");
            reply(busyAtServer, "for busy");
            assertEquals("for quiet", receiveText(quiet));
            assertEquals("for busy", receiveText(busy));

            // And again after the quiet client spoke once more, in the other order.
            assertEquals(quietAtServer, sendThroughRelay(quiet, "again from quiet"));
            reply(busyAtServer, "for busy again");
            reply(quietAtServer, "for quiet again");
            assertEquals("for busy again", receiveText(busy));
            assertEquals("for quiet again", receiveText(quiet));
        }

        relay.close();
        assertEquals(2, relay.stats().clients());
        assertEquals(2, relay.stats().clientsOpened());
        assertEquals(0, relay.stats().clientsForgotten());
        assertEquals(0, relay.stats().reverse().sendFailures());
    }

    @Test
    void theNextNewClientsSocketIsOpenedWhileTheRelayIdles() throws IOException
    {
        final AtomicInteger opens = new AtomicInteger();
        relay = startRelay(relayContext("delay=1ms").portFactory((address, bytes) ->
        {
            opens.incrementAndGet();
            return NioDatagramPort.open(address, bytes);
        }));
        assertEquals(2, opens.get(), "the listen socket and the first client's");
        try (DatagramSocket second = socket())
        {
            sendThroughRelay(client, "hello from the first");
            // The first client took the socket opened at the start; the next one's is opened before it comes.
            awaitCount(opens, 3, "a spare socket opened while idle");
            final InetSocketAddress secondAtServer = sendThroughRelay(second, "hello from the second");
            assertNotEquals(relay.upstreamAddress(), secondAtServer);
            awaitCount(opens, 4, "the next spare");
        }
        relay.close();
        assertEquals(2, relay.stats().clientsOpened());
    }

    @Test
    void aNewClientsDatagramIsDelayedFromItsArrivalNotFromItsSocketsOpening() throws IOException
    {
        // A clock that jumps 30 ms while a new client's socket is opened on its datagram's path (the spare refused,
        // so none is ready): the datagram's 20-ms delay counts from its arrival, before the jump, so it is released
        // at once, 10 ms late on the relay's clock. Stamped after the opening, it would wait 20 ms more and be on time.
        final AtomicLong jumpNs = new AtomicLong();
        final AtomicInteger opens = new AtomicInteger();
        relay = startRelay(relayContext("delay=20ms").clock(() -> System.nanoTime() + jumpNs.get())
            .portFactory((address, bytes) ->
            {
                final int n = opens.incrementAndGet();
                if (3 == n)
                {
                    throw new UncheckedIOException(new IOException("no spare (test)"));
                }
                if (n > 3)
                {
                    jumpNs.addAndGet(30 * MS);
                }
                return NioDatagramPort.open(address, bytes);
            }));
        try (DatagramSocket second = socket())
        {
            sendThroughRelay(client, "hello from the first");
            awaitCount(opens, 3, "the spare asked for (and refused)");
            sendThroughRelay(second, "hello from the second");
        }
        relay.close();
        assertEquals(4, opens.get());
        assertTrue(relay.stats().releaseLateMaxNs() >= 5 * MS, "released late by at most " +
            relay.stats().releaseLateMaxNs() / 1e6 + " ms: its delay counted from after the socket's opening");
    }

    @Test
    void aClientSilentLongerThanTheIdleTimeoutIsForgottenAndComesBackAsANewOne() throws IOException
    {
        relay = startRelay(relayContext("delay=1ms").clientIdleTimeoutNs(200 * MS));
        final InetSocketAddress first = sendThroughRelay(client, "first");
        awaitStats((stats) -> 1 == stats.clientsForgotten(), "the idle client to be forgotten");
        assertEquals(0, relay.stats().clients());

        final InetSocketAddress second = sendThroughRelay(client, "second");
        assertNotEquals(first, second, "a forgotten client gets a new socket");
        reply(second, "answer");
        assertEquals("answer", receiveText(client));
        relay.close();
        assertEquals(2, relay.stats().clientsOpened());
    }

    @Test
    void theLeastRecentlyActiveClientMakesRoomWhenTheLimitIsReached() throws IOException
    {
        relay = startRelay(relayContext("delay=1ms").maxClients(2));
        try (DatagramSocket second = socket(); DatagramSocket third = socket())
        {
            sendThroughRelay(client, "one");
            final InetSocketAddress secondAtServer = sendThroughRelay(second, "two");
            final InetSocketAddress thirdAtServer = sendThroughRelay(third, "three");
            awaitStats((stats) -> 1 == stats.clientsForgotten(), "the first client to make room");
            assertEquals(2, relay.stats().clients());

            reply(secondAtServer, "for two");
            reply(thirdAtServer, "for three");
            assertEquals("for two", receiveText(second));
            assertEquals("for three", receiveText(third));
        }
        relay.close();
        assertEquals(3, relay.stats().clientsOpened());
    }

    @Test
    void aRebindingGivesTheClientANewSourcePortAndItsRepliesStillReachIt() throws IOException
    {
        relay = startRelay(relayContext("delay=1ms").rebindAfterNs(200 * MS));
        final InetSocketAddress before = sendThroughRelay(client, "before");
        InetSocketAddress after = before;
        final long deadlineNs = System.nanoTime() + RECEIVE_TIMEOUT_MS * MS;
        while (after.equals(before))
        {
            assertTrue(System.nanoTime() < deadlineNs, "the relay never rebound");
            LockSupport.parkNanos(20 * MS);
            after = sendThroughRelay(client, "after");
        }
        assertEquals(before.getAddress(), after.getAddress(), "a new port, as a NAT that rebinds");
        reply(after, "answer at the new port");
        assertEquals("answer at the new port", receiveText(client));
        LockSupport.parkNanos(300 * MS);
        assertEquals(after, sendThroughRelay(client, "once only"), "it rebinds once");
        relay.close();
        assertEquals(1, relay.stats().clientsOpened(), "the same client, rebound, not a new one");
    }

    @Test
    void asksForItsRealtimePriorityOnItsOwnThreadBeforeItRelays() throws IOException
    {
        final AtomicReference<String> asked = new AtomicReference<>();
        final RelayReporter printing = RelayReporter.printingTo(new PrintStream(printed, true, StandardCharsets.UTF_8));
        relay = startRelay(relayContext("delay=1ms").realtimePriority(2).reporter(new RelayReporter()
        {
            public void onInterval(final RelayStats previous, final RelayStats current)
            {
            }

            public void onClose(final RelayStats total)
            {
            }

            public void onRealtimePriority(final int priority, final String refusal)
            {
                printing.onRealtimePriority(priority, refusal);
                asked.set(priority + " on " + Thread.currentThread().getName() + ": " +
                    (null == refusal ? "applied" : "refused"));
            }
        }));
        sendThroughRelay(client, "after the priority");

        // Applied where the process may (root, CAP_SYS_NICE), refused with a reason elsewhere: either is said.
        assertTrue(String.valueOf(asked.get()).matches("2 on pacelink-netem: (applied|refused)"), asked.get());
        final String line = printed.toString(StandardCharsets.UTF_8);
        assertTrue(line.contains("thread: SCHED_FIFO priority 2") ||
            line.contains("thread: normal scheduling (SCHED_FIFO 2 refused: "), line);
    }

    @Test
    void withoutARealtimePriorityItDoesNotAskForOne() throws IOException
    {
        relay = startRelay("delay=1ms");
        sendThroughRelay(client, "at a normal priority");
        relay.close();
        assertFalse(printed.toString(StandardCharsets.UTF_8).contains("thread:"), printed.toString());
    }

    @Test
    void refusesARealtimePriorityOutsideOneToNinetyNine()
    {
        final IllegalStateException tooHigh = assertThrows(IllegalStateException.class,
            () -> new NetemRelay(relayContext("delay=1ms").realtimePriority(100)));
        assertTrue(tooHigh.getMessage().contains("realtimePriority") && tooHigh.getMessage().contains("1-99"),
            tooHigh.getMessage());
        assertThrows(IllegalStateException.class,
            () -> new NetemRelay(relayContext("delay=1ms").realtimePriority(-1)));
    }

    @Test
    void refusesClientLimitsThatAreNotPositive()
    {
        assertThrows(IllegalStateException.class, () -> new NetemRelay(relayContext("delay=1ms").maxClients(0)));
        assertThrows(IllegalStateException.class,
            () -> new NetemRelay(relayContext("delay=1ms").clientIdleTimeoutNs(0)));
        assertThrows(IllegalStateException.class,
            () -> new NetemRelay(relayContext("delay=1ms").rebindAfterNs(0)));
    }

    /**
     * @return where the server saw the datagram come from.
     */
    private InetSocketAddress sendThroughRelay(final DatagramSocket from, final String text) throws IOException
    {
        final byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        from.send(new DatagramPacket(payload, payload.length, relay.listenAddress()));
        final DatagramPacket received = new DatagramPacket(new byte[2048], 2048);
        server.receive(received);
        assertEquals(text, new String(received.getData(), 0, received.getLength(), StandardCharsets.UTF_8));
        return (InetSocketAddress)received.getSocketAddress();
    }

    private void reply(final InetSocketAddress to, final String text) throws IOException
    {
        final byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        server.send(new DatagramPacket(payload, payload.length, to));
    }

    private static String receiveText(final DatagramSocket socket) throws IOException
    {
        final DatagramPacket received = new DatagramPacket(new byte[2048], 2048);
        socket.receive(received);
        return new String(received.getData(), 0, received.getLength(), StandardCharsets.UTF_8);
    }

    private static void awaitCount(final AtomicInteger count, final int expected, final String what)
    {
        final long deadlineNs = System.nanoTime() + RECEIVE_TIMEOUT_MS * MS;
        while (count.get() < expected)
        {
            assertTrue(System.nanoTime() < deadlineNs, "timed out waiting for " + what + ": " + count.get());
            LockSupport.parkNanos(MS);
        }
    }

    private void awaitStats(final Predicate<RelayStats> condition, final String what)
    {
        // Stats are refreshed every 100 ms; the deadline only bounds a broken relay.
        final long deadlineNs = System.nanoTime() + RECEIVE_TIMEOUT_MS * MS;
        while (!condition.test(relay.stats()))
        {
            assertTrue(System.nanoTime() < deadlineNs, "timed out waiting for " + what + ": " + relay.stats());
            LockSupport.parkNanos(MS);
        }
    }

    private static long relayCounter(final CountersFileReader reader, final String name)
    {
        final long[] value = { -1 };
        reader.countersReader().forEach((id, typeId, key, label) ->
        {
            if (CounterType.RELAY == typeId && name.equals(CounterKey.name(key)))
            {
                value[0] = reader.countersReader().getCounterValue(id);
            }
        });
        return value[0];
    }

    private NetemRelay startRelay(final String path)
    {
        return startRelay(path, server.getLocalPort());
    }

    private NetemRelay startRelay(final String path, final int serverPort)
    {
        return startRelay(relayContext(path, serverPort));
    }

    private static NetemRelay startRelay(final NetemRelay.Context context)
    {
        return new NetemRelay(context).start();
    }

    private NetemRelay.Context relayContext(final String path)
    {
        return relayContext(path, server.getLocalPort());
    }

    private NetemRelay.Context relayContext(final String path, final int serverPort)
    {
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        return new NetemRelay.Context()
            .listenAddress(new InetSocketAddress(loopback, 0))
            .forwardAddress(new InetSocketAddress(loopback, serverPort))
            .path(PathSpec.Pair.parse(path))
            .seed(11)
            .reportIntervalNs(100 * MS)
            .reporter(RelayReporter.printingTo(new PrintStream(printed, true, StandardCharsets.UTF_8)));
    }

    private static int receiveUntilQuiet(final DatagramSocket socket) throws IOException
    {
        final DatagramPacket received = new DatagramPacket(new byte[2048], 2048);
        socket.setSoTimeout(500);
        int count = 0;
        try
        {
            while (true)
            {
                socket.receive(received);
                count++;
            }
        }
        catch (final SocketTimeoutException quiet)
        {
            return count;
        }
    }

    private static DatagramSocket socket() throws IOException
    {
        final DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        socket.setSoTimeout(RECEIVE_TIMEOUT_MS);
        socket.setReceiveBufferSize(4 * 1024 * 1024);
        return socket;
    }
}
