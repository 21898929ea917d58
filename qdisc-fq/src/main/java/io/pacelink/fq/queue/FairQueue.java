package io.pacelink.fq.queue;

import io.pacelink.link.BottleneckQueue;
import io.pacelink.link.LinkPacket;
import io.pacelink.link.PacketDropListener;

import java.util.Arrays;

/**
 * A fair bottleneck queue: packets are classified into flow queues, served by deficit round robin with a byte
 * quantum, optionally with CoDel on each flow; when the queue is over its limit a packet is dropped from the biggest
 * flow, so a flow that floods the queue loses its own packets. The three disciplines of this module are
 * configurations of it:
 * <ul>
 * <li>{@code fq}: one queue per flow key, {@link Mode#FLOW_QUEUE} lists, no AQM;</li>
 * <li>{@code fq_codel}: hashed buckets, {@link Mode#FLOW_QUEUE} lists, CoDel per bucket (RFC 8290);</li>
 * <li>{@code sfq}: hashed buckets with a seeded perturbation, {@link Mode#STOCHASTIC} round robin;</li>
 * <li>{@code sfqred}: the same with RED on each bucket's backlog (Linux {@code sch_sfq.c} with {@code redflowlimit}),
 * marking CE instead of dropping with ECN.</li>
 * </ul>
 * Used by one thread; no allocation per packet once its arrays have grown to the working set.
 */
public final class FairQueue implements BottleneckQueue
{
    /**
     * How flows are ordered and which packet goes when the queue is full.
     */
    public enum Mode
    {
        /**
         * RFC 8290 section 4 (fq_codel, and sch_fq's lists): a flow that becomes active joins the new list with one
         * quantum and is served before the old list, so sparse flows overtake backlogged ones; a flow that empties
         * from the new list makes one pass through the old list (if that is not empty) before it is unlisted. Over
         * the limit, packets are dropped from the head of the flow holding the most bytes ({@code fq_codel_drop}).
         */
        FLOW_QUEUE,

        /**
         * Linux sch_sfq: one round-robin ring; a flow that becomes active joins its tail with one quantum and leaves
         * it as soon as it empties. Over the limit, the tail packet of the flow holding the most packets is dropped;
         * if every flow holds one packet, the packet of the flow served next goes ({@code sfq_drop}).
         */
        STOCHASTIC
    }

    /**
     * A {@code dropBatchPackets} that drops one packet per overflow (and the value {@link Mode#STOCHASTIC} ignores).
     */
    static final int ONE_PACKET_PER_OVERFLOW = 1;

    private final FlowClassifier classifier;
    private final Mode mode;
    private final int quantumBytes;
    private final int limitPackets;
    private final long limitBytes;
    private final int flowLimitPackets;
    private final int dropBatchPackets;
    private final CoDel codel;
    private final FlowRed flowRed;
    private final PacketDropListener dropListener;
    private final FlowFifos fifos;
    private final FlowLists lists;
    private int[] deficitBytes;

    private long overlimitDrops;
    private long flowLimitDrops;

    /**
     * @param classifier       maps flow keys to flow queues.
     * @param mode             list discipline and overflow victim.
     * @param quantumBytes     DRR quantum, positive.
     * @param limitPackets     total packet limit, positive ({@link Integer#MAX_VALUE} for none).
     * @param limitBytes       total byte limit, positive ({@link Long#MAX_VALUE} for none).
     * @param flowLimitPackets packets one flow may hold; an arrival beyond it is dropped (sch_fq {@code flow_limit}).
     * @param dropBatchPackets {@link Mode#FLOW_QUEUE} overflow: at most this many packets are dropped from the
     *                         fattest flow at once, fewer if half its bytes are gone first (fq_codel
     *                         {@code drop_batch}, 64); 1 drops one packet per overflow.
     * @param codel            AQM per flow queue, or null for none.
     * @param dropListener     receives packets dropped beyond the one {@link #enqueue} returns, and AQM drops.
     */
    FairQueue(
        final FlowClassifier classifier,
        final Mode mode,
        final int quantumBytes,
        final int limitPackets,
        final long limitBytes,
        final int flowLimitPackets,
        final int dropBatchPackets,
        final CoDel codel,
        final PacketDropListener dropListener)
    {
        this(classifier, mode, quantumBytes, limitPackets, limitBytes, flowLimitPackets, dropBatchPackets, codel, null,
            dropListener);
    }

