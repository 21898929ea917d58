package io.pacelink.transport.ack;

import io.pacelink.transport.wire.AckFrameFlyweight;
import io.pacelink.transport.wire.EcnCodepoint;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketWriter;

/**
 * Receiver side of acknowledgement generation (RFC 9000 section 13.2; docs/wire-format.md): remembers which packet
 * numbers arrived, rejects duplicates, decides when an ACK is due and writes ACK frames.
 * <p>
 * Received packet numbers are kept as at most {@code maxRanges} disjoint ranges in two primitive arrays, newest
 * (highest) range first. When a new range would exceed the cap the oldest range is dropped and the lowest packet
 * number still accepted moves up to the smallest tracked packet: anything below it counts as a duplicate, so a
 * replayed packet is never delivered twice (RFC 9000 section 13.2.3: "maintaining a minimum packet number that
 * increases as ranges are discarded"). A genuinely late packet rejected that way is not acknowledged, so the sender
 * retransmits its frames in a new packet: nothing is lost.
 * <p>
 * ACK policy (RFC 9000 section 13.2.1 and 13.2.2): an ack-eliciting packet that arrives out of order (below the
 * largest received, or above it with a gap in between) makes an ACK due at once; otherwise an ACK is due after every
 * {@code ackElicitingThreshold} ack-eliciting packets, or {@code maxAckDelayNs} after the first ack-eliciting packet
 * not yet acknowledged. Packets that are not ack-eliciting are recorded and acknowledged with the next ACK, but never
 * make one due.
 * <p>
 * ACK thinning at high rates (with {@code maxThinnedThreshold} above {@code ackElicitingThreshold}): once
 * {@link #PACKETS_BEFORE_THINNING} ack-eliciting packets have arrived, an in-order ACK waits for up to a quarter of
 * the ack-eliciting packets that arrived in the last {@code maxAckDelayNs}, at most {@code maxThinnedThreshold} and at
 * least {@code ackElicitingThreshold}, as Chromium's QUIC ACK decimation does (one ACK per 10 packets, or per quarter
 * of the min RTT, after the first 100 packets; here up to {@link #DEFAULT_MAX_THINNED_THRESHOLD} by default) and as
 * draft-ietf-quic-ack-frequency lets a sender ask for; a Linux
 * receiver with GRO likewise acknowledges a whole aggregate at once. So an ACK holds at most a quarter of what arrives
 * in one max ACK delay, and an RTT sample grows by at most a quarter of it. Out-of-order packets are still acknowledged
 * at once, so loss detection is as fast as before; and when arrivals pause (a sender that ran out of window or of
 * data) for twice the last mean gap between them, the ACK goes without waiting for the rest of its batch, so a
 * window smaller than the threshold never stalls until the max ACK delay.
 * <p>
 * ACK frequency asked for by the peer (draft-ietf-quic-ack-frequency section 6, {@link #applyAckFrequency}): the
 * newest ACK_FREQUENCY frame sets the max ACK delay in force and the most ack-eliciting packets an ACK waits for (its
 * threshold + 1), within which the thinning above still applies over one max ACK delay in force; a reordering
 * threshold of 0 lets in-order-ness go unchecked. Held arrivals change the pause: a receiver that drains its socket
 * in held wakes ({@code WakeCoalescing}) stamps each batch when it reads it, so the gap before a batch is several mean
 * gaps long; the pause then waits {@link #PAUSE_IN_MEAN_GAPS_WITH_ACK_FREQUENCY} mean gaps, longer than a hold, or
 * it would fire between every two held wakes and wake the receiver more often than its ACKs need. An IMMEDIATE_ACK
 * frame ({@link #ackNow}) makes an ACK due at once.
 * <p>
 * ECN (RFC 9000 section 13.4.1): the tracker counts the ECN codepoint each new packet arrived with (a duplicate
 * changes no count, section 21.10) and, once any packet arrived ECN-capable, writes the three counts into every ACK
 * frame. An ack-eliciting packet marked CE makes an ACK due at once (section 13.2.1), so the sender learns of the
 * congestion within a round trip.
 * <p>
 * Not thread safe; allocation free after construction.
 */
public final class ReceivedPacketTracker
{
    /**
     * Default number of ranges remembered.
     */
    public static final int DEFAULT_MAX_RANGES = 32;

