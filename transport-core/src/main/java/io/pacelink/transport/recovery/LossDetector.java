package io.pacelink.transport.recovery;

import io.pacelink.transport.cc.RttStats;

/**
 * Loss detection of RFC 9002 section 6 with an adaptive reordering rule after RFC 8985 section 6.2 and Linux
 * {@code net/ipv4/tcp_recovery.c}, for one packet number space.
 * <h2>Declaring loss (RFC 9002 section 6.1)</h2>
 * An unacknowledged packet sent before the largest acknowledged one is lost when {@code largest_acked - pn >=}
 * {@link #packetThreshold()} or when it was sent at least {@link #lossDelayNs(RttStats)} ago; otherwise the earliest
 * moment it would be lost arms the loss timer ({@link #lossTimeNs()}). The base loss delay is
 * {@code max(9/8 * max(latest_rtt, smoothed_rtt), kGranularity)}.
 * <h2>Adapting to reordering (RFC 9002 section 6.1: "implementations MAY adapt the thresholds")</h2>
 * Jitter reorders packets (netem-style jitter of 7.5 ms on a 150 ms path reorders dozens of packets at high rates),
 * and every spurious loss costs a loss-tolerant controller a needless retransmission and window reduction. When a
 * packet declared lost is acknowledged later (a spurious loss) and adaptation is on:
 * <ul>
 *     <li>The packet threshold rises to the observed reordering distance plus one ({@code largest_acked} before the
 *     late ACK minus the packet's number, plus one), capped at the configured maximum: what Linux does with
 *     {@code tp->reordering} in {@code tcp_check_sack_reordering}.</li>
 *     <li>The reordering window multiplier grows by one, at most once per round trip (only for a packet sent after
 *     the previous growth, as Linux {@code tcp_rack_update_reo_wnd} gates on {@code rack.last_delivered}), and the
 *     time threshold becomes {@code max(9/8 * rtt, rtt + min(multiplier * min_rtt / 4, smoothed_rtt))} with
 *     {@code rtt = max(latest_rtt, smoothed_rtt)}: RACK's window of RFC 8985 section 6.2, which is never tighter
 *     than RFC 9002's.</li>
 *     <li>Both persist for {@link RecoveryConfig#reorderWindowPersistRecoveries()} recoveries (16, RFC 8985 /
 *     Linux {@code TCP_RACK_RECOVERY_THRESH}); every spurious loss restarts that count, and each new recovery
 *     without one counts it down. At zero both thresholds return to their base values.</li>
 * </ul>
 * A recovery is the connection's {@link RecoveryPeriod} (RFC 9002 section 7.3.2), which {@link LossRecovery} keeps
 * and tells this detector about.
 * <h2>Spurious recoveries</h2>
 * The controller is told to undo its reduction only once every packet declared lost in the current recovery has been
 * acknowledged after all: the recovery then had no real loss. This is Linux's rule ({@code tcp_try_undo_recovery} and
 * {@code tcp_try_undo_dsack} undo only when {@code undo_retrans} reaches 0, i.e. every retransmission of the episode
 * proved unnecessary). Undoing on the first late acknowledgement instead lets one reordered packet cancel a
 * reduction that real losses of the same recovery justify; on a randomly lossy, jittery path (8 % loss, 7.5 ms
 * jitter) that kept CUBIC in slow start through a dozen recoveries until its window reached megabytes.
 * <h2>Persistent congestion (RFC 9002 section 7.6)</h2>
 * A batch establishes persistent congestion when two ack-eliciting packets in it, both sent after the first RTT
 * sample, were sent more than the given duration apart and no packet between them was acknowledged.
 */
public final class LossDetector
{
    /**
     * Linux keeps {@code rack.reo_wnd_steps} in a u8.
     */
    static final int MAX_REORDER_WINDOW_MULTIPLIER = 255;

    /**
     * Caps the PTO back-off at 2^30 periods so the deadline arithmetic cannot overflow.
     */
    private static final int MAX_PTO_BACKOFF_SHIFT = 30;

    private final int basePacketThreshold;
    private final int maxPacketThreshold;
    private final int timeThresholdNumerator;
    private final int timeThresholdDenominator;
    private final long granularityNs;
    private final boolean adaptiveReordering;
    private final int reorderWindowPersistRecoveries;
    /**
     * No loss declared yet: a history that holds nothing, shared, never written (size 0: nothing to expire, nothing to
     * find). A connection makes its own at its first loss: a server's half-open connections — a flood's hellos that
     * never confirm — declare none and made ~4 KB each for nothing (perf/FINDINGS.md, "The server's first seconds
     * under a flood").
     */
    private static final LostPacketHistory NO_LOSS_YET = new LostPacketHistory(0);