    /**
     * @param classifier       maps flow keys to flow queues.
     * @param mode             list discipline and overflow victim.
     * @param quantumBytes     DRR quantum, positive.
     * @param limitPackets     total packet limit, positive ({@link Integer#MAX_VALUE} for none).
     * @param limitBytes       total byte limit, positive ({@link Long#MAX_VALUE} for none).
     * @param flowLimitPackets packets one flow may hold; an arrival beyond it is dropped (sch_fq {@code flow_limit}).
     * @param dropBatchPackets {@link Mode#FLOW_QUEUE} overflow batch (see the other constructor).
     * @param codel            AQM per flow queue at dequeue, or null for none.
     * @param flowRed          RED per flow queue at enqueue (SFQ-RED), or null for none.
     * @param dropListener     receives packets dropped beyond the one {@link #enqueue} returns, and AQM drops.
     */
    FairQueue(
        final FlowClassifier classifier,
        final Mode mode,
        final int quantumBytes,
        final int limitPackets,
        final long limitBytes,
        final int flowLimitPackets,
        final int dropBatchPackets,
        final CoDel codel,
        final FlowRed flowRed,
        final PacketDropListener dropListener)
    {
        if (quantumBytes < 1 || limitPackets < 1 || limitBytes < 1 || flowLimitPackets < 1 || dropBatchPackets < 1)
        {
            throw new IllegalArgumentException("fair queue needs a positive quantum, limits and drop batch: quantum=" +
                quantumBytes + " limitPackets=" + limitPackets + " limitBytes=" + limitBytes +
                " flowLimitPackets=" + flowLimitPackets + " dropBatchPackets=" + dropBatchPackets);
        }
        this.classifier = classifier;
        this.mode = mode;
        this.quantumBytes = quantumBytes;
        this.limitPackets = limitPackets;
        this.limitBytes = limitBytes;
        this.flowLimitPackets = flowLimitPackets;
        this.dropBatchPackets = dropBatchPackets;
        this.codel = codel;
        this.flowRed = flowRed;
        this.dropListener = dropListener;

        final int flowCapacity = classifier.flowCapacity();
        fifos = new FlowFifos(flowCapacity, initialSlots(limitPackets, limitBytes));
        lists = new FlowLists(flowCapacity);
        deficitBytes = new int[flowCapacity];
    }

