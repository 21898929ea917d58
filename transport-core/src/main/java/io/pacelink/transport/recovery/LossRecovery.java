package io.pacelink.transport.recovery;

import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.memory.MemoryBudget;
import io.pacelink.transport.wire.EcnCodepoint;

/**
 * Loss recovery for one connection, the part of the endpoint engine between the wire and the congestion controller
 * (docs/architecture.md). It owns the {@link SentPacketRing}, the {@link RttEstimator}, the {@link RateSampler}, the
 * {@link LossDetector}, bytes in flight and the controller, and drives the controller through the SPI's reused event
 * views. Time is always a parameter; nothing here allocates after construction.
 * <h2>Per ACK frame ({@link #onAckReceived}), in the order of docs/architecture.md</h2>
 * <ol>
 *     <li>Validate: an acknowledged number never sent (above the largest sent, or a skipped number) is reported as
 *     {@link #ERROR_ACK_OF_UNSENT_PACKET} before any state changes (optimistic-ACK defence, RFC 9000 section
 *     21.4).</li>
 *     <li>Mark newly acknowledged packets; if none (and no packet declared lost was acknowledged), stop
 *     (RFC 9002 appendix A.7).</li>
 *     <li>RTT update, only if the frame's largest acknowledged packet is newly acknowledged and at least one newly
 *     acknowledged packet was ack-eliciting, from the largest's send time (RFC 9002 section 5.1).</li>
 *     <li>Rate-sampler update and bytes in flight for each newly acknowledged packet; the engine hears
 *     {@link PacketOutcomeListener#onPacketAcked} (or {@code onPacketAckedAfterLoss} for a spurious loss).</li>
 *     <li>ECN (RFC 9002 Appendix B.7, after the RTT and before loss detection): the frame's ECN counts are judged by
 *     {@link EcnValidation}; a validated increase of the CE count is counted as delivered with a mark for the rate
 *     sampler and, for a controller that takes it as one ({@code isEcnCeCongestionEvent}), reported as a congestion
 *     event about the newest newly acknowledged packet, which starts a recovery period like a loss and is never
 *     undone.</li>
 *     <li>Loss detection: {@code onPacketLost} to the controller and the engine for each lost packet, then
 *     {@code onCongestionEvent} once if any packet counting in flight was lost, flagged when the batch starts a new
 *     {@link RecoveryPeriod} and when it establishes persistent congestion.</li>
 *     <li>The recovery period ends if the frame newly acknowledges a packet sent after it began.</li>
 *     <li>Rate sample generation, {@code onSpuriousLoss} if with this frame every loss of the current recovery has
 *     proved spurious, then {@code onAck}, flagged when the frame ended the recovery period.</li>
 * </ol>
 * <h2>Timers ({@link #timerDeadlineNs()}, {@link #onTimeout})</h2>
 * The loss timer when armed, else the probe timeout from the last ack-eliciting send, backed off by
 * {@code 2^pto_count} (RFC 9002 section 6.2). An expired PTO owes {@link #probesToSend()} ack-eliciting probes, sent
 * whatever the congestion window, and changes nothing in the controller: it is not a loss signal.
 */
public final class LossRecovery
{
    /**
     * {@link #onAckReceived} result: the frame acknowledges a packet number that was never sent. Close the connection.
     */
    public static final int ERROR_ACK_OF_UNSENT_PACKET = -1;

    /**
     * {@link #onAckReceived} result: the ranges are not descending and disjoint, or do not start at the largest.
     */
    public static final int ERROR_MALFORMED_ACK_RANGES = -2;

    /**
     * RFC 9002 section 7.6.1 kPersistentCongestionThreshold.
     */
    static final int PERSISTENT_CONGESTION_THRESHOLD = 3;

    /**
     * Slots the sent-packet ring starts with; it doubles as the flight grows, up to the configured capacity.
     */
    static final int INITIAL_SENT_PACKET_SLOTS = 32;

    /**
     * Heap bytes per ring slot charged to the memory budget: the ring's own and this class's two slot arrays.
     */
    private static final int BYTES_PER_SLOT = SentPacketRing.BYTES_PER_SLOT + 2 * Integer.BYTES;

    private final SentPacketRing ring;
    private final PathParameters path;
    private final RttEstimator rttEstimator;
    private CongestionController controller;
    private final RateSampler rateSampler = new RateSampler();
    private final LossDetector lossDetector;
    private final RecoveryPeriod recoveryPeriod = new RecoveryPeriod();
    private final int probePacketsPerTimeout;
    private final long minRttSampleNs;
    private final MemoryBudget budget;
    private int[] newlyAckedSlots;
    private int[] lostSlots;
    private final int[] spuriouslyLostSlots;
    private final AckEventView ackEvent = new AckEventView(rateSampler);
    /**
     * Whether the frame being processed newly acknowledged the oldest packet in flight (the prefix advanced).
     */
    private boolean isOldestInFlightAcked;
    private boolean isAnyNewlyAckedAckEliciting;
    private final LostPacketView lostPacket;
    private final SentPacketDescriptor deprecatedDescriptor = new SentPacketDescriptor();
    private final CongestionEventView congestionEvent = new CongestionEventView();
    private final EcnValidation ecn;
    private final boolean isEcnEnabled;
    private boolean isEcnCeCongestionEvent;

    private long bytesInFlight;
    private int ackElicitingInFlight;
    private long lastAckElicitingSentTimeNs;
    private long largestAckedPacketNumber = -1;
    private long lastCwndLimitedPacketNumber = -1;
    private long idleSinceNs = Long.MIN_VALUE;
    private int probesOwed;