    /**
     * Default number of ack-eliciting packets after which an ACK is sent (RFC 9000 section 13.2.2: "at least two").
     */
    public static final int DEFAULT_ACK_ELICITING_THRESHOLD = 2;

    /**
     * Default longest time an ACK is delayed: 1 ms, LAN friendly.
     */
    public static final long DEFAULT_MAX_ACK_DELAY_NS = 1_000_000L;

    /**
     * Default most ack-eliciting packets one ACK waits for at high rates: 64. A path whose peer asks for an ACK
     * frequency gets at most what it asks (a Pacelink sender asks for one ACK per 10 packets, Chromium's
     * kMaxRetransmittablePacketsBeforeAck, on any path whose quarter RTT exceeds the max ACK delay); this cap
     * decides on the paths that are never asked — a LAN or loopback path, a peer without the extension — and during
     * a sender's startup, where thinning begins only once a quarter of the arrivals per max ACK delay (1 ms) exceeds
     * the lower threshold, above ~100 Mbit/s of full-size packets, passes 32 above ~1.5 Gbit/s and reaches 64 above
     * ~3 Gbit/s. There an ACK per 10 packets cost the receiving thread a send (with loopback's delivery of the ACK)
     * and its build, ~190 ns a data packet, and the sending thread its receive and processing, ~100 ns (loopback bulk
     * at 5-7 Gbit/s, perf/FINDINGS.md, branch {@code bulk22}), and 64 halves the ACKs of 32 where the thinning
     * reaches it (branch {@code bulk25}). At 64 full-size datagrams an ACK covers about one and a half 64-KB GRO
     * aggregates, each of which a Linux TCP receiver acknowledges with one ACK.
     */
    public static final int DEFAULT_MAX_THINNED_THRESHOLD = 64;

    /**
     * Ack-eliciting packets received before ACKs are thinned: slow start grows the sender's window per ACK, so the
     * first ones go every {@code ackElicitingThreshold} packets (Chromium's kMinReceivedBeforeAckDecimation).
     */
    public static final int PACKETS_BEFORE_THINNING = 100;

    /**
     * An ACK waits for at most one in this many of the packets that arrived in the last max ACK delay.
     */
    private static final int ARRIVALS_PER_THINNED_ACK = 4;

    /**
     * Arrivals pausing for this many mean gaps between them end a thinned ACK's wait.
     */
    private static final int PAUSE_IN_MEAN_GAPS = 2;

    /**
     * The pause once the peer asked for an ACK frequency: twice the hold of arrivals ({@code WakeCoalescing}'s eight
     * mean gaps), so held wakes, stamped when read, never look like a pause.
     */
    public static final int PAUSE_IN_MEAN_GAPS_WITH_ACK_FREQUENCY = 16;

    /**
     * {@link #applyAckFrequency}: the frame's values are in force.
     */
    public static final int ACK_FREQUENCY_APPLIED = 0;

    /**
     * {@link #applyAckFrequency}: the frame is no newer than one already applied (reordered or repeated): ignored
     * (draft-ietf-quic-ack-frequency section 4).
     */
    public static final int ACK_FREQUENCY_STALE = 1;

    /**
     * {@link #applyAckFrequency}: the requested delay is below the min ACK delay this side announced, or at or above
     * {@link #MAX_REQUESTED_ACK_DELAY_NS}: a PROTOCOL_VIOLATION (draft-ietf-quic-ack-frequency section 4).
     */
    public static final int ACK_FREQUENCY_INVALID_DELAY = 2;

    /**
     * A requested max ACK delay must stay below 2^14 ms, the limit RFC 9000 section 18.2 sets for max_ack_delay.
     */
    public static final long MAX_REQUESTED_ACK_DELAY_NS = (1L << 14) * 1_000_000L;

    /**
     * The largest ack-eliciting threshold honoured: one above it would not fit an int, and no ACK waits longer than
     * the delay in force anyway.
     */
    private static final int MAX_HONOURED_THRESHOLD = Integer.MAX_VALUE - 1;

