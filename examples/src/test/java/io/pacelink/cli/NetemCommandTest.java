package io.pacelink.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NetemCommandTest
{
    private static final long ONE_WAY_DELAY_NS = TimeUnit.MILLISECONDS.toNanos(5);

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void relaysBetweenAClientAndAServerWithTheDelayOfEachDirection() throws Exception
    {
        try (DatagramChannel server = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            DatagramChannel client = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0)))
        {
            server.configureBlocking(false);
            client.configureBlocking(false);
            final int listenPort = freePort();
            final int serverPort = ((InetSocketAddress)server.getLocalAddress()).getPort();
            final CompletableFuture<CommandRun> relay = CompletableFuture.supplyAsync(() -> CommandRun.of(
                "netem", "--listen", Integer.toString(listenPort), "--forward", "127.0.0.1:" + serverPort,
                "--path", "delay=5ms", "--duration", "3s"));

            final InetSocketAddress relayAddress = new InetSocketAddress("127.0.0.1", listenPort);
            final ByteBuffer buffer = ByteBuffer.allocate(64);
            long echoRttNs = -1;
            // Until the relay has started (in this JVM: parsing and binding take a moment), datagrams go nowhere.
            final long giveUpNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2500);
            // Each probe carries its number and only its own echo counts: a probe sent before the relay read its
            // socket is forwarded late, and its echo must not be taken for the next probe's.
            byte probe = 0;
            while (echoRttNs < 0 && System.nanoTime() < giveUpNs)
            {
                probe++;
                final long sentNs = System.nanoTime();
                client.send(ByteBuffer.wrap(new byte[] { probe }), relayAddress);
                final long replyByNs = sentNs + TimeUnit.MILLISECONDS.toNanos(100);
                while (System.nanoTime() < replyByNs)
                {
                    echo(server, buffer);
                    buffer.clear();
                    if (null != client.receive(buffer) && buffer.position() == 1 && buffer.get(0) == probe)
                    {
                        echoRttNs = System.nanoTime() - sentNs;
                        break;
                    }
                    Thread.onSpinWait();
                }
            }

            final CommandRun run = relay.get(10, TimeUnit.SECONDS);
            assertEquals(0, run.exitCode(), run.err());
            assertTrue(echoRttNs >= 2 * ONE_WAY_DELAY_NS, "an echo through the relay took " + echoRttNs + " ns");
            assertTrue(run.out().contains("relaying 127.0.0.1:" + listenPort + " -> 127.0.0.1:" + serverPort),
                run.out());
            assertTrue(run.out().contains("reverse: delay=5ms"), "the default reverse direction: " + run.out());
            assertTrue(run.out().contains("netem relay summary after"), run.out());
            assertTrue(run.out().matches("(?s).*forward: [1-9][0-9]* pkt.*"), run.out());
        }
    }

    @Test
    void badAddressesFailFastWithTheExpectedForm()
    {
        final CommandRun noHost = CommandRun.of("netem", "--listen", "9000", "--forward", "9001",
            "--path", "delay=1ms");
        assertEquals(2, noHost.exitCode());
        assertTrue(noHost.err().contains("--forward '9001' has no host; expected HOST:PORT"), noHost.err());

        final CommandRun badPort = CommandRun.of("netem", "--listen", "70000", "--forward", "127.0.0.1:9001",
            "--path", "delay=1ms");
        assertEquals(2, badPort.exitCode());
        assertTrue(badPort.err().contains("--listen '70000' has no valid port"), badPort.err());

        final CommandRun badPath = CommandRun.of("netem", "--listen", "9000", "--forward", "127.0.0.1:9001",
            "--path", "loss=200%");
        assertEquals(2, badPath.exitCode());
        assertTrue(badPath.err().contains("above 100%"), badPath.err());

        final CommandRun policerWithoutBucket = CommandRun.of("netem", "--listen", "9000", "--forward",
            "127.0.0.1:9001", "--path", "rate=100mbit police=10mbit");
        assertEquals(2, policerWithoutBucket.exitCode());
        assertTrue(policerWithoutBucket.err().contains("police: needs the bucket size too, e.g. police=10mbit " +
            "burst=100kb"), policerWithoutBucket.err());
    }

    @Test
    void aRebindingTimeThatIsNotAPositiveDurationFailsFast()
    {
        final CommandRun zero = CommandRun.of("netem", "--listen", "9000", "--forward", "127.0.0.1:9001",
            "--path", "delay=1ms", "--rebind-after", "0s");
        assertEquals(2, zero.exitCode());
        assertTrue(zero.err().contains("--rebind-after must be positive, e.g. 5s"), zero.err());

        final CommandRun words = CommandRun.of("netem", "--listen", "9000", "--forward", "127.0.0.1:9001",
            "--path", "delay=1ms", "--rebind-after", "soon");
        assertEquals(2, words.exitCode());
        assertTrue(words.err().contains("--rebind-after"), words.err());
    }

    @Test
    void aRealtimePriorityOutsideOneToNinetyNineFailsFast()
    {
        for (final String priority : new String[] {"0", "100", "-1"})
        {
            final CommandRun run = CommandRun.of("netem", "--listen", "9000", "--forward", "127.0.0.1:9001",
                "--path", "delay=1ms", "--rt", priority);
            assertEquals(2, run.exitCode(), run.err());
            assertTrue(run.err().contains("--rt takes a SCHED_FIFO priority, 1-99, got " + priority), run.err());
        }
    }

    @Test
    void aFailedBindSaysWhyNotJustWhere() throws Exception
    {
        // Issue 12 item 5: "cannot open relay sockets on 127.0.0.1:9000" blamed the listen address for any failure.
        try (DatagramChannel taken = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0)))
        {
            final int port = ((InetSocketAddress)taken.getLocalAddress()).getPort();
            final CommandRun inUse = CommandRun.of("netem", "--listen", "127.0.0.1:" + port, "--forward",
                "127.0.0.1:9001", "--path", "delay=1ms");
            assertEquals(1, inUse.exitCode());
            assertTrue(inUse.err().contains("cannot listen on 127.0.0.1:" + port + ": Address already in use"),
                inUse.err());
        }

        final CommandRun elsewhere = CommandRun.of("netem", "--listen", "127.0.0.1:0", "--forward",
            "192.0.2.77:9001", "--path", "delay=1ms");
        assertEquals(1, elsewhere.exitCode());
        assertTrue(elsewhere.err().contains("cannot reach the forward address 192.0.2.77:9001 from 127.0.0.1: "),
            elsewhere.err());
        assertTrue(elsewhere.err().contains("a loopback listen address reaches this host only"), elsewhere.err());
    }

    private static void echo(final DatagramChannel server, final ByteBuffer buffer) throws IOException
    {
        buffer.clear();
        final SocketAddress from = server.receive(buffer);
        if (null != from)
        {
            buffer.flip();
            server.send(buffer, from);
        }
    }

    private static int freePort() throws IOException
    {
        try (DatagramChannel probe = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0)))
        {
            return ((InetSocketAddress)probe.getLocalAddress()).getPort();
        }
    }
}
