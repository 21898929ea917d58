package io.pacelink.link;

import io.pacelink.transport.wire.EcnCodepoint;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ECN field on an emulated link: carried through unchanged, marked CE by a marking queue (counted apart from
 * drops) and rewritten by a middlebox ({@code ecn_rewrite=}).
 */
class LinkDirectionEcnTest
{
    private static final long MS = 1_000_000L;

    @Test
    void theCodepointTravelsWithThePacketAndDuplicatesKeepIt()
    {
        final LinkPacketPool pool = new LinkPacketPool();
        final LinkDirection link =
            new LinkDirection(PathSpec.parse("delay=1ms duplicate=100%"), 2 * MS, 1, pool);
        link.offer(pool.acquire(100).ecnCodepoint(EcnCodepoint.ECT_1), 0);
        for (int i = 0; i < 2; i++)
        {
            final LinkPacket delivered = link.poll(MS);
            assertEquals(EcnCodepoint.ECT_1, delivered.ecnCodepoint());
            pool.release(delivered);
        }
        assertEquals(EcnCodepoint.NOT_ECT, pool.acquire(100).ecnCodepoint(), "a recycled packet starts not-ECT");
    }

    @Test
    void aRedQueueMarksInsteadOfDroppingAndCountsMarksApart()
    {
        final int[] delivered = new int[4];
        final LinkCounters marking = overload("rate=8mbit queue=60kb qdisc=red ecn=on", EcnCodepoint.ECT_0, delivered);
        assertTrue(marking.queueMarkPackets() > 0);
        assertTrue(delivered[EcnCodepoint.CE] > 0 && delivered[EcnCodepoint.CE] <= marking.queueMarkPackets(),
            delivered[EcnCodepoint.CE] + " delivered CE of " + marking.queueMarkPackets() +
            " marks (a marked arrival may still overflow the FIFO, as in Linux sch_red)");

        final LinkCounters dropping = overload("rate=8mbit queue=60kb qdisc=red ecn=on", EcnCodepoint.NOT_ECT,
            new int[4]);
        assertEquals(0, dropping.queueMarkPackets());
        assertTrue(dropping.queueDropPackets() > marking.queueDropPackets(), "not ECN-capable: dropped instead");
    }

    @Test
    void aBleachingMiddleboxClearsEveryMark()
    {
        final int[] delivered = new int[4];
        final LinkCounters counters = overload("rate=8mbit queue=60kb ecn_rewrite=not-ect", EcnCodepoint.ECT_0,
            delivered);
        assertEquals(counters.deliveredPackets(), delivered[EcnCodepoint.NOT_ECT]);
        assertEquals(counters.offeredPackets(), counters.ecnRewrittenPackets());
    }

    /**
     * Offer 1000-byte packets at twice the link's rate for 200 ms, then let it drain.
     */
    private LinkCounters overload(final String spec, final int codepoint, final int[] deliveredByCodepoint)
    {
        final LinkPacketPool pool = new LinkPacketPool();
        final LinkDirection link = new LinkDirection(PathSpec.parse(spec), 0, 5, pool);
        long nowNs = 0;
        for (int i = 0; i < 400; i++, nowNs += MS / 2)
        {
            link.offer(pool.acquire(1000).ecnCodepoint(codepoint), nowNs);
            for (LinkPacket packet = link.poll(nowNs); null != packet; packet = link.poll(nowNs))
            {
                deliveredByCodepoint[packet.ecnCodepoint()]++;
                pool.release(packet);
            }
        }
        for (nowNs += MS; link.nextEventTimeNs() != Long.MAX_VALUE; nowNs += MS)
        {
            for (LinkPacket packet = link.poll(nowNs); null != packet; packet = link.poll(nowNs))
            {
                deliveredByCodepoint[packet.ecnCodepoint()]++;
                pool.release(packet);
            }
        }
        return link.counters();
    }
}