    /**
     * How far beyond the largest packet number received a new one may lie. A sender's numbers advance by one per packet
     * (plus the odd skipped number), so a jump means that many packets in a row were lost: 2^24 is four times the most
     * packets any Pacelink sender tracks in flight. A number further out comes from a forger or a broken peer and is
     * dropped: acknowledging it would make this side look like an optimistic ACKer (RFC 9000 section 17.1 bounds the
     * same jump by its packet-number encoding, appendix A.3).
     */
    public static final long MAX_PACKET_NUMBER_JUMP = 1L << 24;

    private static final long NO_DEADLINE = Long.MAX_VALUE;
    private static final long NANOS_PER_MICRO = 1_000L;

    private final int maxRanges;
    private final int defaultAckElicitingThreshold;
    private final long minAckDelayNs;
    private final int localMaxPacketsPerAck;
    private int ackElicitingThreshold;
    private int maxThinnedThreshold;
    private long maxAckDelayNs;
    private long largestAckFrequencySequence = -1;
    private boolean isIgnoringOrder;
    private int pauseInMeanGaps = PAUSE_IN_MEAN_GAPS;
    private final long[] rangeLargest;
    private final long[] rangeSmallest;
    private final AckFrameFlyweight ackFrame = new AckFrameFlyweight();

    private int rangeCount;
    private long largestReceived = -1;
    private long largestReceivedTimeNs;
    private long lowestAcceptedPacketNumber;
    private int ackElicitingSinceLastAck;
    private long ackDeadlineNs = NO_DEADLINE;
    private long delayedAckDeadlineNs = NO_DEADLINE;
    private boolean isImmediateAckDue;
    private long ackElicitingReceived;
    private long arrivalWindowStartNs;
    private int arrivalsInWindow;
    private int currentThreshold;
    private long pauseNs = NO_DEADLINE;
    private boolean hasNewAckInformation;
    private long ect0Received;
    private long ect1Received;
    private long ceReceived;

    /**
     * A tracker with the default range cap, threshold and max ack delay.
     */
    public ReceivedPacketTracker()
    {
        this(DEFAULT_MAX_RANGES, DEFAULT_ACK_ELICITING_THRESHOLD, DEFAULT_MAX_ACK_DELAY_NS);
    }

    /**
     * A tracker with the default ack-eliciting threshold.
     *
     * @param maxRanges     most disjoint ranges remembered (at least 1).
     * @param maxAckDelayNs longest an ACK is delayed; announced to the peer as max_ack_delay.
     */
    public ReceivedPacketTracker(final int maxRanges, final long maxAckDelayNs)
    {
        this(maxRanges, DEFAULT_ACK_ELICITING_THRESHOLD, maxAckDelayNs);
    }

    /**
     * @param maxRanges             most disjoint ranges remembered (at least 1).
     * @param ackElicitingThreshold ack-eliciting packets that make an ACK due (at least 1).
     * @param maxAckDelayNs         longest an ACK is delayed after the first unacknowledged ack-eliciting packet;
     *                              announced to the peer as max_ack_delay.
     */
    public ReceivedPacketTracker(final int maxRanges, final int ackElicitingThreshold, final long maxAckDelayNs)
    {
        this(maxRanges, ackElicitingThreshold, ackElicitingThreshold, maxAckDelayNs);
    }

    /**
     * @param maxRanges             most disjoint ranges remembered (at least 1).
     * @param ackElicitingThreshold ack-eliciting packets that make an ACK due (at least 1).
     * @param maxThinnedThreshold   most ack-eliciting packets an in-order ACK waits for at high rates; at or below
     *                              {@code ackElicitingThreshold}, ACKs are never thinned.
     * @param maxAckDelayNs         longest an ACK is delayed after the first unacknowledged ack-eliciting packet;
     *                              announced to the peer as max_ack_delay.
     */
    public ReceivedPacketTracker(
        final int maxRanges, final int ackElicitingThreshold, final int maxThinnedThreshold, final long maxAckDelayNs)
    {
        if (maxRanges < 1 || ackElicitingThreshold < 1 || maxAckDelayNs < 0)
        {
            throw new IllegalArgumentException("maxRanges=" + maxRanges + " ackElicitingThreshold=" +
                ackElicitingThreshold + " maxAckDelayNs=" + maxAckDelayNs);
        }
        this.maxRanges = maxRanges;
        this.defaultAckElicitingThreshold = ackElicitingThreshold;
        this.minAckDelayNs = maxAckDelayNs;
        this.ackElicitingThreshold = ackElicitingThreshold;
        this.maxThinnedThreshold = Math.max(ackElicitingThreshold, maxThinnedThreshold);
        this.localMaxPacketsPerAck = this.maxThinnedThreshold;
        this.currentThreshold = ackElicitingThreshold;
        this.maxAckDelayNs = maxAckDelayNs;
        // One spare slot: a range is inserted first and the oldest trimmed after.
        this.rangeLargest = new long[maxRanges + 1];
        this.rangeSmallest = new long[maxRanges + 1];
    }

