package io.pacelink.link;

import java.util.SplittableRandom;

/**
 * One direction of an emulated link, driven only by the times it is handed: the same model runs in the simulator's
 * virtual time and in the relay's real time. A packet offered at time {@code t}:
 * <ol>
 * <li>may be lost (Bernoulli or Gilbert-Elliott), duplicated and corrupted on arrival, as netem does on enqueue, and
 * have its ECN field rewritten ({@code ecn_rewrite=}, a middlebox that bleaches or remarks);</li>
 * <li>is dropped by the token-bucket policer, if the spec has one and the packet exceeds it;</li>
 * <li>enters the bottleneck queue, which may drop it or mark it CE (drop-tail FIFO, RED, or a fair queue from
 * {@code qdisc-fq});</li>
 * <li>is serialized when the bottleneck reaches it, one packet at a time, at the rate schedule's rate;</li>
 * <li>propagates for the delay plus a jitter sample (never less than zero), and is delivered; with jitter, packets
 * may overtake each other unless the spec says {@code order=keep}.</li>
 * </ol>
 * Event-driven use: after {@link #offer}, ask {@link #nextEventTimeNs()} when to come back, and at that time
 * {@link #poll} out every packet due; a caller that needs to come back only for deliveries asks
 * {@link #nextDeliveryBoundNs()} instead and skips the serializations in between. Single-threaded; allocation-free
 * once its pool and arrays have grown to the traffic's high-water mark.
 */
public final class LinkDirection
{
    private final PathSpec spec;
    private final LinkPacketPool pool;
    private final SplittableRandom random;
    private final BottleneckQueue queue;
    private TokenBucketPolicer policer;
    private RateSchedule.Server bottleneck;
    private final DelayLine delayLine;
    private final LinkCounters counters = new LinkCounters();
    private final long jitterNs;
    private final JitterDistribution jitterDistribution;
    private final boolean keepOrder;
    private final double duplicateProbability;
    private final double corruptProbability;
    private final int ecnRewrite;

    private LossModel loss;
    private long delayNs;
    private boolean lossBadState;
    private LinkPacket inService;
    private int inServiceLengthBytes;
    private long serviceCompleteNs = Long.MAX_VALUE;
    private long nextSequence;
    private long nextDepartureOrder;
    private long lastScheduledDeliveryNs = Long.MIN_VALUE;
    private long lastPolledDeliveryNs = Long.MIN_VALUE;
    private long highestDeliveredOrder = -1;
    private long lostOfferedPacketNumber;
    private QueueDelayListener queueDelayListener;

    /**
     * @param spec      the direction's model.
     * @param baseRttNs the path's base RTT, sizing a {@code queue=Nbdp} limit ({@link PathSpec.Pair#baseRttNs()}).
     * @param seed      seeds every random choice of this direction (loss, jitter, duplication, corruption, queue).
     * @param pool      where dropped packets go and duplicates come from; shared with the caller.
     */
    public LinkDirection(final PathSpec spec, final long baseRttNs, final long seed, final LinkPacketPool pool)
    {
        this.spec = spec;
        this.pool = pool;
        this.random = new SplittableRandom(seed);
        this.queue = BottleneckQueues.newQueue(spec, baseRttNs, random.nextLong(), this::onQueueDrop);
        this.bottleneck = spec.rate().newServer();
        this.policer = spec.policer().isPresent() ? spec.policer().newPolicer() : null;
        this.loss = spec.loss();
        this.delayNs = spec.delayNs();
        this.jitterNs = spec.jitterNs();
        this.jitterDistribution = spec.jitterDistribution();
        this.keepOrder = spec.keepOrder();
        this.duplicateProbability = spec.duplicateProbability();
        this.corruptProbability = spec.corruptProbability();
        this.ecnRewrite = spec.ecnRewrite();
        this.delayLine = new DelayLine(jitterNs == 0 || keepOrder);
    }

