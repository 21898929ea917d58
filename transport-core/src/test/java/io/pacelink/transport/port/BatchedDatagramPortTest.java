package io.pacelink.transport.port;

import io.pacelink.transport.testing.AllocationMeter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The batched port on real loopback sockets: what goes in one {@code sendmmsg} comes out of {@code recvmmsg} byte for
 * byte, GSO runs arrive as separate datagrams (split from GRO super-datagrams), ECN codepoints travel both ways,
 * hostile and oversized input is dropped and counted, and waits end on arrival and on a wake-up. Functional only:
 * nothing is timed beyond generous deadlines for datagrams to arrive.
 */
class BatchedDatagramPortTest
{
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    /**
     * How far the kernel's receive stamp (the wall clock) and the test's monotonic clock may drift apart over a test:
     * NTP slews the wall clock by at most 500 ppm (adjtimex(2)), 5 ms over {@link #TIMEOUT_NS}.
     */
    private static final long CLOCK_SLACK_NS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final int SIZE = 1472;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    static void requireBatchedPort()
    {
        LoopbackPorts.requireBatchedPort();
    }

    @AfterEach
    void closeAll() throws Exception
    {
        for (final AutoCloseable closeable : opened)
        {
            closeable.close();
        }
    }

    @Test
    void theProbeFindsEverythingThisKernelHas()
    {
        final BatchedPortSupport support = BatchedDatagramPort.support();
        assertTrue(support.isAvailable(), support.toString());
        assertTrue(support.hasGso(), support.toString());
        assertTrue(support.hasGro(), support.toString());
        assertEquals("", support.reason());
    }

    /**
     * A request past {@code net.core.rmem_max} / {@code wmem_max}: a privileged process (root, as these tests run in
     * CI and on the development machines) gets all of it through SO_RCVBUFFORCE / SO_SNDBUFFORCE; any other keeps what
     * the kernel granted, and the port opens either way.
     */
    @Test
    void aPrivilegedPortGetsTheWholeSocketBufferPastTheKernelsCap() throws IOException
    {
        final long capBytes = Math.max(sysctl("/proc/sys/net/core/rmem_max"), sysctl("/proc/sys/net/core/wmem_max"));
        final int requestBytes = (int)Math.min(2 * capBytes + (1 << 20), 256 << 20);
        assumeTrue(requestBytes > capBytes, "the kernel's cap is already at the largest request");
        final BatchedDatagramPort port = BatchedDatagramPort.open(LOOPBACK, requestBytes, true);
        opened.add(port);
        if ("root".equals(System.getProperty("user.name")))
        {
            // The kernel doubles a request for its bookkeeping (socket(7)).
            assertEquals(2L * requestBytes, port.receiveSocketBufferBytes());
            assertEquals(2L * requestBytes, port.sendSocketBufferBytes());
        }
        else
        {
            assertTrue(port.receiveSocketBufferBytes() > 0 && port.receiveSocketBufferBytes() <= 2 * capBytes,
                "" + port.receiveSocketBufferBytes());
        }
    }

    @Test
    void aGsoRunArrivesAsSeparateDatagramsByteForByte()
    {
        final BatchedDatagramPort sender = open(LOOPBACK, true);
        final BatchedDatagramPort receiver = open(LOOPBACK, true);
        final SendBatch batch = new SendBatch(64, 64 * SIZE);
        // 40 full-size datagrams, then a short one that ends the run, then 3 to another size: two GSO messages.
        for (int i = 0; i < 40; i++)
        {
            write(batch, i, SIZE, receiver.localAddress(), 0);
        }
        write(batch, 40, 100, receiver.localAddress(), 0);
        for (int i = 41; i < 44; i++)
        {
            write(batch, i, 600, receiver.localAddress(), 0);
        }
        assertEquals(44, sender.send(batch));
        assertEquals(1, sender.stats().sendCalls(), "one sendmmsg");
        assertEquals(2, sender.stats().gsoSends());

        final List<byte[]> received = receive(receiver, 44);
        assertEquals(44, received.size());
        for (int i = 0; i < 44; i++)
        {
            assertArrayEquals(expected(i, i < 40 ? SIZE : 40 == i ? 100 : 600), received.get(i), "datagram " + i);
        }
        assertTrue(receiver.stats().groSuperDatagrams() >= 1, "loopback hands a GSO send to a GRO socket whole");
        assertEquals(44, receiver.stats().datagramsReceived());
    }

    /**
     * Datagrams whose payload lies outside the batch (a send log's direct segment) leave from their parts, GSO on
     * and off, and arrive byte for byte as the same datagrams written whole: gathered and whole ones mixed in one
     * GSO run, a payload at a datagram's start and at its end, an empty part, a short gathered datagram that ends a
     * run, and a payload that starts where the previous one ended (two vectors that must not merge across a
     * datagram's own bytes).
     */
    @Test
    void gatheredDatagramsArriveAsTheSameDatagramsWrittenWholeGsoOnAndOff()
    {
        for (final boolean gso : new boolean[]{true, false})
        {
            final BatchedDatagramPort sender = open(LOOPBACK, gso);
            final BatchedDatagramPort receiver = open(LOOPBACK, true);
            // The endpoint gathers only with GSO off (sendsGathered); the port sends a gathered batch either way.
            assertEquals(!gso, sender.sendsGathered());
            final UnsafeBuffer log = new UnsafeBuffer(ByteBuffer.allocateDirect(64 * SIZE));
            final SendBatch batch = new SendBatch(64, 64 * SIZE);
            final int count = 44;
            int logIndex = 0;
            for (int i = 0; i < count; i++)
            {
                final int length = 40 == i ? 100 : i > 40 ? 600 : SIZE;
                // Every third datagram whole; the others with their payload at the start (i % 3 == 1 and i a
                // multiple of 4), at the end (i % 3 == 2), or between a header and a trailer.
                if (0 == i % 3)
                {
                    write(batch, i, length, receiver.localAddress(), 0);
                    continue;
                }
                final int before = 0 == i % 4 ? 0 : 30 + i;
                final int after = 2 == i % 3 ? 0 : 4;
                logIndex = writeGathered(batch, log, logIndex, i, length, before, after, receiver.localAddress());
            }
            assertEquals(count, sender.send(batch), "gso " + gso);
            assertEquals(1, sender.stats().sendCalls(), "gso " + gso + ": one sendmmsg");
            assertEquals(gso ? 2 : 0, sender.stats().gsoSends(), "gso " + gso);

            final List<byte[]> received = receive(receiver, count);
            assertEquals(count, received.size(), "gso " + gso);
            for (int i = 0; i < count; i++)
            {
                assertArrayEquals(expected(i, 40 == i ? 100 : i > 40 ? 600 : SIZE), received.get(i),
                    "gso " + gso + ", datagram " + i);
            }
        }
    }