    /**
     * Record a packet that passed validation. Call it before applying the frames and drop the packet on false, or
     * check {@link #isDuplicate(long)} first and record once the frames were applied.
     *
     * @param packetNumber the packet's number.
     * @param ackEliciting true if the packet carries a frame other than ACK, PADDING or CLOSE.
     * @param nowNs        the time it was received.
     * @return true if the packet is new and its frames should be applied; false for a duplicate (already received,
     * or below everything still tracked), which must be dropped.
     */
    public boolean onPacketReceived(final long packetNumber, final boolean ackEliciting, final long nowNs)
    {
        return onPacketReceived(packetNumber, ackEliciting, EcnCodepoint.NOT_ECT, nowNs);
    }

    /**
     * Record a packet that passed validation, with the ECN codepoint it arrived with. Call it before applying the
     * frames and drop the packet on false, or check {@link #isDuplicate(long)} first and record once the frames were
     * applied.
     *
     * @param packetNumber the packet's number.
     * @param ackEliciting true if the packet carries a frame other than ACK, PADDING or CLOSE.
     * @param ecnCodepoint the IP header's ECN field ({@link EcnCodepoint}); not-ECT when the port cannot read it.
     * @param nowNs        the time it was received.
     * @return true if the packet is new and its frames should be applied; false for a duplicate (already received,
     * or below everything still tracked), which must be dropped and changes no ECN count.
     */
    public boolean onPacketReceived(
        final long packetNumber, final boolean ackEliciting, final int ecnCodepoint, final long nowNs)
    {
        return onPacketReceived(packetNumber, ackEliciting, ecnCodepoint, nowNs, nowNs);
    }

    /**
     * Record a packet that passed validation and arrived before it was read, as
     * {@link #onPacketReceived(long, boolean, int, long)}. Only the ACK Delay field is timed by the arrival: RFC 9000
     * section 13.2.5 measures it from when the largest acknowledged packet was received, so a receiver that reads
     * its socket late, a train at a time, reports how long each packet waited in it, and the sender can time the
     * delivery when it happened rather than when this side got round to it. The ACK's deadlines, which bound this
     * side's own delay, keep {@code nowNs}.
     *
     * @param packetNumber the packet's number.
     * @param ackEliciting true if the packet carries a frame other than ACK, PADDING or CLOSE.
     * @param ecnCodepoint the IP header's ECN field ({@link EcnCodepoint}); not-ECT when the port cannot read it.
     * @param arrivalNs    when the datagram arrived (the kernel's receive time where the port reads it); later than
     *                     {@code nowNs} counts as {@code nowNs}.
     * @param nowNs        the time it was read.
     * @return as {@link #onPacketReceived(long, boolean, int, long)}.
     */
    public boolean onPacketReceived(
        final long packetNumber,
        final boolean ackEliciting,
        final int ecnCodepoint,
        final long arrivalNs,
        final long nowNs)
    {
        final int index = gapIndex(packetNumber);
        if (index < 0)
        {
            return false;
        }

        // The packet now lies in the gap above range [index] (if any) and below range [index - 1] (if any).
        final boolean joinsBelow = index < rangeCount && packetNumber == rangeLargest[index] + 1;
        final boolean joinsAbove = index > 0 && packetNumber == rangeSmallest[index - 1] - 1;
        if (joinsBelow && joinsAbove)
        {
            rangeSmallest[index - 1] = rangeSmallest[index];
            removeRange(index);
        }
        else if (joinsBelow)
        {
            rangeLargest[index] = packetNumber;
        }
        else if (joinsAbove)
        {
            rangeSmallest[index - 1] = packetNumber;
        }
        else
        {
            insertRange(index, packetNumber);
        }

        // In order means exactly one above the largest so far; packet numbers start at 0 (RFC 9000 section 12.3).
        final boolean inOrder = packetNumber == largestReceived + 1;
        if (packetNumber > largestReceived)
        {
            largestReceived = packetNumber;
            largestReceivedTimeNs = Math.min(arrivalNs, nowNs);
        }
        hasNewAckInformation = true;
        final boolean isCeMarked = countEcn(ecnCodepoint);

        if (ackEliciting)
        {
            ackElicitingSinceLastAck++;
            if (maxThinnedThreshold > ackElicitingThreshold)
            {
                countArrival(nowNs);
            }
            if (NO_DEADLINE == delayedAckDeadlineNs)
            {
                delayedAckDeadlineNs = nowNs + maxAckDelayNs;
            }
            if ((!inOrder && !isIgnoringOrder) || isCeMarked || ackElicitingSinceLastAck >= currentThreshold)
            {
                // RFC 9000 section 13.2.1: acknowledge out-of-order packets and packets marked CE without delay, to
                // speed up loss detection and the congestion response at the sender; section 13.2.2: and after
                // every second ack-eliciting packet (or the thinned threshold at high rates).
                isImmediateAckDue = true;
                ackDeadlineNs = Math.min(ackDeadlineNs, nowNs);
            }
            else if (!isImmediateAckDue)
            {
                ackDeadlineNs = NO_DEADLINE == pauseNs ?
                    delayedAckDeadlineNs : Math.min(delayedAckDeadlineNs, nowNs + pauseNs);
            }
        }
        return true;
    }

