package io.pacelink.transport.engine;

import io.pacelink.transport.port.DatagramHandler;
import io.pacelink.transport.port.DatagramPort;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * An in-memory network for engine unit tests: ports exchange datagrams instantly and in order; a test can inject
 * raw datagrams and drop what a predicate selects. Allocates freely: tests only.
 */
final class PipeNetwork
{
    private final Map<InetSocketAddress, Port> portsByAddress = new HashMap<>();
    private Predicate<byte[]> dropFilter = (datagram) -> false;

    Port newPort(final int port)
    {
        final Port newPort = new Port(new InetSocketAddress("127.0.0.1", port));
        portsByAddress.put(newPort.address, newPort);
        return newPort;
    }

    void dropWhen(final Predicate<byte[]> filter)
    {
        dropFilter = filter;
    }

    final class Port implements DatagramPort
    {
        private final InetSocketAddress address;
        private final ArrayDeque<byte[]> inbox = new ArrayDeque<>();
        private final ArrayDeque<InetSocketAddress> sources = new ArrayDeque<>();
        private final UnsafeBuffer receiveBuffer = new UnsafeBuffer(new byte[65536]);
        private long sent;

        private Port(final InetSocketAddress address)
        {
            this.address = address;
        }

        void inject(final byte[] datagram, final InetSocketAddress source)
        {
            inbox.add(datagram);
            sources.add(source);
        }

        long sent()
        {
            return sent;
        }

        public int receive(final DatagramHandler handler, final int limit)
        {
            int received = 0;
            while (received < limit && !inbox.isEmpty())
            {
                final byte[] datagram = inbox.poll();
                receiveBuffer.putBytes(0, datagram);
                handler.onDatagram(receiveBuffer, 0, datagram.length, sources.poll());
                received++;
            }
            return received;
        }

        public boolean send(
            final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
        {
            final byte[] datagram = new byte[length];
            buffer.getBytes(offset, datagram);
            sent++;
            final Port target = portsByAddress.get(destination);
            if (null != target && !dropFilter.test(datagram))
            {
                target.inject(datagram, address);
            }
            return true;
        }

        public InetSocketAddress localAddress()
        {
            return address;
        }

        public void close()
        {
        }
    }
}
