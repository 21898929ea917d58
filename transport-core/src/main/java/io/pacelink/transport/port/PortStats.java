package io.pacelink.transport.port;

/**
 * What a port did, counted by the port on the agent thread in plain fields (no atomics: the agent is the only writer
 * and publishes them to the endpoint's counters now and then, {@code io.pacelink.transport.stats.PortCounters}).
 * A port counts what it can observe; a figure it cannot tell stays 0.
 */
public final class PortStats
{
    /**
     * All zero, for ports that count nothing: no port writes it.
     */
    static final PortStats NONE = new PortStats();

    long sendCalls;
    long datagramsSent;
    long gsoSends;
    long tosChanges;
    long sendBufferFull;
    long sendErrors;
    long receiveCalls;
    long datagramsReceived;
    long groSuperDatagrams;
    long timestampedDatagrams;
    long arrivalAgeTotalNs;
    long emptyReceives;
    long skippedReceives;
    long truncatedDropped;
    long receiveErrors;
    long portUnreachable;
    long waits;
    long wokenByDatagram;
    long wokenByCommand;
    long waitTimeouts;

    /**
     * @return times the port changed its socket's own TOS byte (a restricted batched port follows its batches' ECN
     * codepoint, so their datagrams need no control message).
     */
    public long tosChanges()
    {
        return tosChanges;
    }

    /**
     * @return receives that made no system call because the wait just before them found nothing to read.
     */
    public long skippedReceives()
    {
        return skippedReceives;
    }

    /**
     * @return system calls (or channel calls) that sent datagrams.
     */
    public long sendCalls()
    {
        return sendCalls;
    }

    /**
     * @return datagrams handed to the network.
     */
    public long datagramsSent()
    {
        return datagramsSent;
    }

    /**
     * @return UDP GSO sends: one buffer the kernel cut into several datagrams.
     */
    public long gsoSends()
    {
        return gsoSends;
    }

    /**
     * @return datagrams dropped because the socket's send buffer was full.
     */
    public long sendBufferFull()
    {
        return sendBufferFull;
    }

    /**
     * @return datagrams dropped by a send error other than a full buffer.
     */
    public long sendErrors()
    {
        return sendErrors;
    }

    /**
     * @return system calls (or channel calls) that received, including those that found nothing.
     */
    public long receiveCalls()
    {
        return receiveCalls;
    }

    /**
     * @return datagrams handed to the endpoint (each segment of a GRO super-datagram counts).
     */
    public long datagramsReceived()
    {
        return datagramsReceived;
    }

    /**
     * @return UDP GRO super-datagrams received (several datagrams the kernel coalesced) and split again.
     */
    public long groSuperDatagrams()
    {
        return groSuperDatagrams;
    }

    /**
     * @return messages received with the kernel's receive time ({@code SO_TIMESTAMPNS}; a GRO super-datagram counts
     * once).
     */
    public long timestampedDatagrams()
    {
        return timestampedDatagrams;
    }

    /**
     * @return the sum over {@link #timestampedDatagrams()} of how long each had been received when the receive call
     * returned (up to {@code ReceiveBatch.MAX_ARRIVAL_AGE_NS} each): over the count, how late the agent reads what
     * arrives — a wake's lateness, a hold of arrivals, a duty cycle under way.
     */
    public long arrivalAgeTotalNs()
    {
        return arrivalAgeTotalNs;
    }

    /**
     * @return receives that found the socket empty.
     */
    public long emptyReceives()
    {
        return emptyReceives;
    }

    /**
     * @return datagrams dropped because they did not fit the receive slot (a truncated datagram is never handed on).
     */
    public long truncatedDropped()
    {
        return truncatedDropped;
    }

    /**
     * @return receives that failed, and datagrams dropped for an unreadable source address.
     */
    public long receiveErrors()
    {
        return receiveErrors;
    }

    /**
     * @return ICMP port-unreachable errors the kernel reported (a restricted port only).
     */
    public long portUnreachable()
    {
        return portUnreachable;
    }

    /**
     * @return waits in {@link DatagramPort#awaitReadable(long)}.
     */
    public long waits()
    {
        return waits;
    }

    /**
     * @return waits that ended because a datagram (or an error) arrived.
     */
    public long wokenByDatagram()
    {
        return wokenByDatagram;
    }

    /**
     * @return waits that ended because another thread called {@link DatagramPort#wakeup()}.
     */
    public long wokenByCommand()
    {
        return wokenByCommand;
    }

    /**
     * @return waits that ended at their timeout.
     */
    public long waitTimeouts()
    {
        return waitTimeouts;
    }

    /**
     * Count how one wait ended.
     *
     * @param result what {@link DatagramPort#awaitReadable(long)} returned.
     * @return the result.
     */
    int onWait(final int result)
    {
        waits++;
        if (0 != (result & DatagramPort.READABLE))
        {
            wokenByDatagram++;
        }
        if (0 != (result & DatagramPort.WOKEN))
        {
            wokenByCommand++;
        }
        if (0 == result)
        {
            waitTimeouts++;
        }
        return result;
    }
}
