package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.port.BatchedDatagramPort;
import io.pacelink.transport.port.LoopbackPorts;
import io.pacelink.transport.port.PortStats;
import io.pacelink.transport.port.SendBatch;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine on the batched port, over real loopback sockets, driven by hand at times the test sets: the packets of
 * one duty cycle leave in one {@code sendmmsg(2)} (in GSO messages when GSO is on), and one {@code recvmmsg(2)}
 * hands the receiving core every one of them — or two, when the receiver's last receive found nothing after a burst
 * of one message: the first asks for one message, the next for the rest. Loopback delivers a datagram into the
 * receiving socket before the send returns, so nothing here depends on how fast anything runs.
 */
class BatchedPortDutyCycleTest
{
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);
    private static final int SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;

    private final CoreTestBed bed = new CoreTestBed(TimeUnit.SECONDS.toNanos(5), TimeUnit.SECONDS.toNanos(2));
    private final ArrayList<BatchedDatagramPort> ports = new ArrayList<>();

    @BeforeAll
    static void requireBatchedPort()
    {
        LoopbackPorts.requireBatchedPort();
    }

    @AfterEach
    void closePorts()
    {
        ports.forEach(BatchedDatagramPort::close);
    }

    @ParameterizedTest(name = "GSO {0}")
    @ValueSource(booleans = { true, false })
    void aDutyCyclesPacketsLeaveInOneSendAndArriveInOneMessageThenOneReceive(final boolean gso)
    {
        final BatchedDatagramPort serverPort = open(gso);
        final BatchedDatagramPort clientPort = open(gso);
        final EndpointCore server = bed.newCore(serverPort, true, 4, new PacelinkContext(), new ArrayList<>(), null);
        final EndpointCore client = bed.newCore(clientPort, false, 4, new PacelinkContext(), new ArrayList<>(), null);
        final Connection[] pair = bed.connect(client, server, serverPort);
        bed.runFor(TimeUnit.MILLISECONDS.toNanos(20)); // the handshake's confirmation and its ACKs settle

        final UnsafeBuffer message = new UnsafeBuffer(new byte[16 * 1024]);
        for (int i = 0; i < 8; i++)
        {
            assertTrue(pair[0].offer(message, 0, message.capacity()) > 0, "the send buffer takes 128 KiB");
        }
        final PortStats sent = clientPort.stats();
        final long sendCallsBefore = sent.sendCalls();
        final long datagramsBefore = sent.datagramsSent();
        final long gsoBefore = sent.gsoSends();
        final long now = bed.nowNs() + CoreTestBed.STEP_NS;
        client.doWork(now);

        final long datagrams = sent.datagramsSent() - datagramsBefore;
        assertTrue(datagrams > 8, "a window's worth of packets in one cycle, not " + datagrams);
        assertEquals(1, sent.sendCalls() - sendCallsBefore, "one sendmmsg for the cycle's " + datagrams);
        if (gso)
        {
            assertTrue(sent.gsoSends() - gsoBefore >= 1, "full-size packets back to back leave as GSO messages");
        }
        else
        {
            assertEquals(gsoBefore, sent.gsoSends());
        }

        final PortStats received = serverPort.stats();
        final long receiveCallsBefore = received.receiveCalls();
        final long arrivedBefore = received.datagramsReceived();
        final long superDatagramsBefore = received.groSuperDatagrams();
        final long endpointReceivedBefore = server.counters().datagramsReceived().get();
        server.doWork(now);
        // The server's last receive found its socket empty, with no wait since: if its last burst was one message
        // (the handshake's lone packets), this receive asks for one message (a lone datagram, or with GSO on one GRO
        // super-datagram of several), and the next cycle's one recvmmsg reads the rest of the send; else it reads
        // all of them.
        assertEquals(1, received.receiveCalls() - receiveCallsBefore, "one recvmmsg");
        final long firstCycle = received.datagramsReceived() - arrivedBefore;
        assertTrue(firstCycle >= 1, "the send's first message");
        if (firstCycle < datagrams)
        {
            assertTrue(received.groSuperDatagrams() - superDatagramsBefore <= 1, "at most one super-datagram");
            if (!gso)
            {
                assertEquals(1, firstCycle, "one datagram after an empty receive");
            }
            server.doWork(now);
            assertEquals(2, received.receiveCalls() - receiveCallsBefore, "one recvmmsg for the rest");
        }
        assertEquals(datagrams, received.datagramsReceived() - arrivedBefore, "every datagram of the send");
        assertEquals(datagrams, server.counters().datagramsReceived().get() - endpointReceivedBefore,
            "the core processed each as its own datagram");
    }

    /**
     * On the batched port with GSO off a plaintext packet's DATA payload leaves from the send log where it lies (the
     * port gathers it, docs/io.md) — except a payload that spans two of the log's segments, which is copied;
     * with GSO on every payload is copied — and the stream arrives byte-exact, GSO on and off, through the send log's
     * segments being reused many times over (3 MB through a 256-KiB send buffer of 64-KiB segments). The transfer's
     * last packets leave alone, one datagram a batch: a gathered one must not take the shim's lone {@code sendto}.
     */
    @ParameterizedTest(name = "GSO {0}")
    @ValueSource(booleans = { true, false })
    void aTransferSendsItsPayloadsFromTheSendLogInPlaceAndArrivesByteExact(final boolean gso)
    {
        final BatchedDatagramPort serverPort = open(gso);
        final long[] datagrams = new long[2];
        final ForwardingDatagramPort clientPort = new ForwardingDatagramPort(open(gso))
        {
            public boolean sendsGathered()
            {
                return port.sendsGathered();
            }

            public int send(final SendBatch batch)
            {
                for (int i = 0; i < batch.size(); i++)
                {
                    datagrams[batch.payloadLength(i) > 0 ? 1 : 0]++;
                }
                return port.send(batch);
            }
        };
        final EndpointCore server = bed.newCore(serverPort, true, 4, new PacelinkContext(), new ArrayList<>(), null);
        final EndpointCore client = bed.newCore(clientPort, false, 4, new PacelinkContext(), new ArrayList<>(), null);
        final Connection[] pair = bed.connect(client, server, serverPort);
        final long wholeBefore = datagrams[0];

        new NumberedTransfer(bed, () -> { }).transfer(pair[0], pair[1], 3000);
        final long whole = datagrams[0] - wholeBefore;
        if (gso)
        {
            // A GSO message's payloads are copied into the batch: gathered from the log, they measured slower.
            assertEquals(0, datagrams[1], "payloads sent in place with GSO on");
            return;
        }
        assertTrue(datagrams[1] > 1500, "payloads sent in place: " + datagrams[1]);
        assertTrue(whole > 0 && whole < datagrams[1] / 10,
            "the copied ones: a payload across two segments, an ACK alone: " + whole + " of " + datagrams[1]);
    }

    private BatchedDatagramPort open(final boolean gso)
    {
        final BatchedDatagramPort port = BatchedDatagramPort.open(LOOPBACK, SOCKET_BUFFER_BYTES, gso);
        ports.add(port);
        return port;
    }
}