    @Test
    void sendingGatheredBatchesAllocatesNothingOnceWarm()
    {
        final BatchedDatagramPort sender = open(LOOPBACK, false);
        final BatchedDatagramPort receiver = open(LOOPBACK, true);
        final UnsafeBuffer log = new UnsafeBuffer(ByteBuffer.allocateDirect(64 * SIZE));
        final SendBatch batch = new SendBatch(64, 64 * SIZE);
        final InetSocketAddress destination = receiver.localAddress();
        assertExchangesAllocateNothing("batched gathered send", sender, receiver, batch,
            i -> batch.commitGathered(34, 30, log, i * SIZE, SIZE - 34, destination, 0));
    }

    /**
     * The port keeps its {@code recvmmsg} headers from one receive to the next, and the kernel shortens a header's
     * control length to what a datagram used: a plain datagram (TOS and receive time) leaves room for fewer control
     * messages than a GRO super-datagram needs (its segment size too). Each receive must start from whole headers,
     * or the super-datagram after a plain one loses its segment size and arrives as one oversized datagram. And the
     * headers follow the batch the caller hands in: two batches taking turns each get their own datagrams.
     */
    @Test
    void keptReceiveHeadersStartWholeEveryTimeAndFollowTheBatch()
    {
        final BatchedDatagramPort sender = open(LOOPBACK, true);
        final BatchedDatagramPort receiver = open(LOOPBACK, true);
        final ReceiveBatch first = receiver.newReceiveBatch(64);
        final ReceiveBatch second = receiver.newReceiveBatch(64);
        final SendBatch batch = new SendBatch(64, 64 * SIZE);
        int index = 0;
        for (int round = 0; round < 6; round++)
        {
            final ReceiveBatch into = 0 == (round & 1) ? first : second;
            final int ecn = round % 3;
            batch.clear();
            write(batch, index, 90, receiver.localAddress(), ecn);
            assertEquals(1, sender.send(batch));
            awaitOne(receiver, into);
            assertArrayEquals(expected(index, 90), copy(into, 0), "round " + round + ": the plain datagram");
            assertEquals(ecn, into.ecnCodepoint(0));
            assertEquals(sender.localAddress(), into.source(0));
            index++;

            batch.clear();
            final int runStart = index;
            for (int i = 0; i < 12; i++)
            {
                write(batch, index++, SIZE, receiver.localAddress(), ecn);
            }
            assertEquals(12, sender.send(batch));
            final long superBefore = receiver.stats().groSuperDatagrams();
            final List<byte[]> run = receive(receiver, into, 12);
            assertEquals(12, run.size(), "round " + round + ": a GSO run after a plain datagram, split again");
            for (int i = 0; i < 12; i++)
            {
                assertArrayEquals(expected(runStart + i, SIZE), run.get(i), "round " + round + ", datagram " + i);
            }
            assertTrue(receiver.stats().groSuperDatagrams() > superBefore, "round " + round);
            for (int i = 0; i < into.size(); i++)
            {
                assertEquals(ecn, into.ecnCodepoint(i));
            }
        }
        assertEquals(0, receiver.stats().truncatedDropped());
        assertEquals(0, receiver.stats().receiveErrors());
    }

    @Test
    void withGsoOffEveryDatagramIsItsOwnMessageInOneCall()
    {
        final BatchedDatagramPort sender = open(LOOPBACK, false);
        final BatchedDatagramPort receiver = open(LOOPBACK, true);
        final SendBatch batch = new SendBatch(64, 64 * SIZE);
        for (int i = 0; i < 20; i++)
        {
            write(batch, i, SIZE, receiver.localAddress(), 0);
        }
        assertEquals(20, sender.send(batch));
        assertEquals(1, sender.stats().sendCalls());
        assertEquals(0, sender.stats().gsoSends());
        assertFalse(sender.isGsoEnabled());
        assertTrue(sender.describe().contains("GSO off"), sender.describe());

        final List<byte[]> received = receive(receiver, 20);
        for (int i = 0; i < 20; i++)
        {
            assertArrayEquals(expected(i, SIZE), received.get(i));
        }
        assertEquals(0, receiver.stats().groSuperDatagrams());
    }

    /**
     * A receive right after one that found the socket empty, with no wait in between (a busy-spinning loop), asks
     * the kernel for one message while the last burst between two empty receives was one message; the receive after
     * it asks for all again. A burst of more turns the rule off until a burst of one; a receive after a wait always
     * asks for all. Loopback delivers a datagram into the receiving socket before the send returns (the send's
     * softirq), so the counts do not depend on timing.
     */
    @Test
    void aReceiveRightAfterAnEmptyOneAsksForOneMessageWhileTheTrafficIsLoneArrivals()
    {
        final BatchedDatagramPort sender = open(LOOPBACK, false);
        final BatchedDatagramPort receiver = open(LOOPBACK, true);
        final ReceiveBatch batch = receiver.newReceiveBatch(64);
        final PortStats stats = receiver.stats();
        int index = 0;
        assertEquals(0, receiver.receive(batch, 64), "nothing sent yet");
        for (int round = 0; round < 3; round++)
        {
            // Lone arrivals: each read alone, then an empty receive.
            for (int lone = 0; lone < 3; lone++)
            {
                index = sendRun(sender, receiver, index, 1);
                assertEquals(1, receiver.receive(batch, 64));
                assertArrayEquals(expected(index - 1, SIZE), copy(batch, 0));
                assertEquals(0, receiver.receive(batch, 64));
            }
            // After a burst of one, a burst of five: one datagram, then the rest at once.
            final long callsBefore = stats.receiveCalls();
            index = sendRun(sender, receiver, index, 5);
            assertEquals(1, receiver.receive(batch, 64), "one datagram after an empty receive");
            assertArrayEquals(expected(index - 5, SIZE), copy(batch, 0));
            assertEquals(4, receiver.receive(batch, 64), "the rest at once");
            for (int i = 0; i < 4; i++)
            {
                assertArrayEquals(expected(index - 4 + i, SIZE), copy(batch, i));
            }
            assertEquals(0, receiver.receive(batch, 64));
            assertEquals(callsBefore + 3, stats.receiveCalls());

            // After a burst of five, the next burst is read whole.
            index = sendRun(sender, receiver, index, 5);
            assertEquals(5, receiver.receive(batch, 64), "all five after a burst");
            assertLastSent(batch, index, 5);
            assertEquals(0, receiver.receive(batch, 64));

            // A lone arrival turns the rule on again, but a receive after a wait asks for all.
            index = sendRun(sender, receiver, index, 1);
            assertEquals(1, receiver.receive(batch, 64));
            assertEquals(0, receiver.receive(batch, 64));
            index = sendRun(sender, receiver, index, 5);
            assertTrue(0 != (receiver.awaitReadable(TIMEOUT_NS) & DatagramPort.READABLE));
            assertEquals(5, receiver.receive(batch, 64), "all five after the wait");
            assertLastSent(batch, index, 5);
            // That burst of five (counted from the lone one's empty receive) turns the rule off.
            assertEquals(0, receiver.receive(batch, 64));
            index = sendRun(sender, receiver, index, 1);
            assertEquals(1, receiver.receive(batch, 64));
            assertEquals(0, receiver.receive(batch, 64));
        }
        assertEquals(index, stats.datagramsReceived());
        assertEquals(0, stats.truncatedDropped());
        assertEquals(0, stats.receiveErrors());
    }