    private long sentPackets;
    private long sentBytes;
    private long retransmittedPackets;
    private long lostPackets;
    private long spuriousLosses;
    private long persistentCongestionEvents;
    private long ptoExpirations;
    private long rejectedRttSamples;
    /**
     * The RTT on the delivery-rate sample's clock: the ACK's arrival less its believed ACK Delay
     * ({@link #deliveredAtNs}), minus the largest acknowledged packet's send time; its minimum, and the latest.
     */
    private long minDeliveryRttNs = Long.MAX_VALUE;
    private long latestDeliveryRttNs = Long.MAX_VALUE;
    private long ecnCeReactions;
    private int newlyAckedInFlightPackets;
    private long newlyEcnCeBytes;

    /**
     * A loss recovery used on its own (tests, benchmarks): its sent-packet ring has the configured capacity from the
     * start and is charged to no budget.
     *
     * @param config       sizes, thresholds and the adaptive reordering switch.
     * @param path         the connection's datagram size and the peer's max_ack_delay; written through this object.
     * @param rttEstimator the connection's RTT estimator, which the controller reads as its {@code RttStats}.
     * @param controller   the connection's congestion controller.
     * @throws IllegalArgumentException if the configuration is invalid.
     */
    public LossRecovery(
        final RecoveryConfig config,
        final PathParameters path,
        final RttEstimator rttEstimator,
        final CongestionController controller)
    {
        this(config, path, rttEstimator, controller, MemoryBudget.unlimited(), config.sentPacketCapacity());
    }

    /**
     * @param config       sizes, thresholds and the adaptive reordering switch.
     * @param path         the connection's datagram size and the peer's max_ack_delay; written through this object.
     * @param rttEstimator the connection's RTT estimator, which the controller reads as its {@code RttStats}.
     * @param controller   the connection's congestion controller.
     * @param budget       charged as the sent-packet ring grows from {@link #INITIAL_SENT_PACKET_SLOTS} slots; when it
     *                     refuses, the ring stays as it is and the sender waits for acknowledgements, as at the
     *                     ring's configured capacity.
     * @throws IllegalArgumentException if the configuration is invalid.
     */
    public LossRecovery(
        final RecoveryConfig config,
        final PathParameters path,
        final RttEstimator rttEstimator,
        final CongestionController controller,
        final MemoryBudget budget)
    {
        this(config, path, rttEstimator, controller, budget,
            Math.min(INITIAL_SENT_PACKET_SLOTS, config.sentPacketCapacity()));
    }

    private LossRecovery(
        final RecoveryConfig config,
        final PathParameters path,
        final RttEstimator rttEstimator,
        final CongestionController controller,
        final MemoryBudget budget,
        final int initialSlots)
    {
        config.validate();
        this.path = path;
        this.rttEstimator = rttEstimator;
        this.controller = controller;
        this.budget = budget;
        if (!budget.tryCommit((long)initialSlots * BYTES_PER_SLOT))
        {
            throw new IllegalStateException("the memory budget cannot hold a sent-packet ring of " + initialSlots);
        }
        ring = new SentPacketRing(initialSlots, config.sentPacketCapacity());
        lossDetector = new LossDetector(config);
        probePacketsPerTimeout = config.probePackets();
        minRttSampleNs = config.minRttSampleNs();
        newlyAckedSlots = new int[initialSlots];
        lostSlots = new int[initialSlots];
        spuriouslyLostSlots = new int[config.lostPacketHistory()];
        lostPacket = new LostPacketView(ring);
        isEcnEnabled = config.ecn();
        ecn = new EcnValidation(isEcnEnabled);
        isEcnCeCongestionEvent = controller.isEcnCeCongestionEvent();
    }

    /**
     * @param nowNs current time.
     * @return the ECN codepoint to send the next packet with ({@link EcnValidation#codepointToSend}); not-ECT when
     * ECN is off. Pass it to the port with the datagram and to {@code onPacketSent}.
     */
    public int ecnCodepointToSend(final long nowNs)
    {
        return isEcnEnabled ? ecn.codepointToSend(nowNs, ptoPeriodNs()) : EcnCodepoint.NOT_ECT;
    }

    /**
     * @return the connection's ECN validation: its state, failure and counts.
     */
    public EcnValidation ecnValidation()
    {
        return ecn;
    }

    /**
     * @return validated CE increases that started a recovery period: the window reductions ECN caused (0 for a
     * controller that does not take CE as a congestion event).
     */
    public long ecnCeReactions()
    {
        return ecnCeReactions;
    }

    /**
     * @return the RTT estimator.
     */
    public RttEstimator rttEstimator()
    {
        return rttEstimator;
    }

    /**
     * @return the delivery-rate sampler.
     */
    public RateSampler rateSampler()
    {
        return rateSampler;
    }

    /**
     * @return the loss detector.
     */
    public LossDetector lossDetector()
    {
        return lossDetector;
    }

    /**
     * @param maxAckDelayNs the peer's max_ack_delay from its handshake.
     * @throws IllegalArgumentException if negative.
     */
    public void peerMaxAckDelayNs(final long maxAckDelayNs)
    {
        path.peerMaxAckDelayNs(maxAckDelayNs);
    }

    /**
     * The negotiated datagram size changed: from now on the cwnd- and application-limited tests use it, the controller
     * reads it from its context, and the controller is told.
     *
     * @param maxDatagramSizeBytes the new maximum datagram size.
     * @throws IllegalArgumentException if not positive.
     */
    public void onMtuChanged(final int maxDatagramSizeBytes)
    {
        path.maxDatagramSizeBytes(maxDatagramSizeBytes);
        controller.onMtuChanged(maxDatagramSizeBytes);
    }

    /**
     * @return the probe timeout period without back-off, with the peer's max_ack_delay (RFC 9002 section 6.2.1).
     */
    public long ptoPeriodNs()
    {
        return rttEstimator.ptoPeriodNs(path.peerMaxAckDelayNs());
    }

    /**
     * @return true if the next packet number can be tracked: the sender must not send otherwise.
     */
    public boolean canSend()
    {
        return ring.hasCapacity();
    }

