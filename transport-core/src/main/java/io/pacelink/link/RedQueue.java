package io.pacelink.link;

/**
 * {@code qdisc=red} (Linux {@code sch_red.c}): a drop-tail FIFO, limited by {@code queue=}, in front of which RED
 * decides per arrival from the average backlog whether to let the packet pass, mark it CE (with {@code ecn=on} and an
 * ECN-capable packet) or drop it; above {@code max} every arrival is marked, or dropped with {@code harddrop=on}. While
 * the queue is empty the average decays as if empty arrivals had come at the link's rate ({@link Red}). One thread;
 * no allocation per packet.
 */
public final class RedQueue implements BottleneckQueue
{
    private static final long NOT_IDLE = Long.MIN_VALUE;

    private final FifoQueue fifo;
    private final Red red;
    private final boolean ecn;
    private final boolean hardDrop;
    private long idleSinceNs = NOT_IDLE;

    /**
     * @param limitPackets the FIFO's packet limit.
     * @param limitBytes   the FIFO's byte limit.
     * @param parameters   RED's thresholds, probability and weight.
     * @param ecn          true to mark ECN-capable packets instead of dropping them.
     * @param hardDrop     true to drop above {@code max} even ECN-capable packets.
     * @param seed         seeds RED's marking draws.
     */
    public RedQueue(
        final int limitPackets,
        final long limitBytes,
        final RedParameters parameters,
        final boolean ecn,
        final boolean hardDrop,
        final long seed)
    {
        this.fifo = new FifoQueue(limitPackets, limitBytes);
        this.red = new Red(parameters, 1, seed);
        this.ecn = ecn;
        this.hardDrop = hardDrop;
    }

    /**
     * {@inheritDoc}
     */
    public LinkPacket enqueue(final LinkPacket packet, final long nowNs)
    {
        final int action;
        if (NOT_IDLE != idleSinceNs)
        {
            action = red.onArrivalAfterIdle(0, nowNs - idleSinceNs);
            idleSinceNs = NOT_IDLE;
        }
        else
        {
            action = red.onArrival(0, fifo.byteCount());
        }
        if (!red.admit(action, packet, ecn, hardDrop))
        {
            return packet;
        }
        return fifo.enqueue(packet, nowNs);
    }

    /**
     * {@inheritDoc}
     */
    public LinkPacket dequeue(final long nowNs)
    {
        final LinkPacket packet = fifo.dequeue(nowNs);
        if (null == packet && NOT_IDLE == idleSinceNs)
        {
            idleSinceNs = nowNs; // Linux red_dequeue: red_start_of_idle_period
        }
        return packet;
    }

    /**
     * {@inheritDoc}
     */
    public int packetCount()
    {
        return fifo.packetCount();
    }

    /**
     * {@inheritDoc}
     */
    public long byteCount()
    {
        return fifo.byteCount();
    }

    /**
     * {@inheritDoc}
     */
    public long droppedPackets()
    {
        return fifo.droppedPackets() + red.probabilityDrops() + red.forcedDrops();
    }

    /**
     * {@inheritDoc}
     */
    public long markedPackets()
    {
        return red.marks();
    }

    /**
     * @return RED's state, for its average and its drop counts.
     */
    public Red red()
    {
        return red;
    }
}