    /**
     * Hostile input on a receive that asks for one message: a GRO super-datagram of garbage is still the one message
     * and split into all its segments; a datagram longer than the slot (cut by the kernel) is dropped and counted,
     * never handed on; an empty datagram is handed on as one.
     */
    @Test
    void aReceiveOfOneMessageSplitsAWholeSuperDatagramAndDropsAnOversizedDatagram() throws IOException
    {
        final BatchedDatagramPort receiver = new BatchedDatagramPort(LOOPBACK, 1 << 20, 1 << 20, true, 2048);
        opened.add(receiver);
        final BatchedDatagramPort attacker = open(LOOPBACK, true);
        final ReceiveBatch batch = receiver.newReceiveBatch(64);
        final PortStats stats = receiver.stats();

        assertEquals(0, receiver.receive(batch, 64));
        final SendBatch garbage = new SendBatch(64, 64 * 8);
        for (int i = 0; i < 40; i++)
        {
            garbage.buffer().putByte(garbage.nextOffset(), (byte)(0xA0 + i));
            garbage.commit(1, receiver.localAddress(), 2);
        }
        assertEquals(40, attacker.send(garbage));
        assertEquals(1, attacker.stats().sendCalls());
        final long callsBefore = stats.receiveCalls();
        final List<Integer> ones = new ArrayList<>();
        while (ones.size() < 40 && stats.receiveCalls() - callsBefore < 8)
        {
            receiver.receive(batch, 64);
            for (int i = 0; i < batch.size(); i++)
            {
                assertEquals(1, batch.length(i));
                assertEquals(2, batch.ecnCodepoint(i));
                ones.add(batch.buffer().getByte(batch.offset(i)) & 0xff);
            }
        }
        final List<Integer> expectedOnes = new ArrayList<>();
        for (int i = 0; i < 40; i++)
        {
            expectedOnes.add(0xA0 + i);
        }
        assertEquals(expectedOnes, ones);
        assertEquals(1, stats.groSuperDatagrams(), "one GSO message, one GRO super-datagram");
        assertEquals(1, stats.receiveCalls() - callsBefore, "the one message is the whole super-datagram");
        assertEquals(0, receiver.receive(batch, 64));

        try (DatagramChannel raw = DatagramChannel.open(StandardProtocolFamily.INET))
        {
            raw.send(ByteBuffer.allocate(3000), receiver.localAddress());
            raw.send(ByteBuffer.allocate(0), receiver.localAddress());
            assertEquals(0, receiver.receive(batch, 64), "the cut datagram alone, dropped");
            assertEquals(1, stats.truncatedDropped());
            assertEquals(1, receiver.receive(batch, 64), "then the empty one");
            assertEquals(0, batch.length(0));
        }
        assertEquals(1, stats.truncatedDropped());
        assertEquals(0, stats.receiveErrors());
    }

    private static int sendRun(
        final BatchedDatagramPort sender, final BatchedDatagramPort receiver, final int first, final int count)
    {
        final SendBatch batch = new SendBatch(64, 64 * SIZE);
        for (int i = 0; i < count; i++)
        {
            write(batch, first + i, SIZE, receiver.localAddress(), 0);
        }
        assertEquals(count, sender.send(batch));
        return first + count;
    }

    @Test
    void theBatchedAndTheNioPortCarryTheSameTrafficAlike() throws IOException
    {
        final BatchedDatagramPort batchedReceiver = open(LOOPBACK, true);
        final NioDatagramPort nioReceiver = NioDatagramPort.open(LOOPBACK, 4 << 20);
        opened.add(nioReceiver);
        final BatchedDatagramPort batchedSender = open(LOOPBACK, true);
        final NioDatagramPort nioSender = NioDatagramPort.open(LOOPBACK, 4 << 20);
        opened.add(nioSender);

        // The same batch through each sender: mixed sizes, to both receivers alternately.
        final SendBatch batch = new SendBatch(64, 64 * SIZE);
        for (int i = 0; i < 48; i++)
        {
            final int length = i % 7 == 0 ? 1 + i * 13 : SIZE;
            write(batch, i, length, 0 == (i & 1) ? batchedReceiver.localAddress() : nioReceiver.localAddress(), 0);
        }
        assertEquals(48, batchedSender.send(batch));
        final List<byte[]> viaBatchedToBatched = receive(batchedReceiver, 24);
        final List<byte[]> viaBatchedToNio = receiveNio(nioReceiver, 24);
        assertEquals(48, nioSender.send(batch));
        final List<byte[]> viaNioToBatched = receive(batchedReceiver, 24);
        final List<byte[]> viaNioToNio = receiveNio(nioReceiver, 24);

        for (int i = 0; i < 24; i++)
        {
            assertArrayEquals(viaNioToBatched.get(i), viaBatchedToBatched.get(i), "to the batched port, " + i);
            assertArrayEquals(viaNioToNio.get(i), viaBatchedToNio.get(i), "to the NIO port, " + i);
            assertArrayEquals(expected(2 * i, viaBatchedToBatched.get(i).length), viaBatchedToBatched.get(i));
            assertArrayEquals(expected(2 * i + 1, viaBatchedToNio.get(i).length), viaBatchedToNio.get(i));
        }
        assertEquals(48, batchedSender.stats().datagramsSent());
    }

    @Test
    void ecnCodepointsAreSetPerDatagramAndReadBackOverIpv4()
    {
        ecnRoundTrip(LOOPBACK);
    }

    @Test
    void ecnCodepointsAreSetPerDatagramAndReadBackOverIpv6() throws IOException
    {
        assumeTrue(hasIpv6Loopback(), "no IPv6 loopback here");
        ecnRoundTrip(new InetSocketAddress("::1", 0));
    }

    private void ecnRoundTrip(final InetSocketAddress bind)
    {
        final BatchedDatagramPort sender = open(bind, true);
        final BatchedDatagramPort receiver = open(bind, true);
        assertTrue(receiver.carriesEcn());
        sendAndReceiveCodepoints(sender, receiver, new int[]{ 0, 1, 2, 3, 2, 2, 2, 3, 0 }, 0);
        assertEquals(0, sender.stats().tosChanges(), "an open port keeps its socket's TOS at 0");
    }