    /**
     * @return true if the packet arrived marked CE.
     */
    private boolean countEcn(final int ecnCodepoint)
    {
        switch (ecnCodepoint & EcnCodepoint.MASK)
        {
            case EcnCodepoint.ECT_0:
                ect0Received++;
                return false;

            case EcnCodepoint.ECT_1:
                ect1Received++;
                return false;

            case EcnCodepoint.CE:
                ceReceived++;
                return true;

            default:
                return false;
        }
    }

    /**
     * @return new packets that arrived with ECT(0).
     */
    public long ect0Received()
    {
        return ect0Received;
    }

    /**
     * @return new packets that arrived with ECT(1).
     */
    public long ect1Received()
    {
        return ect1Received;
    }

    /**
     * @return new packets that arrived marked CE (Congestion Experienced).
     */
    public long ceReceived()
    {
        return ceReceived;
    }

    /**
     * @return true once any packet arrived ECN-capable: from then on every ACK frame carries the ECN counts.
     */
    public boolean hasEcnCounts()
    {
        return 0 != (ect0Received | ect1Received | ceReceived);
    }

    /**
     * @return ack-eliciting packets an in-order ACK waits for now.
     */
    public int ackElicitingThreshold()
    {
        return currentThreshold;
    }

    /**
     * Count an ack-eliciting arrival in the current window of one max ACK delay; when the window ends, set the
     * threshold to a quarter of its arrivals (within the bounds), and the pause that ends an ACK's wait to twice their
     * mean gap.
     */
    private void countArrival(final long nowNs)
    {
        ackElicitingReceived++;
        final long windowNs = Math.max(1, maxAckDelayNs);
        final long elapsedNs = nowNs - arrivalWindowStartNs;
        if (elapsedNs >= windowNs)
        {
            // A window with no arrival after this one's end (an idle spell) starts again from the lowest threshold.
            final int arrivals = elapsedNs < 2 * windowNs ? arrivalsInWindow : 0;
            final int threshold = ackElicitingReceived < PACKETS_BEFORE_THINNING ? ackElicitingThreshold :
                Math.max(ackElicitingThreshold, Math.min(maxThinnedThreshold, arrivals / ARRIVALS_PER_THINNED_ACK));
            currentThreshold = threshold;
            pauseNs = threshold > ackElicitingThreshold ? pauseInMeanGaps * windowNs / arrivals : NO_DEADLINE;
            arrivalWindowStartNs = nowNs;
            arrivalsInWindow = 0;
        }
        arrivalsInWindow++;
    }

