package io.pacelink.transport.port;

import org.agrona.DirectBuffer;

import java.net.InetSocketAddress;

/**
 * A {@link DatagramPort} decorator that injects seeded loss, duplication and reordering into the datagrams it sends
 * and/or receives (one {@link DatagramImpairment} per direction), like Aeron's loss generators on its debug channel
 * endpoints: a way to exercise recovery on real sockets without an emulated link.
 * <p>
 * A datagram dropped or held back on send is reported as sent: to the transport it is lost in the network, not
 * refused by a full buffer. {@link #send} returns false only if the wrapped port refused a datagram it was handed
 * in this call (the current one, its duplicate or a released one). {@link #receive} may hand more datagrams than
 * {@code limit} to the handler (duplicates and released ones), and returns how many it handed.
 * <p>
 * Agent thread only; allocation free after construction.
 */
public final class ImpairedDatagramPort implements DatagramPort
{
    private final DatagramPort delegate;
    private final DatagramImpairment sendImpairment;
    private final DatagramImpairment receiveImpairment;
    private final DatagramImpairment.Output sendToDelegate = this::sendToDelegate;
    private final DatagramHandler impairReceived = new DatagramHandler()
    {
        public void onDatagram(
            final DirectBuffer buffer,
            final int offset,
            final int length,
            final InetSocketAddress source,
            final long nowNs)
        {
            receivedCount += receiveImpairment.apply(buffer, offset, length, source, handOnReceived);
        }

        public void onPortUnreachable(final InetSocketAddress peer, final long nowNs)
        {
            receiveHandler.onPortUnreachable(peer, nowNs);
        }
    };
    private final DatagramImpairment.Output handOnReceived = this::handOnReceived;

    private DatagramHandler receiveHandler;
    private long receiveTimeNs;
    private int receivedCount;
    private boolean sendAccepted;

    /**
     * @param delegate          the port that reaches the network; closed with this one.
     * @param sendConfig        impairments applied to datagrams sent.
     * @param receiveConfig     impairments applied to datagrams received.
     * @param maxDatagramLength longest datagram that can be held back for reordering.
     */
    public ImpairedDatagramPort(
        final DatagramPort delegate,
        final ImpairmentConfig sendConfig,
        final ImpairmentConfig receiveConfig,
        final int maxDatagramLength)
    {
        this.delegate = delegate;
        this.sendImpairment = new DatagramImpairment(sendConfig, maxDatagramLength);
        this.receiveImpairment = new DatagramImpairment(receiveConfig, maxDatagramLength);
    }

    /**
     * {@inheritDoc}
     */
    public int receive(final DatagramHandler handler, final int limit, final long nowNs)
    {
        receiveHandler = handler;
        receiveTimeNs = nowNs;
        receivedCount = 0;
        try
        {
            delegate.receive(impairReceived, limit, nowNs);
        }
        finally
        {
            receiveHandler = null;
        }
        return receivedCount;
    }

    /**
     * {@inheritDoc}
     */
    public boolean send(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
    {
        sendAccepted = true;
        sendImpairment.apply(buffer, offset, length, destination, sendToDelegate);
        return sendAccepted;
    }

    /**
     * {@inheritDoc}
     */
    public boolean restrictTo(final InetSocketAddress peer)
    {
        return delegate.restrictTo(peer);
    }

    /**
     * {@inheritDoc}
     */
    public InetSocketAddress localAddress()
    {
        return delegate.localAddress();
    }

    /**
     * {@inheritDoc}
     * <p>
     * The wrapped port's: a datagram held back for reordering is released by later arrivals, never by time, so
     * waiting for the next arrival misses nothing.
     */
    public boolean canWait()
    {
        return delegate.canWait();
    }

    /**
     * {@inheritDoc}
     */
    public int awaitReadable(final long timeoutNs)
    {
        return delegate.awaitReadable(timeoutNs);
    }

    /**
     * {@inheritDoc}
     */
    public void wakeup()
    {
        delegate.wakeup();
    }

    /**
     * {@inheritDoc}
     */
    public PortStats stats()
    {
        return delegate.stats();
    }

    /**
     * {@inheritDoc}
     */
    public String describe()
    {
        return delegate.describe() + ", impaired";
    }

    /**
     * @return what happened to datagrams sent.
     */
    public DatagramImpairment sendImpairment()
    {
        return sendImpairment;
    }

    /**
     * @return what happened to datagrams received.
     */
    public DatagramImpairment receiveImpairment()
    {
        return receiveImpairment;
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
        delegate.close();
    }

    private void sendToDelegate(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
    {
        if (!delegate.send(buffer, offset, length, destination))
        {
            sendAccepted = false;
        }
    }

    private void handOnReceived(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress source)
    {
        receiveHandler.onDatagram(buffer, offset, length, source, receiveTimeNs);
    }
}