    @Test
    void aRestrictedPortSendsOnTheConnectedPathWithEveryCodepointRightOverIpv4()
    {
        restrictedEcnRoundTrip(LOOPBACK);
    }

    @Test
    void aRestrictedPortSendsOnTheConnectedPathWithEveryCodepointRightOverIpv6() throws IOException
    {
        assumeTrue(hasIpv6Loopback(), "no IPv6 loopback here");
        restrictedEcnRoundTrip(new InetSocketAddress("::1", 0));
    }

    /**
     * A restricted port names no destination and makes the codepoint of each batch's first datagram its socket's own
     * TOS: every datagram must still arrive with its own codepoint, whichever the socket's is, before, while and
     * after it is restricted.
     */
    private void restrictedEcnRoundTrip(final InetSocketAddress bind)
    {
        final BatchedDatagramPort sender = open(bind, true);
        final BatchedDatagramPort receiver = open(bind, true);
        assertTrue(sender.restrictTo(receiver.localAddress()));

        sendAndReceiveCodepoints(sender, receiver, new int[]{ 2, 2, 0, 1, 3, 2, 2 }, 0);
        assertEquals(1, sender.stats().tosChanges(), "ECT(0) became the socket's own");
        sendAndReceiveCodepoints(sender, receiver, new int[]{ 2, 3, 2 }, 10);
        assertEquals(1, sender.stats().tosChanges(), "set only when it changes");
        sendAndReceiveCodepoints(sender, receiver, new int[]{ 0, 2, 0, 1 }, 20);
        assertEquals(2, sender.stats().tosChanges(), "a batch that starts not-ECT turns it back");
        sendAndReceiveCodepoints(sender, receiver, new int[]{ 2, 0 }, 30);
        assertEquals(3, sender.stats().tosChanges());

        // Nothing leaves a restricted port for another address; the rest of the batch does.
        final SendBatch batch = new SendBatch(4, 4 * 200);
        write(batch, 40, 200, receiver.localAddress(), 2);
        write(batch, 41, 200, new InetSocketAddress(receiver.localAddress().getAddress(), 9), 2);
        write(batch, 42, 200, receiver.localAddress(), 2);
        final long errorsBefore = sender.stats().sendErrors();
        assertEquals(2, sender.send(batch));
        assertEquals(errorsBefore + 1, sender.stats().sendErrors());
        final List<byte[]> arrived = receive(receiver, 2);
        assertEquals(2, arrived.size());
        assertArrayEquals(expected(40, 200), arrived.get(0));
        assertArrayEquals(expected(42, 200), arrived.get(1));

        // Open again, with ECT(0) left as the socket's TOS: each datagram names its destination, a not-ECT one
        // carries its own TOS, and the socket's follows only eight batches in a row that start alike.
        assertTrue(sender.restrictTo(null));
        sendAndReceiveCodepoints(sender, receiver, new int[]{ 0, 2, 3, 0 }, 50);
        assertEquals(3, sender.stats().tosChanges());
    }

    /**
     * Send datagrams {@code firstIndex}, {@code firstIndex + 1}, ... with these codepoints in one batch and check each
     * arrives, in order, with its own.
     */
    private static void sendAndReceiveCodepoints(
        final BatchedDatagramPort sender, final BatchedDatagramPort receiver, final int[] codepoints,
        final int firstIndex)
    {
        final SendBatch batch = new SendBatch(16, 16 * 200);
        for (int i = 0; i < codepoints.length; i++)
        {
            write(batch, firstIndex + i, 200, receiver.localAddress(), codepoints[i]);
        }
        assertEquals(codepoints.length, sender.send(batch));
        // Runs of one codepoint may leave as one GSO message; a change of codepoint starts a new one.
        final ReceiveBatch received = receiver.newReceiveBatch(16);
        final int[] arrived = new int[codepoints.length];
        int count = 0;
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (count < codepoints.length && System.nanoTime() - deadlineNs < 0)
        {
            receiver.awaitReadable(TimeUnit.MILLISECONDS.toNanos(100));
            receiver.receive(received, 16);
            for (int i = 0; i < received.size(); i++)
            {
                assertEquals(firstIndex + count, received.buffer().getInt(received.offset(i)), "in order");
                assertEquals(sender.localAddress(), received.source(i));
                arrived[count++] = received.ecnCodepoint(i);
            }
        }
        assertArrayEquals(codepoints, arrived);
    }

    @Test
    void anOpenPortAdoptsACodepointAfterEightBatchesInARowAndEveryDatagramKeepsItsOwnOverIpv4()
    {
        openPortAdoption(LOOPBACK);
    }

    @Test
    void anOpenPortAdoptsACodepointAfterEightBatchesInARowAndEveryDatagramKeepsItsOwnOverIpv6() throws IOException
    {
        assumeTrue(hasIpv6Loopback(), "no IPv6 loopback here");
        openPortAdoption(new InetSocketAddress("::1", 0));
    }

    /**
     * An open port (a server's) makes a codepoint its socket's own TOS once eight batches in a row started with it, so
     * its lone ECT(0) answers need no control message; a datagram with another codepoint still carries its own, and
     * codepoints that alternate never change the socket's TOS more than once per eight batches.
     */
    private void openPortAdoption(final InetSocketAddress bind)
    {
        final BatchedDatagramPort sender = open(bind, true);
        final BatchedDatagramPort receiver = open(bind, true);
        final int adoption = BatchedDatagramPort.OPEN_PORT_ADOPTION_BATCHES;
        for (int i = 0; i < adoption - 1; i++)
        {
            sendAndReceiveCodepoints(sender, receiver, new int[]{ 2 }, i);
        }
        assertEquals(0, sender.stats().tosChanges(), "seven batches that start with ECT(0): not yet");
        sendAndReceiveCodepoints(sender, receiver, new int[]{ 2 }, adoption);
        assertEquals(1, sender.stats().tosChanges(), "the eighth: ECT(0) became the socket's own");

        // Not-ECT, ECT(1) and CE datagrams after it still arrive with their own, alone or among others.
        sendAndReceiveCodepoints(sender, receiver, new int[]{ 0 }, 20);
        sendAndReceiveCodepoints(sender, receiver, new int[]{ 2, 0, 1, 3, 2 }, 21);
        sendAndReceiveCodepoints(sender, receiver, new int[]{ 2 }, 30);
        for (int i = 0; i < 3 * adoption; i++)
        {
            sendAndReceiveCodepoints(sender, receiver, new int[]{ i % 2 == 0 ? 0 : 2 }, 40 + i);
        }
        assertEquals(1, sender.stats().tosChanges(), "alternating codepoints never change it");

        for (int i = 0; i < adoption; i++)
        {
            sendAndReceiveCodepoints(sender, receiver, new int[]{ 0, 2 }, 100 + 2 * i);
        }
        assertEquals(2, sender.stats().tosChanges(), "eight batches that start not-ECT turn it back");
        sendAndReceiveCodepoints(sender, receiver, new int[]{ 2, 2, 3, 0 }, 200);
        assertEquals(2, sender.stats().tosChanges());
    }