    /**
     * Follow the peer's ACK_FREQUENCY frame (draft-ietf-quic-ack-frequency section 6): from now on an ACK waits for at
     * most {@code ackElicitingThreshold + 1} ack-eliciting packets, and never more than this side's own
     * {@code maxThinnedThreshold} (thinned below that as at high rates, never above), and at most
     * {@code requestedMaxAckDelayNs}; a reordering threshold of 0 stops out-of-order packets from making an
     * ACK due at once, any other keeps RFC 9000 section 13.2.1's immediate ACK of every out-of-order packet (which
     * acknowledges sooner than a larger threshold asks, as the draft allows). An ACK already waiting keeps its
     * deadline.
     *
     * @param sequenceNumber         the frame's sequence number.
     * @param ackElicitingThreshold  ack-eliciting packets the peer lets this side receive before an ACK is due.
     * @param requestedMaxAckDelayNs the max ACK delay the peer asks for.
     * @param reorderingThreshold    the frame's reordering threshold.
     * @return {@link #ACK_FREQUENCY_APPLIED}, {@link #ACK_FREQUENCY_STALE} (ignored, whatever it asks) or
     * {@link #ACK_FREQUENCY_INVALID_DELAY} (ignored; the connection closes).
     */
    public int applyAckFrequency(
        final long sequenceNumber,
        final int ackElicitingThreshold,
        final long requestedMaxAckDelayNs,
        final int reorderingThreshold)
    {
        if (sequenceNumber <= largestAckFrequencySequence)
        {
            return ACK_FREQUENCY_STALE; // whatever it asks: a reordered or repeated frame says nothing new
        }
        if (requestedMaxAckDelayNs < minAckDelayNs || requestedMaxAckDelayNs >= MAX_REQUESTED_ACK_DELAY_NS)
        {
            return ACK_FREQUENCY_INVALID_DELAY;
        }
        largestAckFrequencySequence = sequenceNumber;
        // Never more packets per ACK than this side's own cap (PacelinkContext.maxThinnedAckThreshold): a receiver
        // may acknowledge more often than asked (draft-ietf-quic-ack-frequency section 6), and an application that
        // set the cap to 2 asked for an ACK of every second packet at any rate, whatever the peer would like.
        final int packetsPerAck = Math.min(localMaxPacketsPerAck,
            Math.min(Math.max(0, ackElicitingThreshold), MAX_HONOURED_THRESHOLD) + 1);
        this.ackElicitingThreshold = Math.min(defaultAckElicitingThreshold, packetsPerAck);
        this.maxThinnedThreshold = packetsPerAck;
        this.maxAckDelayNs = requestedMaxAckDelayNs;
        this.isIgnoringOrder = 0 == reorderingThreshold;
        this.pauseInMeanGaps = PAUSE_IN_MEAN_GAPS_WITH_ACK_FREQUENCY;
        currentThreshold = Math.min(Math.max(currentThreshold, this.ackElicitingThreshold), packetsPerAck);
        return ACK_FREQUENCY_APPLIED;
    }

    /**
     * The peer asked for this packet to be acknowledged without delay (an IMMEDIATE_ACK frame,
     * draft-ietf-quic-ack-frequency section 5). Call after {@link #onPacketReceived} for the packet that carried it.
     *
     * @param nowNs the time now.
     */
    public void ackNow(final long nowNs)
    {
        isImmediateAckDue = true;
        ackDeadlineNs = Math.min(ackDeadlineNs, nowNs);
    }

    /**
     * @return the max ACK delay in force: the one announced, or the one the peer asked for last.
     */
    public long maxAckDelayNs()
    {
        return maxAckDelayNs;
    }

    /**
     * @return the smallest max ACK delay the peer may ask for: the one this side announces by default.
     */
    public long minAckDelayNs()
    {
        return minAckDelayNs;
    }

    /**
     * @return the sequence number of the newest ACK_FREQUENCY frame applied, -1 before any.
     */
    public long ackFrequencySequence()
    {
        return largestAckFrequencySequence;
    }

    /**
     * Check a packet without recording it, for a receiver that records only after the frames were applied.
     *
     * @param packetNumber the packet's number.
     * @return true if {@link #onPacketReceived} would reject it as a duplicate.
     */
    public boolean isDuplicate(final long packetNumber)
    {
        return gapIndex(packetNumber) < 0;
    }

    /**
     * @param nowNs the current time.
     * @return true if an ACK should be sent now, alone if nothing else is going out.
     */
    public boolean isAckDue(final long nowNs)
    {
        return nowNs >= ackDeadlineNs;
    }