    /**
     * @return the connection's congestion controller (a new one after {@link #onPathChanged}).
     */
    public CongestionController controller()
    {
        return controller;
    }

    /**
     * The connection moved to a path that shares nothing with the old one but the peer (a new address, not only a
     * new port): start over with the initial RTT and a fresh controller (RFC 9000 section 9.4; RFC 9002 appendices
     * A.3 and B.3). Packets still in flight on the old path stay tracked for loss and acknowledgement.
     *
     * @param freshController a controller in its initial state, reading the same RTT estimator.
     */
    public void onPathChanged(final CongestionController freshController)
    {
        rttEstimator.reset();
        minDeliveryRttNs = Long.MAX_VALUE;
        latestDeliveryRttNs = Long.MAX_VALUE;
        controller = freshController;
        isEcnCeCongestionEvent = freshController.isEcnCeCongestionEvent();
    }

    /**
     * @param packetNumber a number the sender wants to use, possibly skipping some (optimistic-ACK defence).
     * @return true if it and the skipped numbers can be tracked.
     */
    public boolean canSend(final long packetNumber)
    {
        return ring.hasCapacityFor(packetNumber);
    }

    /**
     * @return the largest packet number sent or skipped, -1 before the first.
     */
    public long largestSentPacketNumber()
    {
        return ring.largestSentPacketNumber();
    }

    /**
     * A packet left, as described: the ring records it (with the ACK frame it carries, so an acknowledgement of this
     * packet can tell the receiver's tracker what its peer has seen), and numbers between the previous largest and
     * this one count as skipped: acknowledging them is an error. For a packet counting in flight the rate sampler
     * stamps it, then the controller hears {@code onTransmitStartAfterIdle} (first send after nothing was in flight
     * while application-limited) and {@code onPacketSent}. A probe pays one of the probes owed.
     *
     * @param packet the packet; read during the call only.
     * @throws IllegalStateException if the packet cannot be tracked ({@link #canSend}).
     */
    public void onPacketSent(final SentPacketDescriptor packet)
    {
        final long packetNumber = packet.packetNumber();
        final long nowNs = packet.sentTimeNs();
        final int sizeBytes = packet.sizeBytes();
        growRingIfFull(packetNumber);
        final int slot = ring.add(packetNumber, nowNs, sizeBytes, packet.isAckEliciting(), packet.countsInFlight(),
            packet.streamOffset(), packet.streamLength(), packet.fin(), packet.frameFlags());
        if (isEcnEnabled && ecn.onPacketSent(packet.ecnCodepoint(), packet.countsInFlight(), nowNs))
        {
            ring.markEcn(slot);
        }
        if (SentPacketDescriptor.NO_ACK_FRAME != packet.ackFrameLargestAcked())
        {
            ring.ackFrameLargestAcked(slot, packet.ackFrameLargestAcked());
        }

        sentPackets++;
        sentBytes += sizeBytes;
        if (packet.isRetransmission())
        {
            retransmittedPackets++;
        }
        if (packet.isAckEliciting())
        {
            ackElicitingInFlight++;
            lastAckElicitingSentTimeNs = nowNs;
        }
        if (packet.countsInFlight())
        {
            onPacketInFlight(packetNumber, slot, nowNs, sizeBytes, packet.isRetransmission());
        }
        if (packet.isProbe())
        {
            onProbeSent();
        }
    }

    /**
     * A packet left.
     *
     * @param packetNumber     the packet's number, larger than any sent before.
     * @param nowNs            send time.
     * @param sizeBytes        datagram size.
     * @param ackEliciting     true if the peer must acknowledge it.
     * @param countsInFlight   true if it counts towards bytes in flight (RFC 9002: ack-eliciting or padding).
     * @param streamOffset     offset of the stream range it carries.
     * @param streamLength     length of that range, 0 for none.
     * @param fin              true if it carries the end of the stream.
     * @param frameFlags       the engine's bits for the frames it carries, returned with its outcome.
     * @param isRetransmission true if it carries retransmitted data.
     * @throws IllegalStateException if the packet cannot be tracked ({@link #canSend}).
     * @deprecated describe the packet once in a reused {@link SentPacketDescriptor} and call
     * {@link #onPacketSent(SentPacketDescriptor)}. To be removed in the next minor version.
     */
    @Deprecated
    public void onPacketSent(
        final long packetNumber,
        final long nowNs,
        final int sizeBytes,
        final boolean ackEliciting,
        final boolean countsInFlight,
        final long streamOffset,
        final int streamLength,
        final boolean fin,
        final int frameFlags,
        final boolean isRetransmission)
    {
        onPacketSent(deprecatedDescriptor.reset(packetNumber, nowNs)
            .sizeBytes(sizeBytes)
            .ackEliciting(ackEliciting)
            .countsInFlight(countsInFlight)
            .streamRange(streamOffset, streamLength, fin, isRetransmission)
            .frameFlags(frameFlags));
    }

    private void onPacketInFlight(
        final long packetNumber, final int slot, final long nowNs, final int sizeBytes, final boolean isRetransmission)
    {
        final long bytesInFlightBefore = bytesInFlight;
        final boolean isRestartAfterIdle =
            0 == bytesInFlightBefore && Long.MIN_VALUE != idleSinceNs && rateSampler.isAppLimited();
        rateSampler.onPacketSent(ring, slot, nowNs, bytesInFlightBefore);
        bytesInFlight += sizeBytes;

        // Linux tcp_cwnd_validate: remember the last packet sent with the window (nearly) full; the flight it
        // belongs to is cwnd-limited until the ACKs reach it (RFC 7661, RFC 9002 section 7.8).
        if (bytesInFlight + path.maxDatagramSizeBytes() >= controller.congestionWindowBytes())
        {
            lastCwndLimitedPacketNumber = packetNumber;
        }

        if (isRestartAfterIdle)
        {
            controller.onTransmitStartAfterIdle(nowNs, nowNs - idleSinceNs);
        }
        controller.onPacketSent(nowNs, packetNumber, sizeBytes, bytesInFlight, isRetransmission);
    }