    @Test
    void aLoneDatagramArrivesByteForByteWithItsCodepointFromAnOpenOrARestrictedPortOverIpv4()
    {
        loneDatagrams(LOOPBACK);
    }

    @Test
    void aLoneDatagramArrivesByteForByteWithItsCodepointFromAnOpenOrARestrictedPortOverIpv6() throws IOException
    {
        assumeTrue(hasIpv6Loopback(), "no IPv6 loopback here");
        loneDatagrams(new InetSocketAddress("::1", 0));
    }

    /**
     * A batch of one datagram that needs no control message (no GSO, the socket's own TOS) leaves through the shim's
     * single-datagram send (sendto), one with a codepoint of its own through sendmmsg with its control message: each
     * must arrive whole, from the same port, with its codepoint, whether the port names the destination or is
     * restricted to it; a datagram too long for UDP is refused and counted, and the next one still leaves.
     */
    private void loneDatagrams(final InetSocketAddress bind)
    {
        final BatchedDatagramPort sender = open(bind, true);
        final BatchedDatagramPort receiver = open(bind, true);
        final ReceiveBatch received = receiver.newReceiveBatch(4);
        final int[] codepoints = { 0, 2, 0, 3 };
        for (int round = 0; round < 2; round++)
        {
            for (int i = 0; i < codepoints.length; i++)
            {
                final int index = round * 10 + i;
                final int length = 1 + index * 37;
                final SendBatch batch = new SendBatch(1, 2048);
                write(batch, index, length, receiver.localAddress(), codepoints[i]);
                assertEquals(1, sender.send(batch), "datagram " + index);
                awaitOne(receiver, received);
                assertArrayEquals(expected(index, length), copy(received, 0), "datagram " + index);
                assertEquals(sender.localAddress(), received.source(0));
                assertEquals(codepoints[i], received.ecnCodepoint(0), "datagram " + index);
            }
            assertTrue(sender.restrictTo(receiver.localAddress()));
        }
        assertEquals(8, receiver.stats().datagramsReceived());

        final SendBatch tooLong = new SendBatch(1, 65_600);
        tooLong.buffer().setMemory(0, 65_536, (byte)1);
        tooLong.commit(65_536, receiver.localAddress(), 0);
        final long errorsBefore = sender.stats().sendErrors();
        assertEquals(0, sender.send(tooLong), "longer than any UDP datagram");
        assertEquals(errorsBefore + 1, sender.stats().sendErrors());
        final SendBatch next = new SendBatch(1, 2048);
        write(next, 30, 100, receiver.localAddress(), 0);
        assertEquals(1, sender.send(next));
        awaitOne(receiver, received);
        assertArrayEquals(expected(30, 100), copy(received, 0));
    }

    @Test
    void ipv6PortsExchangeWithEachOtherAndWithIpv4MappedPeers() throws IOException
    {
        assumeTrue(hasIpv6Loopback(), "no IPv6 loopback here");
        final BatchedDatagramPort six = open(new InetSocketAddress("::1", 0), true);
        final BatchedDatagramPort otherSix = open(new InetSocketAddress("::", 0), true);
        final SendBatch batch = new SendBatch(4, 4 * SIZE);
        write(batch, 7, 300, new InetSocketAddress("::1", otherSix.localAddress().getPort()), 0);
        assertEquals(1, six.send(batch));
        final ReceiveBatch received = otherSix.newReceiveBatch(4);
        awaitOne(otherSix, received);
        assertArrayEquals(expected(7, 300), copy(received, 0));
        assertEquals(six.localAddress(), received.source(0));
        assertTrue(received.source(0).getAddress() instanceof Inet6Address);

        // A dual-stack socket hears an IPv4 peer and reports it as the IPv4 address it is.
        final BatchedDatagramPort four = open(LOOPBACK, true);
        batch.clear();
        write(batch, 8, 50, new InetSocketAddress("127.0.0.1", otherSix.localAddress().getPort()), 2);
        assertEquals(1, four.send(batch));
        awaitOne(otherSix, received);
        assertEquals(four.localAddress(), received.source(0));
        assertEquals(2, received.ecnCodepoint(0), "IP_TOS of an IPv4 datagram on a dual-stack socket");
        batch.clear();
        write(batch, 9, 60, received.source(0), 1);
        assertEquals(1, otherSix.send(batch), "and answers it through an IPv4-mapped address");
        final ReceiveBatch back = four.newReceiveBatch(4);
        awaitOne(four, back);
        assertArrayEquals(expected(9, 60), copy(back, 0));
        assertEquals(1, back.ecnCodepoint(0));
    }

    /**
     * Each datagram comes with the kernel's receive time as its age when the receive returned, so the endpoint can
     * time an ACK by its arrival rather than by the agent's read. Datagrams the kernel queued in order are older the
     * earlier they came, and the port counts what it read.
     */
    @Test
    void eachDatagramArrivesWithItsKernelReceiveTimeOldestFirst()
    {
        final BatchedDatagramPort sender = open(LOOPBACK, false);
        final BatchedDatagramPort receiver = open(LOOPBACK, true);
        assertTrue(receiver.isReceiveTimestampEnabled());
        final SendBatch batch = new SendBatch(1, SIZE);
        final long sendsStartNs = System.nanoTime();
        for (int i = 0; i < 5; i++)
        {
            // One call each: five separate arrivals, none coalesced.
            batch.clear();
            write(batch, i, 100, receiver.localAddress(), 0);
            assertEquals(1, sender.send(batch));
        }
        final ReceiveBatch received = receiver.newReceiveBatch(64);
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        final List<Long> ages = new ArrayList<>();
        while (ages.size() < 5 && System.nanoTime() - deadlineNs < 0)
        {
            receiver.awaitReadable(TimeUnit.MILLISECONDS.toNanos(100));
            receiver.receive(received, 64);
            for (int i = 0; i < received.size(); i++)
            {
                assertEquals(ages.size(), received.buffer().getInt(received.offset(i)), "in order");
                ages.add(received.arrivalAgeNs(i));
                final long batchNs = 1_000_000_000_000L;
                assertTrue(received.arrivalTimeNs(i, batchNs) <= batchNs);
            }
        }
        final long sinceSendsNs = System.nanoTime() - sendsStartNs;
        assertEquals(5, ages.size());
        for (int i = 0; i < 5; i++)
        {
            assertTrue(ages.get(i) >= 0 && ages.get(i) <= sinceSendsNs + CLOCK_SLACK_NS,
                "an age, never more than the time since the sends (" + sinceSendsNs + " ns): " + ages);
            assertTrue(i == 0 || ages.get(i) <= ages.get(i - 1), "older the earlier it came: " + ages);
        }
        assertCountsBelievedAges(receiver, ages);
    }