    private final int lostPacketHistory;
    private LostPacketHistory lostPackets = NO_LOSS_YET;

    private int packetThreshold;
    private int reorderWindowMultiplier = 1;
    private int reorderWindowPersist;
    private long reorderGrowthFencePacketNumber = -1;
    private boolean spuriousLossReportedInRecovery;
    private int lostInRecovery;
    private int spuriousInRecovery;
    private long lossTimeNs = Long.MAX_VALUE;
    private int ptoCount;
    private boolean persistentCongestion;

    /**
     * @param config thresholds, granularity, adaptation switch and history size.
     */
    public LossDetector(final RecoveryConfig config)
    {
        config.validate();
        basePacketThreshold = config.packetThreshold();
        maxPacketThreshold = config.maxPacketThreshold();
        timeThresholdNumerator = config.timeThresholdNumerator();
        timeThresholdDenominator = config.timeThresholdDenominator();
        granularityNs = config.granularityNs();
        adaptiveReordering = config.adaptiveReordering();
        reorderWindowPersistRecoveries = config.reorderWindowPersistRecoveries();
        lostPacketHistory = config.lostPacketHistory();
        packetThreshold = basePacketThreshold;
    }

    /**
     * @param rtt the connection's RTT estimates.
     * @return how long after its send an unacknowledged packet older than the largest acknowledged one is lost.
     */
    public long lossDelayNs(final RttStats rtt)
    {
        final long rttNs = Math.max(rtt.latestRttNs(), rtt.smoothedRttNs());
        long delayNs = rttNs * timeThresholdNumerator / timeThresholdDenominator;
        if (reorderWindowMultiplier > 1)
        {
            final long reorderWindowNs = Math.min(reorderWindowMultiplier * rtt.minRttNs() / 4, rtt.smoothedRttNs());
            delayNs = Math.max(delayNs, rttNs + reorderWindowNs);
        }
        return Math.max(delayNs, granularityNs);
    }

    /**
     * Walk the unacknowledged packets below the largest acknowledged one, declare the lost ones and re-arm the loss
     * timer. The ring state of each lost packet becomes {@link SentPacketRing#LOST}.
     *
     * @param ring                            the sent packets.
     * @param largestAckedPacketNumber        the largest packet number ever acknowledged.
     * @param nowNs                           current time.
     * @param rtt                             RTT estimates.
     * @param persistentCongestionDurationNs  RFC 9002 section 7.6.1 duration.
     * @param slotsOut                        receives the ring slots of the lost packets, in packet-number order.
     * @return number of slots written.
     */
    int detectLostPackets(
        final SentPacketRing ring,
        final long largestAckedPacketNumber,
        final long nowNs,
        final RttEstimator rtt,
        final long persistentCongestionDurationNs,
        final int[] slotsOut)
    {
        lossTimeNs = Long.MAX_VALUE;
        persistentCongestion = false;

        final long lossDelayNs = lossDelayNs(rtt);
        final long lostSendTimeNs = nowNs - lossDelayNs;
        final long firstRttSampleTimeNs = rtt.firstSampleTimeNs();
        long runStartSentTimeNs = Long.MIN_VALUE;
        int lostCount = 0;

        // The packet threshold counts packets sent after this one, not numbers: a number the sender skipped (the
        // optimistic-ACK defence) must not make a packet overtaken by two others look overtaken by three. A skip
        // older than the ring's skip history is missed and counts as a packet, as before that defence.
        final long oldestPacketNumber = ring.oldestInFlightPacketNumber();
        int skippedAbove = ring.countSkipped(oldestPacketNumber, largestAckedPacketNumber);

        // Counted on an int (SentPacketRing.countedSpan): the walk stays within the ring's capacity.
        for (int i = 0, count = ring.countedSpan(oldestPacketNumber, largestAckedPacketNumber - 1); i < count; i++)
        {
            final long pn = oldestPacketNumber + i;
            final int slot = ring.slot(pn);
            if (ring.packetNumber(slot) != pn)
            {
                continue;
            }

            final byte state = ring.state(slot);
            if (SentPacketRing.SKIPPED == state)
            {
                skippedAbove = Math.max(0, skippedAbove - 1);
                continue;
            }
            if (SentPacketRing.ACKED == state)
            {
                // An acknowledged packet between two lost ones means the path delivered in between (RFC 9002 7.6.2).
                runStartSentTimeNs = Long.MIN_VALUE;
                continue;
            }
            if (SentPacketRing.IN_FLIGHT != state)
            {
                continue;
            }

            final long sentTimeNs = ring.sentTimeNs(slot);
            if (sentTimeNs <= lostSendTimeNs || largestAckedPacketNumber - pn - skippedAbove >= packetThreshold)
            {
                if (ring.isAckEliciting(slot) && sentTimeNs > firstRttSampleTimeNs)
                {
                    if (Long.MIN_VALUE == runStartSentTimeNs)
                    {
                        runStartSentTimeNs = sentTimeNs;
                    }
                    else if (sentTimeNs - runStartSentTimeNs > persistentCongestionDurationNs)
                    {
                        persistentCongestion = true;
                    }
                }

                markLost(ring, slot, pn, nowNs);
                slotsOut[lostCount++] = slot;
            }
            else
            {
                lossTimeNs = Math.min(lossTimeNs, sentTimeNs + lossDelayNs);
            }
        }

        return lostCount;
    }

