package io.pacelink.fq.queue;

import io.pacelink.link.LinkPacket;
import io.pacelink.link.PacketDropListener;

import java.util.Arrays;

/**
 * CoDel (RFC 8289) run independently on every flow queue of a fair queue, as fq_codel does (RFC 8290 section 4.2):
 * once the sojourn time of dequeued packets has stayed at or above {@code target} for a whole {@code interval}, the
 * flow enters the dropping state and drops its head packet, then drops again at
 * {@code interval / sqrt(count)} spacing while the sojourn time stays above target. With ECN (fq_codel's default, Linux
 * {@code fq_codel_init}: {@code cparams.ecn = true}) an ECN-capable packet is marked CE where it would be dropped and
 * is sent on; the control law runs exactly as for a drop (Linux {@code codel_dequeue}). A {@code ce_threshold} also
 * marks every ECN-capable packet whose sojourn exceeds it, dropping or not (Linux's step marking for DCTCP and L4S).
 * State per flow lives in parallel arrays; no allocation per packet.
 * <p>
 * The dequeue follows RFC 8289 section 5 (which adopts the Linux {@code codel_dequeue} variant, including the
 * re-entry rule that resumes the previous drop rate when dropping restarts within 16 intervals), with an exact
 * {@code 1/sqrt(count)} where Linux uses a Newton-step approximation.
 */
final class CoDel
{
    /**
     * RFC 8289 section 4.2: never drop when less than one maximum-size packet is queued; an Ethernet frame.
     */
    static final int MAX_PACKET_BYTES = 1514;

    /**
     * Linux codel_dequeue / RFC 8289 section 5.5: the drop rate is resumed if dropping restarts within this many
     * intervals of the last drop schedule.
     */
    private static final int RESUME_WINDOW_INTERVALS = 16;

    private final long targetNs;
    private final long intervalNs;
    private final PacketDropListener dropListener;
    private final boolean ecn;
    private final long ceThresholdNs;

    private long[] firstAboveTimeNs = new long[0];
    private long[] dropNextNs = new long[0];
    private int[] counts = new int[0];
    private int[] lastCounts = new int[0];
    private boolean[] dropping = new boolean[0];
    private long drops;
    private long marks;
    private long ceThresholdMarks;

    /**
     * @param targetNs     acceptable standing queue delay (RFC 8289 section 4.4, 5 ms).
     * @param intervalNs   the sliding window and initial drop spacing (RFC 8289 section 4.3, 100 ms).
     * @param flowCapacity number of flow queues.
     * @param dropListener where dropped packets go.
     */
    CoDel(final long targetNs, final long intervalNs, final int flowCapacity, final PacketDropListener dropListener)
    {
        this(targetNs, intervalNs, flowCapacity, dropListener, false, 0);
    }

    /**
     * @param targetNs      acceptable standing queue delay (RFC 8289 section 4.4, 5 ms).
     * @param intervalNs    the sliding window and initial drop spacing (RFC 8289 section 4.3, 100 ms).
     * @param flowCapacity  number of flow queues.
     * @param dropListener  where dropped packets go.
     * @param ecn           true to mark ECN-capable packets CE instead of dropping them.
     * @param ceThresholdNs mark every ECN-capable packet that waited longer than this; 0 for no step marking.
     */
    CoDel(
        final long targetNs,
        final long intervalNs,
        final int flowCapacity,
        final PacketDropListener dropListener,
        final boolean ecn,
        final long ceThresholdNs)
    {
        if (targetNs <= 0 || intervalNs <= 0)
        {
            throw new IllegalArgumentException(
                "CoDel target and interval must be positive: target=" + targetNs + "ns interval=" + intervalNs + "ns");
        }
        this.targetNs = targetNs;
        this.intervalNs = intervalNs;
        this.dropListener = dropListener;
        this.ecn = ecn;
        this.ceThresholdNs = ceThresholdNs;
        ensureFlowCapacity(flowCapacity);
    }

    void ensureFlowCapacity(final int flowCapacity)
    {
        if (flowCapacity > counts.length)
        {
            firstAboveTimeNs = Arrays.copyOf(firstAboveTimeNs, flowCapacity);
            dropNextNs = Arrays.copyOf(dropNextNs, flowCapacity);
            counts = Arrays.copyOf(counts, flowCapacity);
            lastCounts = Arrays.copyOf(lastCounts, flowCapacity);
            dropping = Arrays.copyOf(dropping, flowCapacity);
        }
    }

    /**
     * Forget a flow's state (its index is about to serve another flow).
     */
    void reset(final int flow)
    {
        firstAboveTimeNs[flow] = 0;
        dropNextNs[flow] = 0;
        counts[flow] = 0;
        lastCounts[flow] = 0;
        dropping[flow] = false;
    }

    /**
     * Count packets the fair queue dropped from this flow because the queue was full (Linux {@code fq_codel_drop}
     * adds them to {@code cvars.count}): once dropping, the control law's spacing {@code interval / sqrt(count)} is
     * shorter from the next drop on; the next drop time already scheduled stays.
     *
     * @param flow    the flow index.
     * @param packets packets dropped from it on overload.
     */
    void addOverloadDrops(final int flow, final int packets)
    {
        counts[flow] += packets;
    }

