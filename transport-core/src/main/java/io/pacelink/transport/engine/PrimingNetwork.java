package io.pacelink.transport.engine;

import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.port.DatagramHandler;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.ReceiveBatch;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The in-memory network {@link HandshakePathPrimer} runs its handshakes over: ports that hand each datagram sent to
 * one of them to its next receive, at once and in order, and lose what is sent to an address that has no port. No
 * socket, no thread, no clock. It copies every datagram into a new array: it serves a bounded loop at launch, never a
 * connection's packets.
 */
final class PrimingNetwork
{
    /**
     * Room per datagram in a receive batch: the largest datagram an endpoint sends by default fits.
     */
    private static final int BATCH_BYTES_PER_DATAGRAM = PacelinkContext.DEFAULT_MAX_DATAGRAM_SIZE_BYTES;

    private final Map<InetSocketAddress, Port> portsByAddress = new HashMap<>();

    /**
     * @param address the port's address (never bound: nothing leaves this network).
     * @return a new port of this network at that address.
     */
    Port newPort(final InetSocketAddress address)
    {
        final Port port = new Port(address);
        portsByAddress.put(address, port);
        return port;
    }

    /**
     * @return datagrams waiting in every port of this network.
     */
    int inFlight()
    {
        int waiting = 0;
        for (final Port port : portsByAddress.values())
        {
            waiting += port.inbox.size();
        }
        return waiting;
    }

    /**
     * One end of the network.
     */
    final class Port implements DatagramPort
    {
        private final InetSocketAddress address;
        private final ArrayDeque<byte[]> inbox = new ArrayDeque<>();
        private final ArrayDeque<InetSocketAddress> sources = new ArrayDeque<>();
        private final UnsafeBuffer receiveBuffer = new UnsafeBuffer(new byte[PacelinkContext.MAX_DATAGRAM_SIZE_BYTES]);

        private Port(final InetSocketAddress address)
        {
            this.address = address;
        }

        public int receive(final DatagramHandler handler, final int limit, final long nowNs)
        {
            int received = 0;
            while (received < limit && !inbox.isEmpty())
            {
                final byte[] datagram = inbox.poll();
                receiveBuffer.putBytes(0, datagram);
                handler.onDatagram(receiveBuffer, 0, datagram.length, sources.poll(), nowNs);
                received++;
            }
            return received;
        }

        public ReceiveBatch newReceiveBatch(final int maxDatagrams)
        {
            return new ReceiveBatch(maxDatagrams, maxDatagrams * BATCH_BYTES_PER_DATAGRAM);
        }

        public int receive(final ReceiveBatch batch, final int limit)
        {
            batch.clear();
            int offset = 0;
            while (!batch.isFull() && batch.size() < limit && !inbox.isEmpty() &&
                inbox.peek().length <= batch.buffer().capacity() - offset)
            {
                final byte[] datagram = inbox.poll();
                batch.buffer().putBytes(offset, datagram);
                batch.add(offset, datagram.length, sources.poll(), ReceiveBatch.NOT_ECT);
                offset += datagram.length;
            }
            return batch.size();
        }

        public boolean send(
            final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
        {
            final Port peer = portsByAddress.get(destination);
            if (null != peer)
            {
                final byte[] datagram = new byte[length];
                buffer.getBytes(offset, datagram);
                peer.inbox.add(datagram);
                peer.sources.add(address);
            }
            return true;
        }

        public String describe()
        {
            return "priming";
        }

        public InetSocketAddress localAddress()
        {
            return address;
        }

        public void close()
        {
            inbox.clear();
            sources.clear();
        }
    }
}