    /**
     * The port counts the datagrams whose age it believes ({@link ReceiveBatch#MAX_ARRIVAL_AGE_NS} at most) and
     * their ages' sum. Which those are is read from the ages: on a loaded machine the test's thread may wait longer
     * than that between a send and its receive, and a datagram that old is rightly not counted.
     */
    private static void assertCountsBelievedAges(final BatchedDatagramPort receiver, final List<Long> ages)
    {
        final long[] believed = ages.stream().mapToLong(Long::longValue)
            .filter((age) -> age >= 0 && age <= ReceiveBatch.MAX_ARRIVAL_AGE_NS).toArray();
        assertEquals(believed.length, receiver.stats().timestampedDatagrams(), "ages " + ages);
        assertEquals(LongStream.of(believed).sum(), receiver.stats().arrivalAgeTotalNs(), "ages " + ages);
    }

    /**
     * A port opened without receive times (a busy-spinning endpoint's) asks the kernel for none: each datagram has no
     * age, arrives at the time of its batch, and none is counted as stamped — while a port beside it, opened with
     * them, still gets them.
     */
    @Test
    void aPortOpenedWithoutReceiveTimesPlacesEachDatagramAtItsBatchsTime()
    {
        final BatchedDatagramPort sender = open(LOOPBACK, false);
        final BatchedDatagramPort untimed = BatchedDatagramPort.open(LOOPBACK, 4 << 20, true, false);
        opened.add(untimed);
        final BatchedDatagramPort timed = BatchedDatagramPort.open(LOOPBACK, 4 << 20, true, true);
        opened.add(timed);
        assertFalse(untimed.isReceiveTimestampEnabled());
        assertTrue(timed.isReceiveTimestampEnabled());
        final SendBatch batch = new SendBatch(1, SIZE);
        for (int i = 0; i < 3; i++)
        {
            for (final BatchedDatagramPort receiver : List.of(untimed, timed))
            {
                batch.clear();
                write(batch, i, 100, receiver.localAddress(), 0);
                assertEquals(1, sender.send(batch));
            }
        }
        final long batchNs = 1_000_000_000_000L;
        final List<Long> untimedAges = new ArrayList<>();
        final List<Long> timedAges = new ArrayList<>();
        // The stamped port first: its datagrams are as old as the wait before they are read.
        for (final BatchedDatagramPort receiver : List.of(timed, untimed))
        {
            final List<Long> ages = untimed == receiver ? untimedAges : timedAges;
            final ReceiveBatch received = receiver.newReceiveBatch(64);
            final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
            while (ages.size() < 3 && System.nanoTime() - deadlineNs < 0)
            {
                receiver.awaitReadable(TimeUnit.MILLISECONDS.toNanos(100));
                receiver.receive(received, 64);
                for (int i = 0; i < received.size(); i++)
                {
                    assertEquals(ages.size(), received.buffer().getInt(received.offset(i)), "in order");
                    ages.add(received.arrivalAgeNs(i));
                    if (untimed == receiver)
                    {
                        assertEquals(batchNs, received.arrivalTimeNs(i, batchNs), "the batch's time");
                    }
                }
            }
        }
        assertEquals(List.of(-1L, -1L, -1L), untimedAges, "no age without the kernel's time");
        assertEquals(0, untimed.stats().timestampedDatagrams());
        assertEquals(0, untimed.stats().arrivalAgeTotalNs());
        assertEquals(3, timedAges.size());
        assertTrue(timedAges.stream().allMatch((age) -> age >= 0), "ages " + timedAges);
        assertCountsBelievedAges(timed, timedAges);
    }

