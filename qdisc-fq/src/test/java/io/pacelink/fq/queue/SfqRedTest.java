package io.pacelink.fq.queue;

import io.pacelink.link.AqmSpec;
import io.pacelink.link.BottleneckQueue;
import io.pacelink.link.LinkPacket;
import io.pacelink.link.QueueConfig;
import io.pacelink.link.RateSchedule;
import io.pacelink.transport.wire.EcnCodepoint;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code qdisc=sfqred}: SFQ with RED on each bucket (Linux {@code sch_sfq.c} with {@code redflowlimit}), marking CE
 * where it would drop.
 */
class SfqRedTest
{
    private static final int PACKET_BYTES = 1000;
    private static final long ONE_FLOW = 7;

    private final PacketPool pool = new PacketPool();

    @Test
    void aFlowThatKeepsAStandingQueueIsMarkedNotDropped()
    {
        // redflowlimit 30 kB: max 7.5 kB, min 2.5 kB. One flow offering two packets per departure.
        final FairQueue queue = sfqRed(30_000, AqmSpec.Toggle.DEFAULT, false);
        final int marked = run(queue, ONE_FLOW, true, 60);
        assertTrue(marked > 10, marked + " marked");
        assertTrue(queue.markedPackets() >= marked, "marks made, some still queued");
        assertEquals(0, queue.redDrops(), "ECN-capable packets are marked");
    }

    @Test
    void withoutEcnTheSameDecisionsAreDrops()
    {
        final FairQueue queue = sfqRed(30_000, AqmSpec.Toggle.OFF, false);
        run(queue, ONE_FLOW, true, 60);
        assertEquals(0, queue.markedPackets());
        assertTrue(queue.redDrops() > 10, queue.redDrops() + " dropped");

        final FairQueue notEct = sfqRed(30_000, AqmSpec.Toggle.ON, false);
        run(notEct, ONE_FLOW, false, 60);
        assertEquals(0, notEct.markedPackets());
        assertTrue(notEct.redDrops() > 10, "packets that are not ECN-capable are dropped");
    }

    @Test
    void aFlowsFirstPacketIsNeverJudgedAndAnEmptiedFlowStartsAfresh()
    {
        final FairQueue queue = sfqRed(30_000, AqmSpec.Toggle.ON, false);
        run(queue, ONE_FLOW, true, 60);
        while (queue.packetCount() > 0)
        {
            pool.recycle(queue.dequeue(0));
        }
        final long marksBefore = queue.markedPackets();
        final LinkPacket first = pool.ectPacket(ONE_FLOW, PACKET_BYTES);
        assertNull(queue.enqueue(first, 0));
        assertEquals(EcnCodepoint.ECT_0, first.ecnCodepoint(), "Linux red_set_vars: a new slot starts unjudged");
        assertEquals(marksBefore, queue.markedPackets());
    }

    @Test
    void withHeadDropTheOldestPacketOfTheFlowCarriesTheMark()
    {
        final FairQueue queue = sfqRed(30_000, AqmSpec.Toggle.ON, true);
        boolean sawHeadMark = false;
        for (int i = 0; i < 60 && !sawHeadMark; i++)
        {
            final LinkPacket arrival = pool.ectPacket(ONE_FLOW, PACKET_BYTES);
            final long marksBefore = queue.markedPackets();
            assertNull(queue.enqueue(arrival, 0));
            if (queue.markedPackets() > marksBefore)
            {
                assertEquals(EcnCodepoint.ECT_0, arrival.ecnCodepoint(), "the arrival is left unmarked");
                final LinkPacket head = queue.dequeue(0);
                assertEquals(EcnCodepoint.CE, head.ecnCodepoint(), "the head carries the mark");
                pool.recycle(head);
                sawHeadMark = true;
            }
            else if (i % 2 == 0)
            {
                pool.recycle(queue.dequeue(0));
            }
        }
        assertTrue(sawHeadMark);
    }

    @Test
    void aSparseFlowIsNotPunishedForABulkFlowsQueue()
    {
        final FairQueue queue = sfqRed(30_000, AqmSpec.Toggle.ON, false);
        run(queue, ONE_FLOW, true, 60);
        final LinkPacket sparse = pool.ectPacket(ONE_FLOW + 1, 64);
        assertNull(queue.enqueue(sparse, 0));
        assertEquals(EcnCodepoint.ECT_0, sparse.ecnCodepoint(), "RED is per flow: another flow's queue is not ours");
    }

    @Test
    void withoutRedSfqIsUnchanged()
    {
        final BottleneckQueue sfq = new SfqQueueFactory().newQueue(config(AqmSpec.DEFAULT), pool);
        for (int i = 0; i < 60; i++)
        {
            final LinkPacket packet = pool.ectPacket(ONE_FLOW, PACKET_BYTES);
            final LinkPacket dropped = sfq.enqueue(packet, 0);
            assertTrue(null == dropped || dropped == packet);
            pool.recycle(dropped);
        }
        assertEquals(0, sfq.markedPackets());
    }

    /**
     * Two arrivals per departure from one flow.
     *
     * @return packets that left marked CE.
     */
    private int run(final FairQueue queue, final long flowKey, final boolean ect, final int departures)
    {
        int marked = 0;
        for (int i = 0; i < departures; i++)
        {
            for (int a = 0; a < 2; a++)
            {
                final LinkPacket packet = ect ? pool.ectPacket(flowKey, PACKET_BYTES) :
                    pool.packet(flowKey, PACKET_BYTES);
                final LinkPacket dropped = queue.enqueue(packet, 0);
                if (null != dropped)
                {
                    assertSame(packet, dropped);
                    pool.recycle(dropped);
                }
            }
            final LinkPacket served = queue.dequeue(0);
            if (EcnCodepoint.CE == served.ecnCodepoint())
            {
                marked++;
            }
            pool.recycle(served);
        }
        return marked;
    }

    private FairQueue sfqRed(final long flowLimitBytes, final AqmSpec.Toggle ecn, final boolean headDrop)
    {
        return (FairQueue)new SfqRedQueueFactory().newQueue(
            config(new AqmSpec(ecn, 0, 0, 0.02, 1000, flowLimitBytes, false, headDrop, 0)), pool);
    }

    private static QueueConfig config(final AqmSpec aqm)
    {
        return new QueueConfig(127, Long.MAX_VALUE, 1514, 1024, QueueConfig.DEFAULT_CODEL_TARGET_NS,
            QueueConfig.DEFAULT_CODEL_INTERVAL_NS, 3, aqm, RateSchedule.UNLIMITED_BITS_PER_SECOND);
    }
}
