package io.pacelink.transport.testing;

import io.pacelink.transport.port.DatagramHandler;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.ReceiveBatch;
import io.pacelink.transport.port.SendBatch;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * An in-memory network for tests of the endpoint core driven by hand: ports exchange datagrams instantly and in
 * order; a test can inject raw datagrams and drop what a predicate selects. A port restricted to one peer behaves as
 * a connected UDP socket: it hears only that peer, and learns at its next receive when a datagram it sent found no
 * port there (ICMP port unreachable). Allocates freely: tests only.
 */
public final class TestNetwork
{
    private final Map<InetSocketAddress, Port> portsByAddress = new HashMap<>();
    private Predicate<byte[]> dropFilter = (datagram) -> false;
    private boolean isCarryingEcn;

    /**
     * From now on the network's ports carry each datagram's ECN codepoint as the batched port does
     * ({@link DatagramPort#carriesEcn}): endpoints launched after this mark their packets and validate ECN.
     *
     * @return this network.
     */
    public TestNetwork carryEcn()
    {
        isCarryingEcn = true;
        return this;
    }

    /**
     * @param port the port number on 127.0.0.1.
     * @return a new port of this network.
     */
    public Port newPort(final int port)
    {
        return newPort("127.0.0.1", port);
    }

    /**
     * @param host a literal IPv4 address, e.g. 127.0.0.2 for a second host.
     * @param port the port number.
     * @return a new port of this network.
     */
    public Port newPort(final String host, final int port)
    {
        final Port newPort = new Port(new InetSocketAddress(host, port));
        portsByAddress.put(newPort.address, newPort);
        return newPort;
    }

    /**
     * Take a port off the network, as a process that died: what is sent to it finds nobody.
     *
     * @param port a port of this network.
     */
    public void unplug(final Port port)
    {
        portsByAddress.remove(port.address);
    }

    /**
     * A NAT in front of a port rebinds: what the port sends appears to come from {@code newPublicAddress} from now on,
     * and only what is sent there reaches it (its old public address finds nobody).
     *
     * @param port             a port of this network.
     * @param newPublicAddress the address it appears at from now on.
     */
    public void rebind(final Port port, final InetSocketAddress newPublicAddress)
    {
        portsByAddress.remove(port.publicAddress);
        port.publicAddress = newPublicAddress;
        portsByAddress.put(newPublicAddress, port);
    }

    /**
     * @param filter selects the datagrams the network drops from now on.
     */
    public void dropWhen(final Predicate<byte[]> filter)
    {
        dropFilter = filter;
    }

    /**
     * One end of the network.
     */
    public final class Port implements DatagramPort
    {
        private final InetSocketAddress address;
        private InetSocketAddress publicAddress;
        private final ArrayDeque<byte[]> inbox = new ArrayDeque<>();
        private final ArrayDeque<InetSocketAddress> sources = new ArrayDeque<>();
        private final ArrayDeque<Integer> codepoints = new ArrayDeque<>();
        private final UnsafeBuffer receiveBuffer = new UnsafeBuffer(new byte[65536]);
        private long sent;
        private long batchesSent;
        private int largestSentBytes;
        private InetSocketAddress restrictedTo;
        private boolean isUnreachableReported;
        private boolean isReportingUnreachable = true;
        private long arrivalAgeNs = ReceiveBatch.AGE_UNKNOWN;

        private Port(final InetSocketAddress address)
        {
            this.address = address;
            this.publicAddress = address;
        }

        /**
         * @param datagram a datagram to receive next.
         * @param source   the address it claims to come from.
         */
        public void inject(final byte[] datagram, final InetSocketAddress source)
        {
            inject(datagram, source, ReceiveBatch.NOT_ECT);
        }

        private void inject(final byte[] datagram, final InetSocketAddress source, final int ecnCodepoint)
        {
            if (null == restrictedTo || restrictedTo.equals(source))
            {
                inbox.add(datagram);
                sources.add(source);
                codepoints.add(ecnCodepoint);
            }
        }

        /**
         * From now on report every received datagram as having arrived this long before the receive returned, as the
         * batched port reads the kernel's receive time ({@link ReceiveBatch#arrivalAgeNs}).
         *
         * @param ageNs the age, {@link ReceiveBatch#AGE_UNKNOWN} for none (the default).
         */
        public void reportArrivalAge(final long ageNs)
        {
            arrivalAgeNs = ageNs;
        }

