package io.pacelink.transport.cc;

/**
 * Proportional Rate Reduction (RFC 6937) in the form Linux runs it for every loss-based controller
 * ({@code tcp_cwnd_reduction} in {@code net/ipv4/tcp_input.c}): during a recovery the window is not cut to ssthresh
 * at once but set, on every ACK, to what is in flight plus {@code sndcnt}, the data this ACK lets the sender put out.
 * While more than ssthresh is in flight the sender sends in proportion to what was delivered,
 * {@code ceil(prr_delivered * ssthresh / prior_cwnd) - prr_out}, so over the round trip the flight falls smoothly to
 * ssthresh; once it is at or below ssthresh, the slow-start reduction bound (PRR-SSRB) lets it grow back towards
 * ssthresh by what the ACK delivered, plus one datagram when the ACK advanced the acknowledged prefix without a new
 * loss. The first step always allows one datagram, the fast retransmit. Everything is in bytes (Linux counts
 * packets; the proportional allowance is rounded up to whole datagrams as Linux's is to whole packets), and the window
 * is never set below the minimum window.
 * <p>
 * Without it, a QUIC sender (RFC 9002 section 7.3.2) cuts its window to ssthresh at once and may then send at its
 * pacing rate into whatever the cut left free of the flight, refilling a queue that has not drained and losing
 * packets sent after the recovery began: a second congestion event where Linux has one.
 * <p>
 * Single-threaded; allocates nothing.
 */
public final class ProportionalRateReduction
{
    private boolean isActive;
    private long priorWindowBytes;
    private long deliveredBytes;
    private long sentBytes;

    /**
     * Begin a reduction ({@code tcp_init_cwnd_reduction}).
     *
     * @param priorWindowBytes the window before the reduction ({@code prior_cwnd}), what the delivered data is
     *                         scaled by.
     */
    public void start(final long priorWindowBytes)
    {
        isActive = true;
        this.priorWindowBytes = Math.max(1, priorWindowBytes);
        deliveredBytes = 0;
        sentBytes = 0;
    }

    /**
     * End the reduction: the recovery period ended, was undone, or collapsed into persistent congestion.
     */
    public void stop()
    {
        isActive = false;
    }

    /**
     * @return true during a reduction.
     */
    public boolean isActive()
    {
        return isActive;
    }

    /**
     * Count a packet sent during the reduction ({@code prr_out}, counted in {@code tcp_write_xmit} and
     * {@code tcp_xmit_retransmit_queue}): new data and retransmissions alike.
     *
     * @param sizeBytes the packet's size.
     */
    public void onPacketSent(final int sizeBytes)
    {
        if (isActive)
        {
            sentBytes += sizeBytes;
        }
    }

    /**
     * The window the first step of a reduction gives before any ACK has delivered data: what is in flight plus one
     * datagram, the fast retransmit Linux forces ({@code sndcnt = max(sndcnt, prr_out ? 0 : 1)}).
     *
     * @param bytesInFlight    bytes in flight after the losses were removed.
     * @param datagramBytes    the maximum datagram size.
     * @param minimumWindowBytes the smallest window allowed.
     * @return the window.
     */
    public long firstWindowBytes(final long bytesInFlight, final int datagramBytes, final long minimumWindowBytes)
    {
        return Math.max(minimumWindowBytes, bytesInFlight + (0 == sentBytes ? datagramBytes : 0));
    }

    /**
     * One ACK of the reduction ({@code tcp_cwnd_reduction}).
     *
     * @param windowBytes          the window now (kept if the ACK delivered nothing).
     * @param slowStartThresholdBytes ssthresh, where the reduction ends.
     * @param bytesInFlight        bytes in flight after the ACK ({@code tcp_packets_in_flight}).
     * @param newlyDeliveredBytes  bytes the ACK newly acknowledged ({@code newly_acked_sacked}).
     * @param newlyLostBytes       bytes newly declared lost with it ({@code newly_lost}).
     * @param advancedPrefix       the ACK acknowledged the oldest packet in flight: the acknowledged prefix advanced,
     *                             what {@code FLAG_SND_UNA_ADVANCED} says for TCP.
     * @param datagramBytes        the maximum datagram size (Linux's one packet).
     * @param minimumWindowBytes   the smallest window allowed.
     * @return the new window: bytes in flight plus what the sender may send now.
     */
    public long windowOnAck(
        final long windowBytes,
        final long slowStartThresholdBytes,
        final long bytesInFlight,
        final long newlyDeliveredBytes,
        final long newlyLostBytes,
        final boolean advancedPrefix,
        final int datagramBytes,
        final long minimumWindowBytes)
    {
        if (newlyDeliveredBytes <= 0)
        {
            return windowBytes;
        }
        deliveredBytes += newlyDeliveredBytes;
        final long deltaBytes = slowStartThresholdBytes - bytesInFlight;
        long sendBytes;
        if (deltaBytes < 0)
        {
            // RFC 6937 section 3.1, proportional part: send ssthresh/prior_cwnd of what was delivered, rounded up to
            // whole datagrams as Linux rounds up to whole packets (in bytes the first datagram would wait an ACK more).
            final long allowedBytes = ceilDivide(slowStartThresholdBytes, deliveredBytes, priorWindowBytes);
            sendBytes = (allowedBytes + datagramBytes - 1) / datagramBytes * datagramBytes - sentBytes;
        }
        else
        {
            // PRR-SSRB as Linux runs it (the form proposed for RFC 6937's revision): at least what this ACK delivered,
            // one datagram more when the prefix advanced without a new loss, never beyond ssthresh.
            sendBytes = Math.max(deliveredBytes - sentBytes, newlyDeliveredBytes);
            if (advancedPrefix && 0 == newlyLostBytes)
            {
                sendBytes += datagramBytes;
            }
            sendBytes = Math.min(deltaBytes, sendBytes);
        }
        // Force a fast retransmit upon entering the reduction.
        sendBytes = Math.max(sendBytes, 0 == sentBytes ? datagramBytes : 0);
        return Math.max(minimumWindowBytes, bytesInFlight + sendBytes);
    }

    /**
     * @return {@code ceil(a * b / c)} without overflowing for any window a transport can have (a and b below 2^40).
     */
    private static long ceilDivide(final long a, final long b, final long c)
    {
        final long high = Math.multiplyHigh(a, b);
        if (0 == high && a * b >= 0)
        {
            return (a * b + c - 1) / c;
        }
        return (long)Math.ceil((double)a * b / c);
    }
}