    /**
     * Process one ACK frame (see the class description for the order of effects).
     *
     * @param ack        the frame's ranges.
     * @param ackDelayNs the ACK delay the peer reported.
     * @param nowNs      current time.
     * @param listener   told what became of each packet.
     * @return the number of packets newly acknowledged (including ones declared lost before), or
     * {@link #ERROR_ACK_OF_UNSENT_PACKET} / {@link #ERROR_MALFORMED_ACK_RANGES}, in which case nothing changed.
     */
    public int onAckReceived(
        final AckRanges ack, final long ackDelayNs, final long nowNs, final PacketOutcomeListener listener)
    {
        return onAckReceived(ack, ackDelayNs, nowNs, nowNs, listener);
    }

    /**
     * Process one ACK frame that arrived before it is processed (see the class description for the order of
     * effects). Only the delivery-rate sample is timed by the arrival — {@code C.deliveredTime} and the sample's ACK
     * span, as Linux times them by {@code tp->tcp_mstamp}, the ACK's receive time, and the delivery-rate draft by the
     * ACK's arrival, less the peer's own reported delay ({@link #deliveredAtNs}) — so a sender whose thread reads
     * its ACKs late (a wake's lateness, a hold of arrivals) measures the path's rate, not its own wake-ups: a late
     * read stretches one sample's span and shortens the next, and the next is what a max filter keeps. RTT samples,
     * loss detection and timers keep {@code nowNs}, so an RTT sample is never shorter than the path's.
     *
     * @param ack        the frame's ranges.
     * @param ackDelayNs the ACK delay the peer reported.
     * @param arrivalNs  when the datagram carrying the frame arrived; later than {@code nowNs} counts as
     *                   {@code nowNs}.
     * @param nowNs      current time.
     * @param listener   told what became of each packet.
     * @return as {@link #onAckReceived(AckRanges, long, long, PacketOutcomeListener)}.
     */
    public int onAckReceived(
        final AckRanges ack,
        final long ackDelayNs,
        final long arrivalNs,
        final long nowNs,
        final PacketOutcomeListener listener)
    {
        final int validation = validate(ack);
        if (validation < 0)
        {
            return validation;
        }

        final long priorBytesInFlight = bytesInFlight;
        final long priorLargestAcked = largestAckedPacketNumber;
        final boolean isCwndLimited = isCwndLimited();
        final long largestAcked = ack.largestAcked();
        final boolean isLargestNewlyAcked = ring.isInFlight(largestAcked);
        largestAckedPacketNumber = Math.max(largestAckedPacketNumber, largestAcked);

        final int newlyAcked = markNewlyAcked(ack);
        // A declared loss is watched for a late acknowledgement as long as the persistent-congestion duration: far
        // longer than reordering delays packets, short enough to keep the history small (an engineering choice).
        final int spuriouslyLost = lossDetector.collectSpuriouslyLost(
            ack, ring, nowNs, persistentCongestionDurationNs(), priorLargestAcked, recoveryPeriod.startNs(),
            spuriouslyLostSlots);
        if (0 == newlyAcked && 0 == spuriouslyLost)
        {
            return 0;
        }

        final boolean anyAckEliciting = isAnyNewlyAckedAckEliciting;
        long largestAckedSentTimeNs = Long.MIN_VALUE;
        long largestNewlyAckedPacketNumber = -1;
        long latestRttNs = -1;
        if (newlyAcked > 0)
        {
            // Slots were collected from the highest packet number down: the first is the newest.
            largestAckedSentTimeNs = ring.sentTimeNs(newlyAckedSlots[0]);
            largestNewlyAckedPacketNumber = ring.packetNumber(newlyAckedSlots[0]);
            latestRttNs = nowNs - largestAckedSentTimeNs;
        }
        final long deliveredAtNs = deliveredAtNs(ackDelayNs, arrivalNs, nowNs);
        if (isLargestNewlyAcked && anyAckEliciting)
        {
            final long largestAckedSentNs = ring.sentTimeNs(ring.slot(largestAcked));
            final long rttSampleNs = nowNs - largestAckedSentNs;
            if (rttSampleNs < minRttSampleNs)
            {
                // Faster than any path: an acknowledgement sent before the packet could arrive. Believing it would
                // drag min_rtt, and every controller's estimate of the path, down to nothing.
                rejectedRttSamples++;
            }
            else
            {
                rttEstimator.onRttSample(nowNs, rttSampleNs, ackDelayNs, path.peerMaxAckDelayNs());
                latestDeliveryRttNs = deliveredAtNs - largestAckedSentNs;
                minDeliveryRttNs = Math.min(minDeliveryRttNs, latestDeliveryRttNs);
            }
        }

        rateSampler.beginAck();
        final long newlyAckedBytes = applyAcked(deliveredAtNs, newlyAcked, listener);
        applyAckedAfterLoss(deliveredAtNs, spuriouslyLost, listener);
        lossDetector.onAckReceived();
        final long newlyEcnCePackets = isEcnEnabled ?
            onEcnCounts(ack, largestAcked > priorLargestAcked, newlyAcked, newlyAckedBytes, largestAckedSentTimeNs,
                nowNs) : 0;

        final long newlyLostBytes = detectLosses(nowNs, listener);
        // After the frame's losses, which may start a period this frame cannot end (RFC 9002 Appendix B.5).
        final boolean endsRecovery = recoveryPeriod.onAck(largestAckedSentTimeNs);

        rateSampler.generateSample(sampleFloorNs());
        if (lossDetector.takeSpuriousLossReport())
        {
            controller.onSpuriousLoss(nowNs);
        }
        controller.onAck(ackEvent.wrap(
            nowNs,
            newlyAckedBytes,
            newlyLostBytes,
            priorBytesInFlight,
            bytesInFlight,
            largestNewlyAckedPacketNumber,
            latestRttNs,
            isCwndLimited,
            endsRecovery,
            isOldestInFlightAcked).ecn(
            EcnValidation.CAPABLE == ecn.state(), newlyEcnCePackets, newlyEcnCeBytes));

        noteIdle(priorBytesInFlight, nowNs);
        return newlyAcked + spuriouslyLost;
    }