    /**
     * {@inheritDoc}
     * <p>
     * Stamps the packet's enqueue time (CoDel's sojourn time starts here). The packet joins its flow queue, which
     * joins the round robin with one quantum if it was idle; then, while the queue is over its packet or byte limit,
     * packets of the biggest flow are dropped (in {@link Mode#FLOW_QUEUE} a batch from its head: up to
     * {@code dropBatchPackets}, stopping once half of its bytes are gone): the first is returned, any further ones go
     * to the drop listener.
     */
    public LinkPacket enqueue(final LinkPacket packet, final long nowNs)
    {
        packet.enqueueTimeNs(nowNs);
        final int flow = classify(packet.flowKey());
        if (null != flowRed && !flowRed.admit(flow, fifos, packet))
        {
            return congestionDrop(flow, packet);
        }
        if (fifos.packets(flow) >= flowLimitPackets)
        {
            flowLimitDrops++;
            return null != flowRed && flowRed.isHeadDrop() ? dropHeadFor(flow, packet) : packet;
        }

        fifos.append(flow, packet);
        if (!lists.isListed(flow))
        {
            deficitBytes[flow] = quantumBytes;
            if (Mode.FLOW_QUEUE == mode)
            {
                lists.addNew(flow);
            }
            else
            {
                lists.addOld(flow);
            }
        }

        LinkPacket dropped = null;
        while (fifos.totalPackets() > limitPackets || fifos.totalBytes() > limitBytes)
        {
            if (Mode.FLOW_QUEUE == mode)
            {
                dropped = dropBatchFromFattestFlow(dropped, nowNs);
            }
            else
            {
                dropped = recordOverflowDrop(dropped, fifos.pollTail(stochasticVictim()), nowNs);
            }
        }
        return dropped;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Deficit round robin (RFC 8290 section 4.2): take the first flow of the new list, else of the old list; a flow
     * without deficit gets one more quantum and goes to the tail of the old list; an empty flow goes to the old list
     * once if it came from the new list and the old list is not empty, otherwise it is unlisted. With CoDel, packets
     * it drops on the way go to the drop listener.
     */
    public LinkPacket dequeue(final long nowNs)
    {
        while (true)
        {
            final int flow = lists.first();
            if (flow < 0)
            {
                return null;
            }

            if (deficitBytes[flow] <= 0)
            {
                deficitBytes[flow] += quantumBytes;
                lists.moveFirstToOld();
                continue;
            }

            final LinkPacket packet = null == codel ? fifos.pollHead(flow) : codel.dequeue(fifos, flow, nowNs);
            if (null == packet)
            {
                if (lists.firstIsNew() && lists.hasOld())
                {
                    lists.moveFirstToOld();
                }
                else
                {
                    lists.removeFirst();
                    release(flow);
                }
                continue;
            }

            deficitBytes[flow] -= packet.length();
            if (Mode.STOCHASTIC == mode && 0 == fifos.packets(flow))
            {
                lists.removeFirst();
                release(flow);
            }
            return packet;
        }
    }

    /**
     * {@inheritDoc}
     */
    public int packetCount()
    {
        return fifos.totalPackets();
    }

    /**
     * {@inheritDoc}
     */
    public long byteCount()
    {
        return fifos.totalBytes();
    }

    /**
     * {@inheritDoc}
     */
    public long droppedPackets()
    {
        return overlimitDrops + flowLimitDrops + codelDrops() + redDrops();
    }

    /**
     * {@inheritDoc}
     */
    public long markedPackets()
    {
        return (null == codel ? 0 : codel.marks() + codel.ceThresholdMarks()) +
            (null == flowRed ? 0 : flowRed.red().marks());
    }

    /**
     * @return packets RED dropped on arrival (SFQ-RED; 0 without).
     */
    public long redDrops()
    {
        return null == flowRed ? 0 : flowRed.red().probabilityDrops() + flowRed.red().forcedDrops();
    }

    /**
     * @return packets dropped because the queue was over its packet or byte limit.
     */
    public long overlimitDrops()
    {
        return overlimitDrops;
    }

    /**
     * @return arrivals dropped because their flow already held the per-flow limit.
     */
    public long flowLimitDrops()
    {
        return flowLimitDrops;
    }

    /**
     * @return packets CoDel dropped while dequeuing (0 without CoDel).
     */
    public long codelDrops()
    {
        return null == codel ? 0 : codel.drops();
    }

    /**
     * @return the AQM, or null (for tests in this package).
     */
    CoDel codel()
    {
        return codel;
    }

    private int classify(final long flowKey)
    {
        final int flow = classifier.flowOf(flowKey);
        if (flow >= deficitBytes.length)
        {
            final int flowCapacity = classifier.flowCapacity();
            fifos.ensureFlowCapacity(flowCapacity);
            lists.ensureFlowCapacity(flowCapacity);
            deficitBytes = Arrays.copyOf(deficitBytes, flowCapacity);
            if (null != codel)
            {
                codel.ensureFlowCapacity(flowCapacity);
            }
            if (null != flowRed)
            {
                flowRed.red().ensureCapacity(flowCapacity);
            }
        }
        return flow;
    }

    /**
     * Linux {@code sfq_enqueue}, {@code congestion_drop}: drop the arrival, or with head drop the flow's oldest packet
     * in its place, so the flow's next packet carries the news a round trip sooner.
     */
    private LinkPacket congestionDrop(final int flow, final LinkPacket packet)
    {
        return flowRed.isHeadDrop() && fifos.packets(flow) > 0 ? dropHeadFor(flow, packet) : packet;
    }

    private LinkPacket dropHeadFor(final int flow, final LinkPacket packet)
    {
        final LinkPacket head = fifos.pollHead(flow);
        fifos.append(flow, packet);
        return head;
    }

    /**
     * Linux {@code fq_codel_drop}: from the head of the flow holding the most bytes, drop packets until half of its
     * bytes are gone or {@code dropBatchPackets} have gone (at least one), and add the number dropped to the flow's
     * CoDel count so that its AQM signals more strongly from then on (the batch amortizes the scan for the fattest
     * flow; Linux commits 9d18562a "fq_codel: add batch ability to fq_codel_drop()" and ae697f3b "Increase fq_codel
     * count in the bulk dropper").
     */
    private LinkPacket dropBatchFromFattestFlow(final LinkPacket droppedSoFar, final long nowNs)
    {
        final int victim = fifos.flowWithMostBytes();
        final long thresholdBytes = fifos.bytes(victim) >> 1;
        LinkPacket dropped = droppedSoFar;
        long droppedBytes = 0;
        int droppedPackets = 0;
        do
        {
            final LinkPacket packet = fifos.pollHead(victim);
            droppedBytes += packet.length();
            droppedPackets++;
            dropped = recordOverflowDrop(dropped, packet, nowNs);
        }
        while (droppedPackets < dropBatchPackets && droppedBytes < thresholdBytes);

        if (null != codel)
        {
            codel.addOverloadDrops(victim, droppedPackets);
        }
        return dropped;
    }

    /**
     * Linux {@code sfq_drop}: the flow holding the most packets loses its tail; if every flow holds one packet, the
     * flow served next loses its packet.
     */
    private int stochasticVictim()
    {
        final int victim = fifos.flowWithMostPackets();
        final int servedNext = lists.first();
        if (1 == fifos.packets(victim) && servedNext >= 0 && fifos.packets(servedNext) > 0)
        {
            return servedNext;
        }
        return victim;
    }

    /**
     * @return the packet {@link #enqueue} returns: the first one dropped; later ones go to the drop listener.
     */
    private LinkPacket recordOverflowDrop(final LinkPacket droppedSoFar, final LinkPacket victim, final long nowNs)
    {
        overlimitDrops++;
        if (null == droppedSoFar)
        {
            return victim;
        }
        dropListener.onDrop(victim, nowNs);
        return droppedSoFar;
    }

    private void release(final int flow)
    {
        if (classifier.release(flow))
        {
            deficitBytes[flow] = 0;
            if (null != codel)
            {
                codel.reset(flow);
            }
        }
    }

    private static int initialSlots(final int limitPackets, final long limitBytes)
    {
        final long bySize = Math.min(limitPackets, limitBytes / 64 + 1);
        return (int)Math.min(bySize, 4096);
    }
}