    /**
     * @return when an ACK becomes due (possibly already passed), or {@link Long#MAX_VALUE} if no ack-eliciting
     * packet awaits acknowledgement; for the agent's timer.
     */
    public long ackDeadlineNs()
    {
        return ackDeadlineNs;
    }

    /**
     * @return true if any packet was received since the last ACK was written, so an ACK piggybacked on an outgoing
     * packet would tell the peer something new.
     */
    public boolean hasNewAckInformation()
    {
        return hasNewAckInformation;
    }

    /**
     * Write an ACK frame of the tracked ranges, newest first, with as many ranges as fit in the packet and in
     * {@link PacketDecoder#MAX_ACK_RANGES} (RFC 9000 section 13.2.3: older ranges are omitted first), then mark
     * the ACK as sent: the ack-eliciting count, the deadline and the new-information flag reset.
     *
     * @param writer a packet being built.
     * @param nowNs  the current time, for the ACK delay field (RFC 9000 section 13.2.5).
     * @return bytes written, or 0 if nothing was received yet or not even a single-range ACK fits.
     */
    public int writeAckFrame(final PacketWriter writer, final long nowNs)
    {
        final boolean hasEcnCounts = hasEcnCounts();
        final int remaining = writer.remaining();
        final int smallestFrameLength = AckFrameFlyweight.frameLength(0, hasEcnCounts);
        if (0 == rangeCount || remaining < smallestFrameLength)
        {
            return 0;
        }

        final long delayMicros = Math.max(0, (nowNs - largestReceivedTimeNs) / NANOS_PER_MICRO);
        final long firstRangeSpan = rangeLargest[0] - rangeSmallest[0];
        if (1 == rangeCount && firstRangeSpan <= Integer.MAX_VALUE)
        {
            // One contiguous range, the common case (everything since the last ACK arrived in order): the frame
            // written whole, without the range walk and the flyweight; the same bytes.
            final int frameLength = writer.appendSingleRangeAck(rangeLargest[0],
                (int)Math.min(delayMicros, Integer.MAX_VALUE), (int)firstRangeSpan, hasEcnCounts, ect0Received,
                ect1Received, ceReceived);
            if (0 == frameLength)
            {
                return 0;
            }
            onAckFrameWritten();
            return frameLength;
        }
        final int rangesThatFit = (remaining - smallestFrameLength) / AckFrameFlyweight.BYTES_PER_RANGE;
        final int maxAdditionalRanges = Math.min(
            rangeCount - 1, Math.min(PacketDecoder.MAX_ACK_RANGES, rangesThatFit));

        // Fields are 32 bits on the wire: a range that cannot be expressed ends the frame. Acknowledging less is
        // always safe (the sender retransmits), acknowledging more never is.
        final int firstRange = (int)Math.min(firstRangeSpan, Integer.MAX_VALUE);
        int additionalRanges = 0;
        if (firstRangeSpan <= Integer.MAX_VALUE)
        {
            while (additionalRanges < maxAdditionalRanges && isEncodable(additionalRanges + 1))
            {
                additionalRanges++;
            }
        }

        final int frameOffset = writer.appendAck(
            rangeLargest[0], (int)Math.min(delayMicros, Integer.MAX_VALUE), firstRange, additionalRanges,
            hasEcnCounts);
        if (frameOffset < 0)
        {
            return 0;
        }

        ackFrame.wrap(writer.buffer(), frameOffset);
        for (int i = 1; i <= additionalRanges; i++)
        {
            ackFrame.range(i - 1, (int)gap(i), (int)(rangeLargest[i] - rangeSmallest[i]));
        }
        if (hasEcnCounts)
        {
            ackFrame.ecnCounts(ect0Received, ect1Received, ceReceived);
        }
        onAckFrameWritten();
        return AckFrameFlyweight.frameLength(additionalRanges, hasEcnCounts);
    }

    /**
     * An ACK frame was written: nothing waits for one now.
     */
    private void onAckFrameWritten()
    {
        ackElicitingSinceLastAck = 0;
        ackDeadlineNs = NO_DEADLINE;
        delayedAckDeadlineNs = NO_DEADLINE;
        isImmediateAckDue = false;
        hasNewAckInformation = false;
    }

