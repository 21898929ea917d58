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
 * in this call (the current one, its duplicate or a released one); a batch send counts as not sent as many of the
 * batch's datagrams as the wrapped port refused. A receive may hand on more datagrams than {@code limit}
 * (duplicates and released ones), and returns how many it handed on: a batch from {@link #newReceiveBatch} has room
 * for three per datagram received (the datagram, its duplicate and a released one).
 * <p>
 * Batches pass through as batches (a datagram released from the reordering buffer takes the ECN codepoint of the
 * datagram that released it): what survives a batch send's impairment reaches the wrapped port in one
 * {@link DatagramPort#send(SendBatch)}, and a batch receive takes the wrapped port's batch in one
 * {@link DatagramPort#receive(ReceiveBatch, int)}. Agent thread only; allocation free once its batches exist (made
 * with the first {@link #newReceiveBatch} and the first batch send).
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
    private final DatagramImpairment.Output addToSendBatch = this::addToSendBatch;
    private final DatagramImpairment.Output addToReceiveBatch = this::addToReceiveBatch;
    private final int maxDatagramLength;

    private ReceiveBatch delegateReceiveBatch;
    private SendBatch delegateSendBatch;
    private ReceiveBatch receivingBatch;
    private int receivingOffset;
    private int currentEcnCodepoint;

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
        this.maxDatagramLength = maxDatagramLength;
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
     * <p>
     * The wrapped port's batch of {@code maxDatagrams} is made here too; the one returned has room for three
     * datagrams per datagram received.
     */
    public ReceiveBatch newReceiveBatch(final int maxDatagrams)
    {
        delegateReceiveBatch = delegate.newReceiveBatch(maxDatagrams);
        return new ReceiveBatch(3 * maxDatagrams,
            2 * delegateReceiveBatch.capacityBytes() + maxDatagrams * maxDatagramLength);
    }

    /**
     * {@inheritDoc}
     * <p>
     * A datagram that does not fit in the batch any more is dropped, as by a full socket buffer.
     */
    public int receive(final ReceiveBatch batch, final int limit)
    {
        if (null == delegateReceiveBatch)
        {
            delegateReceiveBatch = delegate.newReceiveBatch(Math.max(1, batch.maxDatagrams() / 3));
        }
        batch.clear();
        final ReceiveBatch received = delegateReceiveBatch;
        delegate.receive(received, Math.min(limit, received.maxDatagrams()));
        if (null != received.unreachablePeer())
        {
            batch.portUnreachable(received.unreachablePeer());
        }
        receivingBatch = batch;
        receivingOffset = 0;
        try
        {
            for (int i = 0, size = received.size(); i < size; i++)
            {
                currentEcnCodepoint = received.ecnCodepoint(i);
                receiveImpairment.apply(
                    received.buffer(i), received.offset(i), received.length(i), received.source(i), addToReceiveBatch);
            }
        }
        finally
        {
            receivingBatch = null;
        }
        return batch.size() + (null != batch.unreachablePeer() ? 1 : 0);
    }

    /**
     * {@inheritDoc}
     */
    public int send(final SendBatch batch)
    {
        if (null == delegateSendBatch ||
            delegateSendBatch.maxDatagrams() < 3 * batch.maxDatagrams() ||
            delegateSendBatch.capacityBytes() < 2 * batch.capacityBytes() + batch.maxDatagrams() * maxDatagramLength)
        {
            delegateSendBatch = new SendBatch(3 * batch.maxDatagrams(),
                2 * batch.capacityBytes() + batch.maxDatagrams() * maxDatagramLength);
        }
        final SendBatch survivors = delegateSendBatch;
        survivors.clear();
        for (int i = 0, size = batch.size(); i < size; i++)
        {
            currentEcnCodepoint = batch.ecnCodepoint(i);
            sendImpairment.apply(
                batch.buffer(i), batch.offset(i), batch.length(i), batch.destination(i), addToSendBatch);
        }
        final int refused = survivors.size() - delegate.send(survivors);
        survivors.clear();
        return batch.size() - Math.min(batch.size(), refused);
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
    public boolean carriesEcn()
    {
        return delegate.carriesEcn();
    }

    /**
     * {@inheritDoc}
     */
    public boolean sendsEcn()
    {
        return delegate.sendsEcn();
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
    public int awaitWakeup(final long timeoutNs)
    {
        return delegate.awaitWakeup(timeoutNs);
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

    private void addToSendBatch(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
    {
        final SendBatch survivors = delegateSendBatch;
        survivors.buffer().putBytes(survivors.nextOffset(), buffer, offset, length);
        survivors.commit(length, destination, currentEcnCodepoint);
    }

    private void addToReceiveBatch(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress source)
    {
        final ReceiveBatch batch = receivingBatch;
        if (batch.isFull() || length > batch.buffer().capacity() - receivingOffset)
        {
            return;
        }
        batch.buffer().putBytes(receivingOffset, buffer, offset, length);
        batch.add(receivingOffset, length, source, currentEcnCodepoint);
        receivingOffset += length;
    }

    private void handOnReceived(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress source)
    {
        receiveHandler.onDatagram(buffer, offset, length, source, receiveTimeNs);
    }
}