    /**
     * Hand a packet to the link. The link owns it from now on: it either comes back from {@link #poll} or is
     * returned to the pool when dropped.
     *
     * @param packet the packet, from the link's pool, with its length, flow key and addresses set.
     * @param nowNs  arrival time, not earlier than any time handed in before.
     * @return true if the packet (or a copy of it) entered the bottleneck queue; false if it was lost or dropped.
     */
    public boolean offer(final LinkPacket packet, final long nowNs)
    {
        advance(nowNs);
        counters.offeredPackets++;
        counters.offeredBytes += packet.length();
        if (counters.offeredPackets == lostOfferedPacketNumber)
        {
            counters.randomLossPackets++;
            pool.release(packet);
            return false;
        }

        // netem_enqueue order: duplicate, then loss removes one copy, then corrupt the original.
        int copies = 1;
        if (duplicateProbability > 0 && random.nextDouble() < duplicateProbability)
        {
            copies++;
        }
        if (randomLoss())
        {
            copies--;
            counters.randomLossPackets++;
        }
        if (copies == 0)
        {
            pool.release(packet);
            return false;
        }
        // The copy is taken before the original is corrupted, as netem clones the skb first: a corrupted packet is
        // one bad datagram on the wire, and the count says exactly how many a receiver must reject.
        final LinkPacket duplicate = copies == 2 ? pool.copyOf(packet) : null;
        if (corruptProbability > 0 && random.nextDouble() < corruptProbability && packet.length() > 0)
        {
            pool.writePendingCrc32c(packet);
            final int bit = random.nextInt(packet.length() * 8);
            packet.data()[bit >>> 3] ^= (byte)(1 << (bit & 7));
            counters.corruptedPackets++;
        }

        if (PathSpec.NO_ECN_REWRITE != ecnRewrite)
        {
            rewriteEcn(packet);
            if (null != duplicate)
            {
                rewriteEcn(duplicate);
            }
        }

        boolean accepted = false;
        if (null != duplicate)
        {
            counters.duplicatedPackets++;
            accepted = enqueue(duplicate, nowNs);
        }
        return enqueue(packet, nowNs) | accepted;
    }

    /**
     * @return when this link next has something to do (a serialization completing or a packet due), or
     * {@link Long#MAX_VALUE} if it is empty.
     */
    public long nextEventTimeNs()
    {
        return Math.min(serviceCompleteNs, delayLine.peekTimeNs());
    }

    /**
     * A time no later than the next delivery, for an event-driven caller that comes back only to take packets out:
     * the serializations that complete before then need no call of their own, since {@link #offer}, {@link #poll}
     * and {@link #advance} first complete every serialization due by the time they are handed, each at its own
     * completion time, with the same results as if each had been completed at that time. Without jitter a packet
     * being serialized is delivered no earlier than its completion plus the propagation delay; with jitter, which
     * may shorten the delay to nothing, no earlier than its completion ({@link #nextEventTimeNs()}). A caller that
     * changes the delay or the rate must come back at {@link #nextEventTimeNs()} after the change.
     *
     * @return the earliest time a packet can be due for delivery, or {@link Long#MAX_VALUE} if the link is empty.
     */
    public long nextDeliveryBoundNs()
    {
        final long completionBoundNs = jitterNs > 0 || Long.MAX_VALUE == serviceCompleteNs ? serviceCompleteNs :
            serviceCompleteNs + Math.min(delayNs, Long.MAX_VALUE - serviceCompleteNs);
        return Math.min(completionBoundNs, delayLine.peekTimeNs());
    }

    /**
     * @param nowNs the current time, not earlier than any time handed in before.
     * @return the next packet due for delivery by now (ownership passes to the caller, who returns it to the pool),
     * or null if none is due.
     */
    public LinkPacket poll(final long nowNs)
    {
        advance(nowNs);
        if (delayLine.peekTimeNs() > nowNs)
        {
            return null;
        }
        lastPolledDeliveryNs = delayLine.peekTimeNs();
        if (!delayLine.inOrder())
        {
            countReordering(delayLine.peekOrder());
        }
        final LinkPacket packet = delayLine.remove();
        counters.deliveredPackets++;
        counters.deliveredBytes += packet.length();
        return packet;
    }

    /**
     * @return the scheduled delivery time of the packet {@link #poll} returned last (to measure how late a real-time
     * caller released it).
     */
    public long lastDeliveryTimeNs()
    {
        return lastPolledDeliveryNs;
    }

    /**
     * @return packets waiting in the bottleneck queue (not counting the one being serialized).
     */
    public int queuedPackets()
    {
        return queue.packetCount();
    }

    /**
     * @return bytes waiting in the bottleneck queue.
     */
    public long queuedBytes()
    {
        return queue.byteCount();
    }

    /**
     * @return packets serialized and propagating.
     */
    public int propagatingPackets()
    {
        return delayLine.size();
    }

