package io.pacelink.sim;

import io.pacelink.transport.port.DatagramHandler;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;

/**
 * Sends fixed-size datagrams at a fixed interval from a start time until an end time (an open-loop, CBR source);
 * whatever comes back is read and ignored.
 */
final class ConstantRateSender implements SimulatedAgent
{
    private static final DatagramHandler IGNORE = (buffer, offset, length, source, nowNs) -> { };

    private final SimDatagramPort port;
    private final InetSocketAddress peer;
    private final int lengthBytes;
    private final long intervalNs;
    private final long endNs;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
    private long nextSendNs;
    private long sent;

    ConstantRateSender(final SimDatagramPort port, final InetSocketAddress peer, final int lengthBytes,
        final long intervalNs, final long startNs, final long endNs)
    {
        this.port = port;
        this.peer = peer;
        this.lengthBytes = lengthBytes;
        this.intervalNs = intervalNs;
        this.nextSendNs = startNs;
        this.endNs = endNs;
    }

    public int doWork(final long nowNs)
    {
        int work = port.receive(IGNORE, Integer.MAX_VALUE, nowNs);
        while (nowNs >= nextSendNs && nextSendNs < endNs)
        {
            buffer.putLong(0, sent++);
            port.send(buffer, 0, lengthBytes, peer);
            nextSendNs += intervalNs;
            work++;
        }
        return work;
    }

    public long nextDeadlineNs()
    {
        return nextSendNs < endNs ? nextSendNs : Long.MAX_VALUE;
    }

    long sent()
    {
        return sent;
    }
}