    /**
     * The shortest interval a delivery-rate sample may span (Linux {@code tcp_rate_gen} drops shorter ones: no real
     * measurement of the path), on the sample's own clock. Linux times the spans and {@code tcp_min_rtt} alike, by
     * the ACK's processing; here the spans run from the ACK's arrival less its believed ACK Delay, and min_rtt from
     * its processing with the delay in (RFC 9002 section 5.2), so the floor is the minimum RTT on the spans' clock
     * as well: against min_rtt, a sample whose ACK was processed later than it arrived (the agent's wake after the
     * arrival) or delayed by the peer is shorter than the floor by that much even on an empty path. A round of BBR's
     * PROBE_RTT, whose four packets leave together and are acknowledged at once, then restarts the sample's clock
     * at each send and never yields a valid sample, so BBR counts no round and never leaves PROBE_RTT
     * (perf/FINDINGS.md, branch {@code cpu18}). Never above min_rtt; a peer that reports a delay it did not have
     * lowers it by no more than it shortens a span, its max_ack_delay at most. Where ACKs are read as they arrive and
     * report no delay, it is min_rtt, as before.
     *
     * @return the floor, {@link Long#MAX_VALUE} before any RTT sample (no rate sample is valid then).
     */
    private long sampleFloorNs()
    {
        return rttEstimator.hasSample() ? Math.min(rttEstimator.minRttNs(), minDeliveryRttNs) : Long.MAX_VALUE;
    }

    /**
     * When the ACK's packets were delivered, for the delivery-rate sample: its arrival less the ACK Delay the peer
     * reported, which RFC 9000 section 13.2.5 measures from the receipt of the largest acknowledged packet. A
     * receiver that reads its socket late and in trains (a thread waiting for a CPU, a drain of a backlog) sends
     * its ACKs compressed: each arrives here sooner after the last than the packets it acknowledges arrived there,
     * and a max filter keeps the short spans (draft-cheng-iccrg-delivery-rate-estimation: "ACK compression").
     * Taking its own delay out gives the spans the packets had at the receiver. The delay believed is at most the
     * peer's max_ack_delay, as RFC 9002 section 5.3 bounds it for RTT samples, so a broken or lying peer can
     * shorten a sample's ACK span by no more than that; the sample still takes the longer of its send and ACK
     * spans and drops intervals under the min RTT (Linux {@code tcp_rate_gen}), and {@code C.delivered_time} still
     * never goes back ({@link RateSampler#onPacketDelivered}).
     *
     * @param ackDelayNs the ACK delay the peer reported.
     * @param arrivalNs  when the datagram carrying the frame arrived; later than {@code nowNs} counts as
     *                   {@code nowNs}.
     * @param nowNs      current time.
     * @return the delivery time to stamp.
     */
    private long deliveredAtNs(final long ackDelayNs, final long arrivalNs, final long nowNs)
    {
        final long believedDelayNs = Math.max(0, Math.min(ackDelayNs, path.peerMaxAckDelayNs()));
        return Math.min(arrivalNs, nowNs) - believedDelayNs;
    }

    /**
     * The timer of {@link #timerDeadlineNs()} fired (calling early does nothing): on the loss timer declare the
     * packets whose time threshold passed; on the probe timeout back off and owe probes.
     *
     * @param nowNs    current time.
     * @param listener told of packets declared lost.
     */
    public void onTimeout(final long nowNs, final PacketOutcomeListener listener)
    {
        final long lossTimeNs = lossDetector.lossTimeNs();
        if (Long.MAX_VALUE != lossTimeNs)
        {
            if (nowNs >= lossTimeNs)
            {
                final long priorBytesInFlight = bytesInFlight;
                detectLosses(nowNs, listener);
                noteIdle(priorBytesInFlight, nowNs);
            }
            return;
        }

        if (0 == ackElicitingInFlight || nowNs < ptoDeadlineNs())
        {
            return;
        }

        lossDetector.onPtoExpired();
        ptoExpirations++;
        probesOwed = probePacketsPerTimeout;
    }

    /**
     * @return when {@link #onTimeout} must run: the loss timer if armed, else the probe timeout while an
     * ack-eliciting packet is in flight, else {@link Long#MAX_VALUE}.
     */
    public long timerDeadlineNs()
    {
        final long lossTimeNs = lossDetector.lossTimeNs();
        if (Long.MAX_VALUE != lossTimeNs)
        {
            return lossTimeNs;
        }
        return 0 == ackElicitingInFlight ? Long.MAX_VALUE : ptoDeadlineNs();
    }

    /**
     * Before a packet is recorded: if the ring would then have no slot for the next number and one to skip, double it
     * while the memory budget allows, so the flight is never held back by the ring below its configured capacity.
     *
     * @param packetNumber the packet about to be recorded.
     */
    private void growRingIfFull(final long packetNumber)
    {
        if (!ring.hasCapacityFor(packetNumber + 2) && ring.capacity() < ring.maxCapacity() &&
            budget.tryCommit((long)ring.capacity() * BYTES_PER_SLOT))
        {
            ring.grow();
            newlyAckedSlots = new int[ring.capacity()];
            lostSlots = new int[ring.capacity()];
        }
    }

