package io.pacelink.perf;

import io.pacelink.transport.port.BatchedDatagramPort;
import io.pacelink.transport.port.SendBatch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * What the batched port's send costs per datagram on loopback, system call and kernel included: one op is one
 * 1472-byte ECT(0) datagram of a batch of {@link #DATAGRAMS}, sent in one {@code sendmmsg} to a socket nobody reads
 * (the kernel delivers each datagram into it, or drops it there once its buffer is full, the same work either way for
 * both variants). {@link #restricted} compares a port restricted to that peer (a connected socket: no destination per
 * message and no {@code IP_TOS} control message, so the kernel uses the route cached at {@code connect(2)}) with an
 * open one (a destination and an {@code IP_TOS} control message per message: a route lookup per message);
 * {@link #gso} with one message per datagram or one GSO message per run.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = { BenchmarkJvm.ADD_EXPORTS_MISC, BenchmarkJvm.ADD_OPENS_MISC })
@State(Scope.Thread)
public class PortSendBenchmark
{
    /**
     * Datagrams per batch: the most one {@code sendmmsg} of the port takes.
     */
    public static final int DATAGRAMS = 64;

    /**
     * Bytes per datagram: a 1500-byte MTU's UDP payload over IPv4.
     */
    public static final int DATAGRAM_BYTES = 1472;

    /**
     * ECT(0), the codepoint every data packet carries once ECN is validated.
     */
    private static final int ECT0 = 2;

    private static final int SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);

    /**
     * True: the sending port is restricted to its peer.
     */
    @Param({ "false", "true" })
    public boolean restricted;

    /**
     * True: runs of datagrams leave as GSO messages.
     */
    @Param({ "false", "true" })
    public boolean gso;

    private BatchedDatagramPort receiver;
    private BatchedDatagramPort sender;
    private SendBatch batch;

    /**
     * Open both ports and fill the batch once; every op sends the same batch.
     */
    @Setup
    public void setUp()
    {
        if (!BatchedDatagramPort.support().isAvailable())
        {
            throw new IllegalStateException("no batched port here: " + BatchedDatagramPort.support());
        }
        receiver = BatchedDatagramPort.open(LOOPBACK, SOCKET_BUFFER_BYTES, false);
        sender = BatchedDatagramPort.open(LOOPBACK, SOCKET_BUFFER_BYTES, gso);
        final InetSocketAddress peer = receiver.localAddress();
        if (restricted && !sender.restrictTo(peer))
        {
            throw new IllegalStateException("cannot restrict the port to " + peer);
        }
        batch = new SendBatch(DATAGRAMS, DATAGRAMS * DATAGRAM_BYTES);
        for (int i = 0; i < DATAGRAMS; i++)
        {
            batch.buffer().setMemory(batch.nextOffset(), DATAGRAM_BYTES, (byte)i);
            batch.commit(DATAGRAM_BYTES, peer, ECT0);
        }
    }

    /**
     * Close both ports.
     */
    @TearDown
    public void tearDown()
    {
        sender.close();
        receiver.close();
    }

    /**
     * @return datagrams sent.
     */
    @Benchmark
    @OperationsPerInvocation(DATAGRAMS)
    public int sendBatch()
    {
        return sender.send(batch);
    }
}