    /**
     * Change the propagation delay of packets that leave the bottleneck from now on, as a route change would; packets
     * already propagating keep the delay they left with. On a link that keeps order (no jitter, or
     * {@code order=keep}) a shorter delay makes later packets wait behind earlier ones instead of overtaking them.
     * {@link #spec()} keeps describing the delay the link was built with.
     *
     * @param delayNs the new one-way propagation delay, not negative.
     */
    public void propagationDelayNs(final long delayNs)
    {
        if (delayNs < 0)
        {
            throw new IllegalArgumentException("delayNs=" + delayNs + " must not be negative");
        }
        this.delayNs = delayNs;
    }

    /**
     * @return the one-way propagation delay packets leaving the bottleneck now get (before jitter).
     */
    public long propagationDelayNs()
    {
        return delayNs;
    }

    /**
     * Change the bottleneck's rate for the packets it starts serializing from now on, as {@code tc qdisc change ...
     * rate} does for netem (net/sched/sch_netem.c, {@code netem_change}); the packet being serialized keeps the
     * completion time it started with. {@link #spec()} keeps describing the rate the link was built with.
     *
     * @param rate the new rate schedule; its times count from zero, as the one the link was built with.
     */
    public void rate(final RateSchedule rate)
    {
        this.bottleneck = rate.newServer();
    }

    /**
     * Change the random loss applied to packets offered from now on, as {@code tc qdisc change ... loss} does; a
     * Gilbert-Elliott model starts in its good state.
     *
     * @param loss the new loss model ({@link LossModel#NONE} for none).
     */
    public void lossModel(final LossModel loss)
    {
        this.loss = loss;
        this.lossBadState = false;
    }

    /**
     * Put a new token-bucket policer in front of the queue (or remove it), as replacing a {@code tc police} action
     * does: the new bucket starts full.
     *
     * @param policer the new policer, or {@link PolicerSpec#NONE} for none.
     */
    public void policer(final PolicerSpec policer)
    {
        this.policer = policer.isPresent() ? policer.newPolicer() : null;
    }

    /**
     * Change the drop-tail limits of the bottleneck queue (see {@link BottleneckQueue#limits(int, long)}).
     *
     * @param limitPackets most packets queued.
     * @param limitBytes   most bytes queued.
     * @throws UnsupportedOperationException if the queue discipline's limits are fixed when it is built.
     */
    public void queueLimits(final int limitPackets, final long limitBytes)
    {
        queue.limits(limitPackets, limitBytes);
    }

    /**
     * Grow the storage for packets propagating now, so that up to {@code packets} at once need no allocation later:
     * for a caller that must allocate nothing from its first packet on and knows its high-water mark (the queue's
     * storage still grows on demand, and the packets themselves come from the caller's pool).
     *
     * @param packets the most packets propagating at once.
     */
    public void reservePropagating(final int packets)
    {
        delayLine.reserve(packets);
    }

    /**
     * Lose exactly one chosen packet on arrival: the {@code offeredPacketNumber}-th packet offered to this direction
     * since it was built (1-based), whatever the loss model would have decided. A deterministic single loss for
     * experiments such as the CUBIC window curve after one loss (RFC 9438 section 4). It is counted with the random
     * losses.
     *
     * @param offeredPacketNumber the packet to lose, greater than the number of packets offered so far; 0 cancels.
     */
    public void loseOfferedPacket(final long offeredPacketNumber)
    {
        if (offeredPacketNumber != 0 && offeredPacketNumber <= counters.offeredPackets)
        {
            throw new IllegalArgumentException("offeredPacketNumber=" + offeredPacketNumber +
                " must be 0 or more than the " + counters.offeredPackets + " packets offered so far");
        }
        this.lostOfferedPacketNumber = offeredPacketNumber;
    }

    /**
     * @param listener told the queueing delay of every packet the bottleneck starts serializing (null: none).
     */
    public void queueDelayListener(final QueueDelayListener listener)
    {
        this.queueDelayListener = listener;
    }

    /**
     * @return this direction's counters.
     */
    public LinkCounters counters()
    {
        return counters;
    }

    /**
     * @return the model this direction follows.
     */
    public PathSpec spec()
    {
        return spec;
    }