    /**
     * The connection closed: credit the ring's memory to the budget. Nothing may be sent afterwards.
     */
    public void releaseMemory()
    {
        budget.release((long)ring.capacity() * BYTES_PER_SLOT);
    }

    /**
     * @return bytes of sent-packet records committed now.
     */
    public long committedBytes()
    {
        return (long)ring.capacity() * BYTES_PER_SLOT;
    }

    /**
     * @return ack-eliciting probes owed after a probe timeout; send them even if the congestion window is full.
     */
    public int probesToSend()
    {
        return probesOwed;
    }

    /**
     * One probe owed by {@link #probesToSend()} was sent (after {@link #onPacketSent}).
     */
    public void onProbeSent()
    {
        if (probesOwed > 0)
        {
            probesOwed--;
        }
    }

    /**
     * @return bytes in flight.
     */
    public long bytesInFlight()
    {
        return bytesInFlight;
    }

    /**
     * @return true while a packet sent with less than one datagram of window left is not yet acknowledged, i.e. the
     * current flight was cwnd-limited. This covers "inflight within one MSS of cwnd at any send since the last ACK"
     * and, like Linux's {@code tp->is_cwnd_limited}, stays set across ACKs processed back to back until they reach
     * that packet.
     */
    public boolean isCwndLimited()
    {
        return largestAckedPacketNumber < lastCwndLimitedPacketNumber;
    }

    /**
     * Application-limited check (draft-ietf-ccwg-bbr {@code CheckIfApplicationLimited}); bytes in flight, the window
     * and the MSS come from here. Call on application writes, before processing ACKs and at the start of timers that
     * may transmit.
     *
     * @param unsentBytes                 bytes the application queued that were never sent.
     * @param nothingQueuedBelowTransport true if no packet waits in the pacer or an unsent batch.
     * @param allLostRetransmitted        true if every lost byte was already retransmitted.
     * @return true if the connection was marked application-limited.
     */
    public boolean onAppLimitedCheck(
        final long unsentBytes, final boolean nothingQueuedBelowTransport, final boolean allLostRetransmitted)
    {
        return rateSampler.checkAppLimited(
            unsentBytes,
            path.maxDatagramSizeBytes(),
            nothingQueuedBelowTransport,
            bytesInFlight,
            controller.congestionWindowBytes(),
            allLostRetransmitted);
    }

    /**
     * @return the largest packet number acknowledged, -1 before the first ACK.
     */
    public long largestAckedPacketNumber()
    {
        return largestAckedPacketNumber;
    }

    /**
     * @return packets sent, probes and retransmissions included.
     */
    public long sentPackets()
    {
        return sentPackets;
    }

    /**
     * @return bytes sent.
     */
    public long sentBytes()
    {
        return sentBytes;
    }

    /**
     * @return packets sent that carried retransmitted data.
     */
    public long retransmittedPackets()
    {
        return retransmittedPackets;
    }

    /**
     * @return packets counting in flight declared lost.
     */
    public long lostPackets()
    {
        return lostPackets;
    }

    /**
     * @return bytes of packets counting in flight declared lost ({@code C.lost}).
     */
    public long lostBytes()
    {
        return rateSampler.lostBytes();
    }

    /**
     * @return bytes delivered ({@code C.delivered}).
     */
    public long deliveredBytes()
    {
        return rateSampler.deliveredBytes();
    }

    /**
     * @return packets acknowledged after they were declared lost.
     */
    public long spuriousLosses()
    {
        return spuriousLosses;
    }

    /**
     * @return true from a congestion event until a packet sent after it is acknowledged (RFC 9002 section 7.3.2).
     */
    public boolean isInRecovery()
    {
        return recoveryPeriod.isInRecovery();
    }

    /**
     * @return recovery periods started so far.
     */
    public long recoveryCount()
    {
        return recoveryPeriod.recoveryCount();
    }

    /**
     * @return loss batches that established persistent congestion.
     */
    public long persistentCongestionEvents()
    {
        return persistentCongestionEvents;
    }

    /**
     * @return probe timeouts that expired.
     */
    public long ptoExpirations()
    {
        return ptoExpirations;
    }

    /**
     * @return RTT samples rejected for being below {@link RecoveryConfig#minRttSampleNs()}.
     */
    public long rejectedRttSamples()
    {
        return rejectedRttSamples;
    }

    /**
     * Remember the Largest Acknowledged of the ACK frame a packet just sent carried, so that when the packet is
     * acknowledged the receiver side can stop acknowledging what the frame covered (RFC 9000 section 13.2.4).
     *
     * @param packetNumber        the packet, already recorded by {@link #onPacketSent}.
     * @param largestAcknowledged the ACK frame's Largest Acknowledged.
     */
    public void recordAckFrame(final long packetNumber, final long largestAcknowledged)
    {
        ring.ackFrameLargestAcked(ring.slot(packetNumber), largestAcknowledged);
    }

    /**
     * @param packetNumber a packet that carried an ACK frame, still tracked (e.g. during its acknowledgement).
     * @return the Largest Acknowledged of that ACK frame.
     */
    public long ackFrameLargestAcked(final long packetNumber)
    {
        return ring.ackFrameLargestAcked(ring.slot(packetNumber));
    }

    /**
     * @return true if one more full-size datagram fits in the congestion window beside the bytes in flight: an ACK
     * is not what the next packet waits for.
     */
    public boolean hasWindowRoom()
    {
        return bytesInFlight + path.maxDatagramSizeBytes() < controller.congestionWindowBytes();
    }

    /**
     * Check an ACK frame as {@link #onAckReceived} checks it first, changing nothing: for a caller that applies the
     * frame later but must refuse it at once (an acknowledgement of a packet never sent closes the connection when it
     * arrives). A frame that passes still passes later: the packets sent since only raise the largest sent.
     *
     * @param ack the frame's ranges.
     * @return 0, or {@link #ERROR_ACK_OF_UNSENT_PACKET} / {@link #ERROR_MALFORMED_ACK_RANGES}.
     */
    public int validateAck(final AckRanges ack)
    {
        return validate(ack);
    }