        /**
         * Report the peer's port unreachable at the next receive, as a forged ICMP message would.
         */
        public void injectPortUnreachable()
        {
            isUnreachableReported = true;
        }

        /**
         * From now on a datagram to a port that is gone raises no report by itself, as when Linux's one pending
         * socket error is consumed by a {@code sendmmsg} that already sent a datagram, or ICMP is rate-limited: only
         * {@link #injectPortUnreachable()} reports.
         */
        public void loseUnreachableReports()
        {
            isReportingUnreachable = false;
        }

        /**
         * @return the one peer this port is restricted to, or null.
         */
        public InetSocketAddress restrictedTo()
        {
            return restrictedTo;
        }

        public boolean restrictTo(final InetSocketAddress peer)
        {
            restrictedTo = peer;
            isUnreachableReported = false;
            return true;
        }

        /**
         * @return datagrams sent from this port.
         */
        public long sent()
        {
            return sent;
        }

        /**
         * @return calls of {@link #send(SendBatch)}: the endpoint's one send per batch.
         */
        public long batchesSent()
        {
            return batchesSent;
        }

        /**
         * @return the largest datagram sent since the last call, then forget it.
         */
        public int takeLargestSentBytes()
        {
            final int largest = largestSentBytes;
            largestSentBytes = 0;
            return largest;
        }

        public int receive(final DatagramHandler handler, final int limit, final long nowNs)
        {
            int received = 0;
            if (isUnreachableReported && null != restrictedTo)
            {
                isUnreachableReported = false;
                handler.onPortUnreachable(restrictedTo, nowNs);
            }
            while (received < limit && !inbox.isEmpty())
            {
                final byte[] datagram = inbox.poll();
                codepoints.poll();
                receiveBuffer.putBytes(0, datagram);
                handler.onDatagram(receiveBuffer, 0, datagram.length, sources.poll(), nowNs);
                received++;
            }
            return received;
        }

        /**
         * A batch with room for one datagram of any size and 2 KiB per datagram (the default would take 64 KiB per
         * datagram).
         */
        public ReceiveBatch newReceiveBatch(final int maxDatagrams)
        {
            return new ReceiveBatch(maxDatagrams, 65536 + maxDatagrams * 2048);
        }

        public int receive(final ReceiveBatch batch, final int limit)
        {
            batch.clear();
            int received = 0;
            if (isUnreachableReported && null != restrictedTo)
            {
                isUnreachableReported = false;
                batch.portUnreachable(restrictedTo);
                received++;
            }
            int nextOffset = 0;
            while (batch.size() < Math.min(limit, batch.maxDatagrams()) && !inbox.isEmpty() &&
                inbox.peek().length <= batch.buffer().capacity() - nextOffset)
            {
                final byte[] datagram = inbox.poll();
                batch.buffer().putBytes(nextOffset, datagram);
                batch.add(nextOffset, datagram.length, sources.poll(), codepoints.poll(), arrivalAgeNs);
                nextOffset += datagram.length;
                received++;
            }
            return received;
        }

        public int send(final SendBatch batch)
        {
            batchesSent++;
            int sentInBatch = 0;
            for (int i = 0, size = batch.size(); i < size; i++)
            {
                if (send(batch.buffer(), batch.offset(i), batch.length(i), batch.destination(i),
                    isCarryingEcn ? batch.ecnCodepoint(i) : ReceiveBatch.NOT_ECT))
                {
                    sentInBatch++;
                }
            }
            return sentInBatch;
        }

        public boolean carriesEcn()
        {
            return isCarryingEcn;
        }

        public boolean send(
            final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
        {
            return send(buffer, offset, length, destination, ReceiveBatch.NOT_ECT);
        }

        private boolean send(
            final DirectBuffer buffer,
            final int offset,
            final int length,
            final InetSocketAddress destination,
            final int ecnCodepoint)
        {
            final byte[] datagram = new byte[length];
            buffer.getBytes(offset, datagram);
            sent++;
            largestSentBytes = Math.max(largestSentBytes, length);
            final Port target = portsByAddress.get(destination);
            if (null != restrictedTo && !restrictedTo.equals(destination))
            {
                return false;
            }
            if (null == target)
            {
                isUnreachableReported |= null != restrictedTo && isReportingUnreachable;
            }
            else if (!dropFilter.test(datagram))
            {
                target.inject(datagram, publicAddress, ecnCodepoint);
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