    /**
     * @return packets dropped so far.
     */
    long drops()
    {
        return drops;
    }

    /**
     * @return packets marked CE where they would have been dropped.
     */
    long marks()
    {
        return marks;
    }

    /**
     * @return packets marked CE for waiting longer than the {@code ce_threshold}.
     */
    long ceThresholdMarks()
    {
        return ceThresholdMarks;
    }

    /**
     * @return true if the flow is in CoDel's dropping state.
     */
    boolean isDropping(final int flow)
    {
        return dropping[flow];
    }

    /**
     * @return the flow's drop count in the current dropping cycle.
     */
    int count(final int flow)
    {
        return counts[flow];
    }

    /**
     * Dequeue the flow's next packet, dropping head packets as the control law says (RFC 8289 section 5.5).
     *
     * @param fifos the packet storage.
     * @param flow  the flow index.
     * @param nowNs current time.
     * @return the packet to send, or null if the flow is (or became) empty.
     */
    LinkPacket dequeue(final FlowFifos fifos, final int flow, final long nowNs)
    {
        LinkPacket packet = fifos.pollHead(flow);
        if (null == packet)
        {
            firstAboveTimeNs[flow] = 0;
            dropping[flow] = false;
            return null;
        }

        final boolean okToDrop = okToDrop(fifos, flow, packet, nowNs);
        if (dropping[flow])
        {
            if (!okToDrop)
            {
                // Sojourn time went below target: leave the dropping state.
                dropping[flow] = false;
            }
            else
            {
                while (dropping[flow] && nowNs >= dropNextNs[flow])
                {
                    counts[flow]++;
                    if (ecn && packet.markCe())
                    {
                        // Linux codel_dequeue: the mark stands for the drop; schedule the next one and send it.
                        marks++;
                        dropNextNs[flow] = controlLaw(dropNextNs[flow], counts[flow]);
                        return markAboveCeThreshold(packet, nowNs);
                    }
                    drop(packet, nowNs);
                    packet = fifos.pollHead(flow);
                    if (!okToDrop(fifos, flow, packet, nowNs))
                    {
                        dropping[flow] = false;
                    }
                    else
                    {
                        dropNextNs[flow] = controlLaw(dropNextNs[flow], counts[flow]);
                    }
                }
            }
        }
        else if (okToDrop)
        {
            if (ecn && packet.markCe())
            {
                marks++;
            }
            else
            {
                drop(packet, nowNs);
                packet = fifos.pollHead(flow);
                okToDrop(fifos, flow, packet, nowNs);
            }
            dropping[flow] = true;

            // If dropping restarts soon after it last stopped, resume near the drop rate that controlled the queue
            // last time instead of starting over at count 1.
            final int delta = counts[flow] - lastCounts[flow];
            if (delta > 1 && nowNs - dropNextNs[flow] < RESUME_WINDOW_INTERVALS * intervalNs)
            {
                counts[flow] = delta;
            }
            else
            {
                counts[flow] = 1;
            }
            lastCounts[flow] = counts[flow];
            dropNextNs[flow] = controlLaw(nowNs, counts[flow]);
        }
        return markAboveCeThreshold(packet, nowNs);
    }

    /**
     * Linux {@code codel_dequeue}, its end: with a {@code ce_threshold}, a packet that waited longer is marked CE
     * (a step AQM, RFC 9332 section 4.2's shallow threshold for L4S; DCTCP's K).
     */
    private LinkPacket markAboveCeThreshold(final LinkPacket packet, final long nowNs)
    {
        if (null != packet && 0 != ceThresholdNs && nowNs - packet.enqueueTimeNs() > ceThresholdNs &&
            packet.markCe())
        {
            ceThresholdMarks++;
        }
        return packet;
    }

    /**
     * RFC 8289 section 5.3 {@code dodequeue}: true once the sojourn time has been at or above target for at least
     * one interval; any packet below target, or a queue holding at most one maximum-size packet, restarts the window.
     */
    private boolean okToDrop(final FlowFifos fifos, final int flow, final LinkPacket packet, final long nowNs)
    {
        if (null == packet)
        {
            firstAboveTimeNs[flow] = 0;
            return false;
        }

        final long sojournNs = nowNs - packet.enqueueTimeNs();
        if (sojournNs < targetNs || fifos.totalBytes() <= MAX_PACKET_BYTES)
        {
            firstAboveTimeNs[flow] = 0;
            return false;
        }

        if (0 == firstAboveTimeNs[flow])
        {
            firstAboveTimeNs[flow] = nowNs + intervalNs;
            return false;
        }
        return nowNs > firstAboveTimeNs[flow];
    }

    /**
     * RFC 8289 section 5.4: the next drop is {@code interval / sqrt(count)} after {@code t}.
     */
    private long controlLaw(final long tNs, final int count)
    {
        return tNs + (long)(intervalNs / Math.sqrt(count));
    }

    private void drop(final LinkPacket packet, final long nowNs)
    {
        drops++;
        dropListener.onDrop(packet, nowNs);
    }
}