    private int validate(final AckRanges ack)
    {
        final int rangeCount = ack.rangeCount();
        final long largestAcked = ack.largestAcked();
        if (rangeCount < 1 || ack.rangeLargest(0) != largestAcked)
        {
            return ERROR_MALFORMED_ACK_RANGES;
        }

        long previousSmallest = Long.MAX_VALUE;
        for (int i = 0; i < rangeCount; i++)
        {
            final long smallest = ack.rangeSmallest(i);
            final long largest = ack.rangeLargest(i);
            if (smallest < 0 || smallest > largest || largest >= previousSmallest)
            {
                return ERROR_MALFORMED_ACK_RANGES;
            }
            previousSmallest = smallest;
        }

        if (largestAcked > ring.largestSentPacketNumber())
        {
            return ERROR_ACK_OF_UNSENT_PACKET;
        }
        for (int i = 0; i < rangeCount; i++)
        {
            if (ring.containsSkipped(ack.rangeSmallest(i), ack.rangeLargest(i)))
            {
                return ERROR_ACK_OF_UNSENT_PACKET;
            }
        }
        return 0;
    }

    private int markNewlyAcked(final AckRanges ack)
    {
        // Only packets from the oldest one in flight upwards can be newly acknowledged: the repeated old ranges of
        // each ACK frame cost nothing.
        final long oldestInFlight = ring.oldestInFlightPacketNumber();
        isOldestInFlightAcked = false;
        boolean anyAckEliciting = false;
        int count = 0;
        for (int i = 0, rangeCount = ack.rangeCount(); i < rangeCount; i++)
        {
            final long largest = ack.rangeLargest(i);
            if (largest < oldestInFlight)
            {
                break;
            }
            final long smallest = Math.max(ack.rangeSmallest(i), oldestInFlight);
            // Counted on an int from the top down (SentPacketRing.countedSpan: validate() keeps the largest within
            // the numbers sent, so the span is within the ring's capacity).
            for (int k = 0, span = ring.countedSpan(smallest, largest); k < span; k++)
            {
                final long pn = largest - k;
                if (ring.isInFlight(pn))
                {
                    final int slot = ring.slot(pn);
                    ring.state(slot, SentPacketRing.ACKED);
                    newlyAckedSlots[count++] = slot;
                    isOldestInFlightAcked |= pn == oldestInFlight;
                    anyAckEliciting |= ring.isAckEliciting(slot);
                }
            }
        }
        isAnyNewlyAckedAckEliciting = anyAckEliciting;
        return count;
    }

    private long applyAcked(final long deliveredAtNs, final int newlyAcked, final PacketOutcomeListener listener)
    {
        long newlyAckedBytes = 0;
        int inFlightPackets = 0;
        for (int i = 0; i < newlyAcked; i++)
        {
            final int slot = newlyAckedSlots[i];
            if (ring.countsInFlight(slot))
            {
                rateSampler.onPacketDelivered(ring, slot, deliveredAtNs);
                final int sizeBytes = ring.sizeBytes(slot);
                bytesInFlight -= sizeBytes;
                newlyAckedBytes += sizeBytes;
                inFlightPackets++;
            }
            if (isEcnEnabled && ring.isEcnMarked(slot))
            {
                ecn.onMarkedPacketAcked();
            }
            if (ring.isAckEliciting(slot))
            {
                ackElicitingInFlight--;
            }
            listener.onPacketAcked(
                ring.packetNumber(slot),
                ring.streamOffset(slot),
                ring.streamLength(slot),
                ring.fin(slot),
                ring.frameFlags(slot));
        }
        newlyAckedInFlightPackets = inFlightPackets;
        return newlyAckedBytes;
    }

    private void applyAckedAfterLoss(
        final long deliveredAtNs, final int spuriouslyLost, final PacketOutcomeListener listener)
    {
        for (int i = 0; i < spuriouslyLost; i++)
        {
            final int slot = spuriouslyLostSlots[i];
            // Already out of bytes in flight; still delivered data for the rate sampler (Linux tcp_rate.c counts it).
            rateSampler.onPacketDelivered(ring, slot, deliveredAtNs);
            spuriousLosses++;
            if (isEcnEnabled && ring.isEcnMarked(slot))
            {
                ecn.onMarkedPacketAckedAfterLoss();
            }
            listener.onPacketAckedAfterLoss(
                ring.packetNumber(slot),
                ring.streamOffset(slot),
                ring.streamLength(slot),
                ring.fin(slot),
                ring.frameFlags(slot));
        }
    }

    private long detectLosses(final long nowNs, final PacketOutcomeListener listener)
    {
        final int lostCount = lossDetector.detectLostPackets(
            ring, largestAckedPacketNumber, nowNs, rttEstimator, persistentCongestionDurationNs(), lostSlots);
        return onPacketsLost(lostCount, lossDetector.isPersistentCongestion(), nowNs, listener);
    }

    /**
     * Declare one packet in flight lost now, whatever the thresholds say, and report it like a detected loss: the
     * seam through which the controller test kit scripts a loss at an exact moment.
     *
     * @param packetNumber a packet in flight.
     * @param nowNs        current time.
     * @param listener     told of the lost packet.
     * @throws IllegalArgumentException if the packet is not in flight.
     */
    void declareLost(final long packetNumber, final long nowNs, final PacketOutcomeListener listener)
    {
        lostSlots[0] = lossDetector.declareLost(ring, packetNumber, nowNs);
        onPacketsLost(1, false, nowNs, listener);
    }