    /**
     * Declare one packet in flight lost now, outside the thresholds (for a scripted loss in tests of the controllers).
     *
     * @param ring         the sent packets.
     * @param packetNumber a packet in flight.
     * @param nowNs        current time.
     * @return its ring slot, now in state {@link SentPacketRing#LOST}.
     * @throws IllegalArgumentException if the packet is not in flight.
     */
    int declareLost(final SentPacketRing ring, final long packetNumber, final long nowNs)
    {
        if (!ring.isInFlight(packetNumber))
        {
            throw new IllegalArgumentException("packet " + packetNumber + " is not in flight");
        }
        final int slot = ring.slot(packetNumber);
        markLost(ring, slot, packetNumber, nowNs);
        return slot;
    }

    private void markLost(final SentPacketRing ring, final int slot, final long packetNumber, final long nowNs)
    {
        ring.state(slot, SentPacketRing.LOST);
        if (ring.countsInFlight(slot))
        {
            // Watched for a late acknowledgement that would prove the loss spurious.
            if (NO_LOSS_YET == lostPackets)
            {
                lostPackets = new LostPacketHistory(lostPacketHistory);
            }
            lostPackets.add(packetNumber, nowNs, ring);
        }
    }

    /**
     * Find packets of the loss history that this ACK frame acknowledges, mark them {@link SentPacketRing#ACKED} and
     * apply the reordering adaptation. First forget losses declared more than {@code retentionNs} ago.
     *
     * @param ack                         the validated ACK frame.
     * @param ring                        the sent packets.
     * @param nowNs                       current time.
     * @param retentionNs                 how long a declared loss is watched for a late acknowledgement.
     * @param priorLargestAckedPacketNumber largest acknowledged number before this frame.
     * @param recoveryStartNs             when the current recovery period began: a late acknowledgement of a loss
     *                                    declared before it says nothing about that period's reduction.
     * @param slotsOut                    receives the slots of the spuriously lost packets.
     * @return number of slots written.
     */
    int collectSpuriouslyLost(
        final AckRanges ack,
        final SentPacketRing ring,
        final long nowNs,
        final long retentionNs,
        final long priorLargestAckedPacketNumber,
        final long recoveryStartNs,
        final int[] slotsOut)
    {
        lostPackets.expire(nowNs - retentionNs, ring);

        final int rangeCount = ack.rangeCount();
        final long largestAcked = ack.largestAcked();
        final long smallestAcked = ack.rangeSmallest(rangeCount - 1);
        int count = 0;
        for (int i = 0, size = lostPackets.size(); i < size; i++)
        {
            final long pn = lostPackets.packetNumber(i);
            if (pn < smallestAcked || pn > largestAcked || !isAcknowledged(ack, rangeCount, pn))
            {
                continue;
            }

            lostPackets.remove(i);
            if (!ring.contains(pn) || SentPacketRing.LOST != ring.state(ring.slot(pn)))
            {
                continue;
            }

            final int slot = ring.slot(pn);
            ring.state(slot, SentPacketRing.ACKED);
            slotsOut[count++] = slot;
            onSpuriousLoss(
                pn, lostPackets.lostTimeNs(i), priorLargestAckedPacketNumber, recoveryStartNs,
                ring.largestSentPacketNumber());
        }
        return count;
    }

    private void onSpuriousLoss(
        final long packetNumber,
        final long lostTimeNs,
        final long priorLargestAckedPacketNumber,
        final long recoveryStartNs,
        final long largestSentPacketNumber)
    {
        if (adaptiveReordering)
        {
            final long distance = priorLargestAckedPacketNumber - packetNumber;
            packetThreshold = (int)Math.min(maxPacketThreshold, Math.max(packetThreshold, distance + 1));
            reorderWindowPersist = reorderWindowPersistRecoveries;
            if (packetNumber > reorderGrowthFencePacketNumber)
            {
                reorderWindowMultiplier = Math.min(reorderWindowMultiplier + 1, MAX_REORDER_WINDOW_MULTIPLIER);
                reorderGrowthFencePacketNumber = largestSentPacketNumber;
            }
        }

        // A late packet of an earlier recovery says nothing about the current one's reduction.
        if (lostTimeNs >= recoveryStartNs)
        {
            spuriousInRecovery++;
        }
    }

