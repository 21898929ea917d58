package io.pacelink.sim;

import io.pacelink.transport.port.DatagramHandler;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;

/**
 * Keeps a fixed number of datagrams in flight, sending one more for each acknowledgement (a fixed-window, ACK-clocked
 * sender without loss recovery: a lost datagram shrinks the window for good, so use it on loss-free paths).
 */
final class WindowSender implements SimulatedAgent, DatagramHandler
{
    private final SimDatagramPort port;
    private final InetSocketAddress peer;
    private final int lengthBytes;
    private final int window;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
    private int inFlight;
    private long sent;
    private long acknowledged;

    WindowSender(final SimDatagramPort port, final InetSocketAddress peer, final int lengthBytes, final int window)
    {
        this.port = port;
        this.peer = peer;
        this.lengthBytes = lengthBytes;
        this.window = window;
    }

    public int doWork(final long nowNs)
    {
        int work = port.receive(this, 64, nowNs);
        while (inFlight < window)
        {
            buffer.putLong(0, sent++);
            port.send(buffer, 0, lengthBytes, peer);
            inFlight++;
            work++;
        }
        return work;
    }

    public long nextDeadlineNs()
    {
        return Long.MAX_VALUE;
    }

    public void onDatagram(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress source, final long nowNs)
    {
        inFlight--;
        acknowledged++;
    }

    long sent()
    {
        return sent;
    }

    long acknowledged()
    {
        return acknowledged;
    }
}