    /**
     * Account for the packets in the first {@code lostCount} of {@link #lostSlots} (all in state LOST), tell the
     * controller and the listener of each, then report the batch as one congestion event.
     *
     * @return bytes of the batch that counted in flight.
     */
    private long onPacketsLost(
        final int lostCount,
        final boolean isPersistentCongestion,
        final long nowNs,
        final PacketOutcomeListener listener)
    {
        long lostBytes = 0;
        int lostInFlightPackets = 0;
        long newestLostSentTimeNs = Long.MIN_VALUE;
        for (int i = 0; i < lostCount; i++)
        {
            final int slot = lostSlots[i];
            if (ring.countsInFlight(slot))
            {
                lostBytes += ring.sizeBytes(slot);
                lostInFlightPackets++;
                newestLostSentTimeNs = Math.max(newestLostSentTimeNs, ring.sentTimeNs(slot));
            }
            onPacketDeclaredLost(slot, nowNs, listener);
        }

        if (lostInFlightPackets > 0)
        {
            onCongestionEvent(
                nowNs, newestLostSentTimeNs, lostBytes, lostInFlightPackets, isPersistentCongestion, false);
        }
        return lostBytes;
    }

    /**
     * RFC 9002 Appendix B.7 {@code ProcessECN}, once RFC 9000 section 13.4.2.1 validated the frame's counts: a CE
     * increase counts the marked share of the frame's newly acknowledged bytes as delivered with a mark and, for a
     * controller that takes it as one, is a congestion event about the newest newly acknowledged packet (the RFC's
     * {@code sent_packets[ack.largest_acked].time_sent}).
     *
     * @return packets newly reported CE-marked.
     */
    private long onEcnCounts(
        final AckRanges ack,
        final boolean advancesLargest,
        final int newlyAcked,
        final long newlyAckedBytes,
        final long largestAckedSentTimeNs,
        final long nowNs)
    {
        newlyEcnCeBytes = 0;
        final long newlyCe = ack.hasEcnCounts() ?
            ecn.onAckFrame(true, ack.ect0Count(), ack.ect1Count(), ack.ceCount(), advancesLargest) :
            ecn.onAckFrame(false, 0, 0, 0, advancesLargest);
        if (newlyCe <= 0)
        {
            return 0;
        }
        if (newlyAckedInFlightPackets > 0)
        {
            // Counts are per packet; the rate sampler works in bytes: the frame's mean packet size times the marks.
            newlyEcnCeBytes = Math.min(newlyAckedBytes, newlyCe * newlyAckedBytes / newlyAckedInFlightPackets);
            rateSampler.onCeDelivered(newlyEcnCeBytes);
        }
        if (isEcnCeCongestionEvent && newlyAcked > 0 &&
            onCongestionEvent(nowNs, largestAckedSentTimeNs, 0, 0, false, true))
        {
            ecnCeReactions++;
        }
        return newlyCe;
    }

    /**
     * One congestion signal: a batch of losses, or an ECN congestion-experienced mark (the controller test kit also
     * scripts one through here).
     *
     * @param nowNs                  current time.
     * @param newestLostSentTimeNs   send time of the most recently sent packet the signal is about.
     * @param lostBytes              bytes the batch removed from flight.
     * @param lostInFlightPackets    packets the batch removed from flight.
     * @param isPersistentCongestion true if the batch establishes persistent congestion.
     * @param isEcnCe                true for an ECN-CE mark rather than a loss.
     * @return true if the signal started a recovery period.
     */
    boolean onCongestionEvent(
        final long nowNs,
        final long newestLostSentTimeNs,
        final long lostBytes,
        final int lostInFlightPackets,
        final boolean isPersistentCongestion,
        final boolean isEcnCe)
    {
        if (isPersistentCongestion)
        {
            persistentCongestionEvents++;
            rttEstimator.onPersistentCongestion();
            minDeliveryRttNs = latestDeliveryRttNs;
        }
        final boolean startsRecovery =
            recoveryPeriod.onCongestionEvent(newestLostSentTimeNs, isPersistentCongestion, nowNs);
        lossDetector.onCongestionEvent(startsRecovery, lostInFlightPackets, isEcnCe);
        controller.onCongestionEvent(congestionEvent.wrap(
            nowNs, newestLostSentTimeNs, lostBytes, bytesInFlight, startsRecovery, isPersistentCongestion, isEcnCe));
        return startsRecovery;
    }

    private void onPacketDeclaredLost(final int slot, final long nowNs, final PacketOutcomeListener listener)
    {
        if (ring.isAckEliciting(slot))
        {
            ackElicitingInFlight--;
        }
        if (ring.countsInFlight(slot))
        {
            final int sizeBytes = ring.sizeBytes(slot);
            bytesInFlight -= sizeBytes;
            rateSampler.onPacketLost(sizeBytes);
            lostPackets++;
            if (isEcnEnabled && ring.isEcnMarked(slot))
            {
                ecn.onMarkedPacketLost();
            }
            controller.onPacketLost(lostPacket.wrap(
                slot, nowNs, rateSampler.lostBytes(), rateSampler.deliveredBytes(), bytesInFlight));
        }
        listener.onPacketLost(
            ring.packetNumber(slot),
            ring.streamOffset(slot),
            ring.streamLength(slot),
            ring.fin(slot),
            ring.frameFlags(slot));
    }

    private long persistentCongestionDurationNs()
    {
        // RFC 9002 section 7.6.1: three PTO periods without back-off.
        return PERSISTENT_CONGESTION_THRESHOLD * ptoPeriodNs();
    }

    private long ptoDeadlineNs()
    {
        return lossDetector.ptoDeadlineNs(lastAckElicitingSentTimeNs, ptoPeriodNs());
    }

    private void noteIdle(final long priorBytesInFlight, final long nowNs)
    {
        if (priorBytesInFlight > 0 && 0 == bytesInFlight)
        {
            idleSinceNs = nowNs;
        }
    }
}