    private boolean enqueue(final LinkPacket packet, final long nowNs)
    {
        if (null != policer && !policer.conforms(nowNs, packet.length()))
        {
            counters.policedPackets++;
            pool.release(packet);
            return false;
        }
        packet.sequence(nextSequence++).enqueueTimeNs(nowNs);
        final LinkPacket dropped = queue.enqueue(packet, nowNs);
        counters.queueMarkPackets = queue.markedPackets();
        if (null != dropped)
        {
            counters.queueDropPackets++;
            pool.release(dropped);
        }
        if (null == inService)
        {
            startService(nowNs);
        }
        return dropped != packet;
    }

    /**
     * Complete every serialization due by now: each finished packet starts propagating at its completion time, and
     * the next queued packet starts serializing at that same instant. {@link #offer} and {@link #poll} do this first;
     * a caller that reads the queue or changes the link between them brings it up to its time with this.
     *
     * @param nowNs the current time, not earlier than any time handed in before.
     */
    public void advance(final long nowNs)
    {
        while (serviceCompleteNs <= nowNs)
        {
            final long completeNs = serviceCompleteNs;
            final LinkPacket served = inService;
            counters.servedPackets++;
            counters.servedBytes += inServiceLengthBytes;
            delayLine.add(deliveryTimeNs(completeNs), nextDepartureOrder++, served);
            startService(completeNs);
        }
    }

    private void startService(final long startNs)
    {
        final LinkPacket next = queue.dequeue(startNs);
        counters.queueMarkPackets = queue.markedPackets();
        inService = next;
        if (null == next)
        {
            serviceCompleteNs = Long.MAX_VALUE;
        }
        else
        {
            // The packet's length and enqueue time as the queue kept them: the packet itself waited the queue's
            // delay and is read next when it is delivered (a FIFO keeps both beside its ring).
            final int lengthBytes = queue.dequeuedLengthBytes(next);
            final long queueDelayNs = startNs - queue.dequeuedEnqueueTimeNs(next);
            inServiceLengthBytes = lengthBytes;
            counters.recordQueueDelay(queueDelayNs);
            if (null != queueDelayListener)
            {
                queueDelayListener.onDequeued(next, queueDelayNs, startNs);
            }
            serviceCompleteNs = bottleneck.serviceCompleteNs(startNs, lengthBytes);
        }
    }

    private long deliveryTimeNs(final long departureNs)
    {
        long deliveryNs = departureNs + delayNs;
        if (jitterNs > 0)
        {
            deliveryNs = Math.max(departureNs, deliveryNs + jitterDistribution.sampleOffsetNs(random, jitterNs));
        }
        if (keepOrder || 0 == jitterNs)
        {
            // The delay line is a FIFO here: delivery times must not decrease, even after the delay was shortened.
            deliveryNs = Math.max(deliveryNs, lastScheduledDeliveryNs);
            lastScheduledDeliveryNs = deliveryNs;
        }
        return deliveryNs;
    }

    /**
     * A packet delivered after one that left the bottleneck later was overtaken; its distance is how many departures
     * later the latest-departed packet delivered so far left: what a receiver sees as {@code largest - pn} and what
     * loss detection compares with its packet threshold (RFC 9002 section 6.1.1).
     */
    private void countReordering(final long departureOrder)
    {
        if (departureOrder < highestDeliveredOrder)
        {
            counters.reorderedPackets++;
            counters.maxReorderDistance = Math.max(counters.maxReorderDistance, highestDeliveredOrder - departureOrder);
        }
        else
        {
            highestDeliveredOrder = departureOrder;
        }
    }

    /**
     * netem {@code loss_gilb_ell}: the state moves first, then the loss draw uses the probability of the state the
     * packet found.
     */
    private boolean randomLoss()
    {
        return switch (loss.kind())
        {
            case NONE -> false;
            case BERNOULLI -> random.nextDouble() < loss.lossInGood();
            case GILBERT_ELLIOTT ->
            {
                final boolean wasBad = lossBadState;
                if (wasBad)
                {
                    lossBadState = random.nextDouble() >= loss.badToGood();
                }
                else
                {
                    lossBadState = random.nextDouble() < loss.goodToBad();
                }
                yield random.nextDouble() < (wasBad ? loss.lossInBad() : loss.lossInGood());
            }
        };
    }

    private void rewriteEcn(final LinkPacket packet)
    {
        if (packet.ecnCodepoint() != ecnRewrite)
        {
            packet.ecnCodepoint(ecnRewrite);
            counters.ecnRewrittenPackets++;
        }
    }

    private void onQueueDrop(final LinkPacket packet, final long nowNs)
    {
        counters.queueDropPackets++;
        pool.release(packet);
    }
}