    /**
     * @param packetNumber a received packet's number.
     * @return true if it lies more than {@link #MAX_PACKET_NUMBER_JUMP} beyond the largest received (or beyond the
     * first number expected, 0): drop it unrecorded.
     */
    public boolean isBeyondWindow(final long packetNumber)
    {
        return packetNumber - largestReceived > MAX_PACKET_NUMBER_JUMP;
    }

    /**
     * The peer acknowledged a packet that carried an ACK frame of this tracker: it knows every packet number that frame
     * covered, so stop acknowledging numbers at or below its largest, and treat them as duplicates from now on
     * (RFC 9000 section 13.2.4). A late packet in an old gap is then dropped unacknowledged, and its sender, which
     * declared it lost long ago, has already sent its data again.
     *
     * @param largestAcknowledged the Largest Acknowledged field of the ACK frame the peer saw.
     */
    public void onAckFrameAcknowledged(final long largestAcknowledged)
    {
        if (largestAcknowledged < lowestAcceptedPacketNumber)
        {
            return;
        }
        int kept = 0;
        while (kept < rangeCount && rangeSmallest[kept] > largestAcknowledged)
        {
            kept++;
        }
        if (kept < rangeCount && rangeLargest[kept] > largestAcknowledged)
        {
            rangeSmallest[kept] = largestAcknowledged + 1;
            kept++;
        }
        rangeCount = kept;
        lowestAcceptedPacketNumber = largestAcknowledged + 1;
    }

    /**
     * @return the largest packet number received, or -1 before the first packet.
     */
    public long largestReceived()
    {
        return largestReceived;
    }

    /**
     * @return packets below this number are treated as duplicates.
     */
    public long lowestAcceptedPacketNumber()
    {
        return lowestAcceptedPacketNumber;
    }

    /**
     * @return ack-eliciting packets received since the last ACK was written.
     */
    public int ackElicitingSinceLastAck()
    {
        return ackElicitingSinceLastAck;
    }

    /**
     * @return number of disjoint ranges tracked.
     */
    public int rangeCount()
    {
        return rangeCount;
    }

    /**
     * @param index of the range, 0 being the newest (highest).
     * @return the range's largest packet number.
     */
    public long rangeLargest(final int index)
    {
        return rangeLargest[index];
    }

    /**
     * @param index of the range, 0 being the newest (highest).
     * @return the range's smallest packet number.
     */
    public long rangeSmallest(final int index)
    {
        return rangeSmallest[index];
    }

    /**
     * Where a packet number falls: the index of the first range whose smallest is not above it, so the packet lies in
     * the gap above range [index] (if any) and below range [index - 1] (if any); -1 if it was already received or lies
     * below everything still tracked. Constant time for in-order packets, which land above range 0.
     */
    private int gapIndex(final long packetNumber)
    {
        if (packetNumber < lowestAcceptedPacketNumber)
        {
            return -1;
        }
        int index = 0;
        while (index < rangeCount && packetNumber < rangeSmallest[index])
        {
            index++;
        }
        return index < rangeCount && packetNumber <= rangeLargest[index] ? -1 : index;
    }

    /**
     * RFC 9000 section 19.3.1 inverted: {@code gap = previous_smallest - largest - 2}.
     */
    private long gap(final int index)
    {
        return rangeSmallest[index - 1] - rangeLargest[index] - 2;
    }

    private boolean isEncodable(final int index)
    {
        return gap(index) <= Integer.MAX_VALUE && rangeLargest[index] - rangeSmallest[index] <= Integer.MAX_VALUE;
    }

    private void insertRange(final int index, final long packetNumber)
    {
        System.arraycopy(rangeLargest, index, rangeLargest, index + 1, rangeCount - index);
        System.arraycopy(rangeSmallest, index, rangeSmallest, index + 1, rangeCount - index);
        rangeLargest[index] = packetNumber;
        rangeSmallest[index] = packetNumber;
        rangeCount++;

        if (rangeCount > maxRanges)
        {
            rangeCount = maxRanges;
            lowestAcceptedPacketNumber = rangeSmallest[rangeCount - 1];
        }
    }

    private void removeRange(final int index)
    {
        System.arraycopy(rangeLargest, index + 1, rangeLargest, index, rangeCount - index - 1);
        System.arraycopy(rangeSmallest, index + 1, rangeSmallest, index, rangeCount - index - 1);
        rangeCount--;
    }
}