    @Test
    void aBatchThatFillsMidWayKeepsTheRestForTheNextReceive()
    {
        final BatchedDatagramPort sender = open(LOOPBACK, true);
        final BatchedDatagramPort receiver = open(LOOPBACK, true);
        final SendBatch batch = new SendBatch(64, 64 * 64);
        for (int i = 0; i < 64; i++)
        {
            write(batch, i, 64, receiver.localAddress(), 0);
        }
        assertEquals(64, sender.send(batch));
        assertEquals(1, sender.stats().gsoSends(), "one GSO message of 64 segments");

        // Batches of 5: the super-datagram's 64 segments come out 5 at a time, in order, none lost.
        final ReceiveBatch small = receiver.newReceiveBatch(5);
        final List<Integer> order = new ArrayList<>();
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (order.size() < 64 && System.nanoTime() - deadlineNs < 0)
        {
            receiver.awaitReadable(TimeUnit.MILLISECONDS.toNanos(100));
            final int count = receiver.receive(small, 5);
            assertTrue(count <= 5);
            for (int i = 0; i < count; i++)
            {
                assertEquals(64, small.length(i));
                order.add(small.buffer().getInt(small.offset(i)));
            }
        }
        final List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 64; i++)
        {
            expected.add(i);
        }
        assertEquals(expected, order);
        assertEquals(0, receiver.stats().truncatedDropped());
    }

    @Test
    void hostileGroCoalescedGarbageAndOversizedDatagramsAreSplitOrDroppedAndCounted() throws IOException
    {
        // A receiver with small slots: a datagram longer than a slot is truncated by the kernel and must be dropped.
        final BatchedDatagramPort receiver = new BatchedDatagramPort(LOOPBACK, 1 << 20, 1 << 20, true, 2048);
        opened.add(receiver);
        final BatchedDatagramPort attacker = open(LOOPBACK, true);

        // Tiny segments: one 1-byte-segment GSO message becomes 60 datagrams of garbage at the receiver.
        final SendBatch garbage = new SendBatch(64, 64 * 8);
        for (int i = 0; i < 60; i++)
        {
            garbage.buffer().putByte(garbage.nextOffset(), (byte)(0xA0 + i));
            garbage.commit(1, receiver.localAddress(), 3);
        }
        assertEquals(60, attacker.send(garbage));
        // An oversized datagram (3000 > 2048 slot bytes) from a plain socket, and an empty one.
        try (DatagramChannel raw = DatagramChannel.open(StandardProtocolFamily.INET))
        {
            raw.send(ByteBuffer.allocate(3000), receiver.localAddress());
            raw.send(ByteBuffer.allocate(0), receiver.localAddress());
        }

        final ReceiveBatch batch = receiver.newReceiveBatch(16);
        int ones = 0;
        int empties = 0;
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while ((ones < 60 || empties < 1 || receiver.stats().truncatedDropped() < 1) &&
            System.nanoTime() - deadlineNs < 0)
        {
            receiver.awaitReadable(TimeUnit.MILLISECONDS.toNanos(100));
            receiver.receive(batch, 16);
            assertTrue(batch.size() <= 16);
            for (int i = 0; i < batch.size(); i++)
            {
                assertTrue(batch.length(i) <= 2048, "nothing handed on longer than a slot");
                if (1 == batch.length(i))
                {
                    assertEquals((byte)(0xA0 + ones), batch.buffer().getByte(batch.offset(i)));
                    assertEquals(3, batch.ecnCodepoint(i));
                    ones++;
                }
                else
                {
                    assertEquals(0, batch.length(i));
                    empties++;
                }
            }
        }
        assertEquals(60, ones);
        assertEquals(1, empties);
        assertEquals(1, receiver.stats().truncatedDropped());
        assertEquals(61, receiver.stats().datagramsReceived());
    }

    @Test
    void aRestrictedPortHearsThatItsPeerIsUnreachable() throws IOException
    {
        final BatchedDatagramPort client = open(LOOPBACK, true);
        final InetSocketAddress nobody;
        try (DatagramChannel closed = DatagramChannel.open(StandardProtocolFamily.INET))
        {
            closed.bind(LOOPBACK);
            nobody = (InetSocketAddress)closed.getLocalAddress();
        }
        assertTrue(client.restrictTo(nobody));
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        assertTrue(client.send(buffer, 0, 32, nobody));
        assertFalse(client.send(buffer, 0, 32, new InetSocketAddress("127.0.0.1", 9)), "not the restricted peer");

        final ReceiveBatch batch = client.newReceiveBatch(4);
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (null == batch.unreachablePeer() && System.nanoTime() - deadlineNs < 0)
        {
            client.awaitReadable(TimeUnit.MILLISECONDS.toNanos(100));
            client.receive(batch, 4);
        }
        assertEquals(nobody, batch.unreachablePeer());
        assertEquals(1, client.stats().portUnreachable());
        assertTrue(client.restrictTo(null));
    }

    @Test
    void aOneMessageReceiveHearsThatItsPeerIsUnreachableAndReadsNothingElse() throws IOException
    {
        final BatchedDatagramPort client = open(LOOPBACK, true);
        final ReceiveBatch batch = client.newReceiveBatch(4);
        final PortStats stats = client.stats();
        final InetSocketAddress peer;
        try (DatagramChannel server = DatagramChannel.open(StandardProtocolFamily.INET))
        {
            server.bind(LOOPBACK);
            peer = (InetSocketAddress)server.getLocalAddress();
            assertTrue(client.restrictTo(peer));
            server.send(ByteBuffer.allocate(32), client.localAddress());
            // A burst of one datagram, then an empty receive: from here each receive asks for one message, the
            // single-message call (recvmsg), until a receive finds more than one.
            assertEquals(1, readSome(client, batch), "the peer's lone datagram");
            batch.clear();
            assertEquals(0, client.receive(batch, 4));
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        assertTrue(client.send(buffer, 0, 32, peer), "to the closed peer: an ICMP port unreachable comes back");
        final long callsBefore = stats.receiveCalls();
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        // No wait in between: a wait would make the next receive ask for all again.
        while (null == batch.unreachablePeer() && System.nanoTime() - deadlineNs < 0)
        {
            assertEquals(0, client.receive(batch, 4), "nothing but the error can be read");
        }
        assertEquals(peer, batch.unreachablePeer());
        assertEquals(1, stats.portUnreachable());
        assertEquals(0, stats.receiveErrors(), "ECONNREFUSED from the one-message receive is the peer's report");
        assertTrue(stats.receiveCalls() > callsBefore);
        batch.clear();
        assertEquals(0, client.receive(batch, 4), "the error is reported once");
        assertEquals(1, stats.portUnreachable());
        assertEquals(0, stats.receiveErrors());
        assertEquals(1, stats.datagramsReceived());
    }

    private static int readSome(final BatchedDatagramPort port, final ReceiveBatch batch)
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (0 == batch.size() && System.nanoTime() - deadlineNs < 0)
        {
            port.receive(batch, batch.maxDatagrams());
        }
        return batch.size();
    }

    @Test
    void aWaitEndsOnArrivalOnAWakeUpAndOnItsTimeoutAndCountsWhich() throws Exception
    {
        final BatchedDatagramPort port = open(LOOPBACK, true);
        assertTrue(port.canWait());
        assertEquals(0, port.awaitReadable(TimeUnit.MILLISECONDS.toNanos(1)), "nothing came: a timeout");

        port.wakeup();
        assertEquals(DatagramPort.WOKEN, port.awaitReadable(TIMEOUT_NS), "a wake-up before the wait ends it");

        // Whether the other thread acts before or during the wait, the wait ends for it: no timing involved.
        final Thread waker = new Thread(port::wakeup);
        waker.start();
        assertEquals(DatagramPort.WOKEN, port.awaitReadable(TIMEOUT_NS), "a wake-up from another thread");
        waker.join();

        final BatchedDatagramPort sender = open(LOOPBACK, true);
        final Thread arrival = new Thread(() ->
            sender.send(new UnsafeBuffer(ByteBuffer.allocateDirect(8)), 0, 8, port.localAddress()));
        arrival.start();
        assertEquals(DatagramPort.READABLE, port.awaitReadable(TIMEOUT_NS), "a datagram");
        arrival.join();
        assertEquals(DatagramPort.READABLE, port.awaitReadable(TIMEOUT_NS), "still unread: readable at once");

        final PortStats stats = port.stats();
        assertEquals(5, stats.waits());
        assertEquals(2, stats.wokenByDatagram());
        assertEquals(2, stats.wokenByCommand());
        assertEquals(1, stats.waitTimeouts());
    }

    @Test
    void theSourceOfAKnownPeerIsTheSameInstanceEveryTime()
    {
        final BatchedDatagramPort sender = open(LOOPBACK, true);
        final BatchedDatagramPort receiver = open(LOOPBACK, true);
        final ReceiveBatch batch = receiver.newReceiveBatch(4);
        InetSocketAddress first = null;
        for (int i = 0; i < 3; i++)
        {
            final SendBatch one = new SendBatch(1, 64);
            write(one, i, 16, receiver.localAddress(), 0);
            assertEquals(1, sender.send(one));
            awaitOne(receiver, batch);
            if (null == first)
            {
                first = batch.source(0);
            }
            assertSame(first, batch.source(0));
        }
        assertEquals(sender.localAddress(), first);
    }

    @Test
    void sendingAndReceivingBatchesAllocatesNothingOnceWarm()
    {
        final BatchedDatagramPort sender = open(LOOPBACK, true);
        final BatchedDatagramPort receiver = open(LOOPBACK, true);
        final SendBatch batch = new SendBatch(64, 64 * SIZE);
        final InetSocketAddress destination = receiver.localAddress();
        assertExchangesAllocateNothing("batched send and receive", sender, receiver, batch,
            i -> batch.commit(i == 31 ? 500 : SIZE, destination, i < 16 ? 0 : 2));
    }

    /**
     * Exchange batches of 32 datagrams, each begun with its index and committed by {@code commitDatagram}, 2,000
     * times to warm up, then assert that 200 more allocate nothing (sender and receiver on this thread).
     */
    private static void assertExchangesAllocateNothing(
        final String name,
        final BatchedDatagramPort sender,
        final BatchedDatagramPort receiver,
        final SendBatch batch,
        final IntConsumer commitDatagram)
    {
        final ReceiveBatch received = receiver.newReceiveBatch(64);
        final Runnable exchange = () ->
        {
            batch.clear();
            for (int i = 0; i < 32; i++)
            {
                batch.buffer().putInt(batch.nextOffset(), i);
                commitDatagram.accept(i);
            }
            sender.send(batch);
            int count = 0;
            while (count < 32)
            {
                receiver.awaitReadable(TIMEOUT_NS);
                count += receiver.receive(received, 64);
            }
        };
        for (int i = 0; i < 2000; i++)
        {
            exchange.run();
        }
        AllocationMeter.assertAllocationFree(name, () ->
        {
            for (int i = 0; i < 200; i++)
            {
                exchange.run();
            }
        });
    }

    @Test
    void aHandlerReceiveHandsOnEveryDatagram()
    {
        final BatchedDatagramPort sender = open(LOOPBACK, true);
        final BatchedDatagramPort receiver = open(LOOPBACK, true);
        final UnsafeBuffer heap = new UnsafeBuffer(new byte[100]);
        heap.putInt(0, 77);
        assertTrue(sender.send(heap, 0, 100, receiver.localAddress()), "a heap buffer goes through a copy");
        final int[] got = new int[2];
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (0 == got[0] && System.nanoTime() - deadlineNs < 0)
        {
            receiver.awaitReadable(TimeUnit.MILLISECONDS.toNanos(100));
            receiver.receive((buffer, offset, length, source, nowNs) ->
            {
                got[0] = length;
                got[1] = buffer.getInt(offset);
                assertEquals(sender.localAddress(), source);
                assertEquals(42, nowNs);
            }, 8, 42);
        }
        assertEquals(100, got[0]);
        assertEquals(77, got[1]);
    }

    @Test
    void aClosedPortNeitherWaitsNorFailsToWake()
    {
        final BatchedDatagramPort port = BatchedDatagramPort.open(LOOPBACK, 1 << 16, true);
        port.close();
        port.close();
        port.wakeup();
        assertEquals(0, port.awaitReadable(TIMEOUT_NS));
    }

    // ---------------------------------------------------------------- helpers

    private static long sysctl(final String file) throws IOException
    {
        return Long.parseLong(Files.readString(Path.of(file)).trim());
    }

    private BatchedDatagramPort open(final InetSocketAddress bind, final boolean gso)
    {
        final BatchedDatagramPort port = BatchedDatagramPort.open(bind, 4 << 20, gso);
        opened.add(port);
        return port;
    }

    /**
     * Datagram {@code index}: its index, then bytes derived from it.
     */
    private static void write(
        final SendBatch batch, final int index, final int length, final InetSocketAddress to, final int ecn)
    {
        final byte[] bytes = expected(index, length);
        batch.buffer().putBytes(batch.nextOffset(), bytes);
        batch.commit(length, to, ecn);
    }

    /**
     * Write datagram {@code index} ({@link #expected}) as a gathered one: its first {@code before} bytes and its last
     * {@code after} bytes into the batch, the rest into {@code log} at {@code logIndex}.
     *
     * @return where the next payload goes in {@code log}: right after this one.
     */
    private static int writeGathered(
        final SendBatch batch,
        final UnsafeBuffer log,
        final int logIndex,
        final int index,
        final int length,
        final int before,
        final int after,
        final InetSocketAddress to)
    {
        final byte[] bytes = expected(index, length);
        final int payloadLength = length - before - after;
        batch.buffer().putBytes(batch.nextOffset(), bytes, 0, before);
        batch.buffer().putBytes(batch.nextOffset() + before, bytes, before + payloadLength, after);
        log.putBytes(logIndex, bytes, before, payloadLength);
        batch.commitGathered(before + after, before, log, logIndex, payloadLength, to, 0);
        return logIndex + payloadLength;
    }

    static byte[] expected(final int index, final int length)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(index * 31 + i * 7);
        }
        if (length >= 4)
        {
            new UnsafeBuffer(bytes).putInt(0, index);
        }
        return bytes;
    }

    private static List<byte[]> receive(final BatchedDatagramPort port, final int count)
    {
        return receive(port, port.newReceiveBatch(64), count);
    }

    private static List<byte[]> receive(final BatchedDatagramPort port, final ReceiveBatch batch, final int count)
    {
        final List<byte[]> received = new ArrayList<>();
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (received.size() < count && System.nanoTime() - deadlineNs < 0)
        {
            port.awaitReadable(TimeUnit.MILLISECONDS.toNanos(100));
            port.receive(batch, 64);
            for (int i = 0; i < batch.size(); i++)
            {
                received.add(copy(batch, i));
            }
        }
        return received;
    }

    private static List<byte[]> receiveNio(final NioDatagramPort port, final int count)
    {
        final List<byte[]> received = new ArrayList<>();
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (received.size() < count && System.nanoTime() - deadlineNs < 0)
        {
            port.receive((buffer, offset, length, source, nowNs) ->
            {
                final byte[] bytes = new byte[length];
                buffer.getBytes(offset, bytes);
                received.add(bytes);
            }, 64, 0);
        }
        return received;
    }

    private static void awaitOne(final BatchedDatagramPort port, final ReceiveBatch batch)
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        do
        {
            port.awaitReadable(TimeUnit.MILLISECONDS.toNanos(100));
            port.receive(batch, batch.maxDatagrams());
        }
        while (0 == batch.size() && System.nanoTime() - deadlineNs < 0);
        assertEquals(1, batch.size());
    }

    /**
     * The batch holds the last {@code count} datagrams sent before {@code nextIndex}, in order, byte for byte.
     */
    private static void assertLastSent(final ReceiveBatch batch, final int nextIndex, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            assertArrayEquals(expected(nextIndex - count + i, SIZE), copy(batch, i));
        }
    }

    private static byte[] copy(final ReceiveBatch batch, final int index)
    {
        final byte[] bytes = new byte[batch.length(index)];
        batch.buffer().getBytes(batch.offset(index), bytes);
        return bytes;
    }

    static boolean hasIpv6Loopback() throws IOException
    {
        final NetworkInterface lo = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        return null != lo && lo.inetAddresses().anyMatch((address) -> address instanceof Inet6Address);
    }
}