    /**
     * A batch of losses was reported to the controller; its losses count towards the recovery period it starts or
     * continues.
     *
     * @param startsRecovery      true if the batch started a new recovery period.
     * @param lostInFlightPackets packets of the batch that counted in flight.
     * @param isEcnCe             true for a CE mark: the reduction it belongs to is never undone, since a mark
     *                            cannot prove spurious (Linux {@code tcp_enter_cwr} clears {@code undo_marker}).
     */
    void onCongestionEvent(final boolean startsRecovery, final int lostInFlightPackets, final boolean isEcnCe)
    {
        if (startsRecovery)
        {
            spuriousLossReportedInRecovery = false;
            lostInRecovery = 0;
            spuriousInRecovery = 0;
            if (reorderWindowPersist > 0 && 0 == --reorderWindowPersist)
            {
                reorderWindowMultiplier = 1;
                packetThreshold = basePacketThreshold;
            }
        }
        lostInRecovery += lostInFlightPackets;
        if (isEcnCe)
        {
            spuriousLossReportedInRecovery = true;
        }
    }

    /**
     * Asked once per ACK frame after its losses were detected, so that losses the same frame declared count.
     *
     * @return true once per recovery, when every loss of the current recovery has proved spurious: tell the
     * controller to undo its reduction (see the class description).
     */
    boolean takeSpuriousLossReport()
    {
        if (spuriousLossReportedInRecovery || 0 == spuriousInRecovery || spuriousInRecovery != lostInRecovery)
        {
            return false;
        }
        spuriousLossReportedInRecovery = true;
        return true;
    }

    /**
     * An ACK newly acknowledged something: the PTO back-off restarts (RFC 9002 section 6.2.1).
     */
    void onAckReceived()
    {
        ptoCount = 0;
    }

    /**
     * The probe timeout expired: back off (RFC 9002 section 6.2.1).
     */
    void onPtoExpired()
    {
        ptoCount++;
    }

    /**
     * @param lastAckElicitingSentTimeNs send time of the most recent ack-eliciting packet in flight.
     * @param ptoPeriodNs                the PTO period without back-off.
     * @return when the probe timeout expires: {@code sent + period * 2^pto_count}, saturating.
     */
    long ptoDeadlineNs(final long lastAckElicitingSentTimeNs, final long ptoPeriodNs)
    {
        final int shift = Math.min(ptoCount, MAX_PTO_BACKOFF_SHIFT);
        final long timeoutNs = ptoPeriodNs > (Long.MAX_VALUE >> shift) ? Long.MAX_VALUE : ptoPeriodNs << shift;
        return timeoutNs > Long.MAX_VALUE - lastAckElicitingSentTimeNs ?
            Long.MAX_VALUE : lastAckElicitingSentTimeNs + timeoutNs;
    }

    private static boolean isAcknowledged(final AckRanges ack, final int rangeCount, final long packetNumber)
    {
        // Ranges are in descending order: find the first whose smallest is at or below the packet number.
        int low = 0;
        int high = rangeCount - 1;
        while (low < high)
        {
            final int mid = (low + high) >>> 1;
            if (ack.rangeSmallest(mid) <= packetNumber)
            {
                high = mid;
            }
            else
            {
                low = mid + 1;
            }
        }
        return ack.rangeSmallest(low) <= packetNumber && packetNumber <= ack.rangeLargest(low);
    }

    /**
     * @return the current packet threshold.
     */
    public int packetThreshold()
    {
        return packetThreshold;
    }

    /**
     * @return the reordering window multiplier, 1 while no spurious loss widened it.
     */
    public int reorderWindowMultiplier()
    {
        return reorderWindowMultiplier;
    }

    /**
     * @return recoveries left before a widened threshold returns to its base.
     */
    public int reorderWindowPersist()
    {
        return reorderWindowPersist;
    }

    /**
     * @return when the loss timer fires, {@link Long#MAX_VALUE} if unarmed.
     */
    public long lossTimeNs()
    {
        return lossTimeNs;
    }

    /**
     * @return consecutive probe timeouts without an acknowledgement.
     */
    public int ptoCount()
    {
        return ptoCount;
    }

    /**
     * @return true if the last detection established persistent congestion.
     */
    public boolean isPersistentCongestion()
    {
        return persistentCongestion;
    }
}
