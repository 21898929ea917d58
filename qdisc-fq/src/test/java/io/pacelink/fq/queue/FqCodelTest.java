package io.pacelink.fq.queue;

import io.pacelink.link.AqmSpec;
import io.pacelink.link.LinkPacket;
import io.pacelink.link.PacketDropListener;
import io.pacelink.link.QueueConfig;
import io.pacelink.link.RateSchedule;
import io.pacelink.transport.wire.EcnCodepoint;
import org.agrona.collections.LongArrayList;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CoDel inside fq_codel (RFC 8289, RFC 8290): a link that serves one 1500-byte packet per millisecond while packets
 * arrive at a chosen rate; drop times are recorded by the drop listener. Also fq_codel's Linux specifics: the batch
 * dropped from the fattest flow when the queue is full, and the 256-byte quantum floor.
 */
class FqCodelTest
{
    private static final long MS = 1_000_000L;
    private static final long INTERVAL_NS = QueueConfig.DEFAULT_CODEL_INTERVAL_NS;
    private static final long FLOW = 42;

    private final PacketPool pool = new PacketPool();
    private final LongArrayList dropTimesNs = new LongArrayList();
    private final PacketDropListener recordingListener = (packet, nowNs) ->
    {
        dropTimesNs.addLong(nowNs);
        pool.onDrop(packet, nowNs);
    };
    private final FairQueue queue = (FairQueue)new FqCodelQueueFactory().newQueue(
        new QueueConfig(10_000, Long.MAX_VALUE, QueueConfig.DEFAULT_QUANTUM_BYTES, QueueConfig.DEFAULT_FLOW_BUCKETS,
            QueueConfig.DEFAULT_CODEL_TARGET_NS, INTERVAL_NS, 1, AqmSpec.DEFAULT,
            RateSchedule.UNLIMITED_BITS_PER_SECOND),
        recordingListener);

    @Test
    void dropsOnceSojournStayedAboveTargetForAnIntervalThenAtIntervalOverSqrtCount()
    {
        // Two arrivals per departure: the packet leaving at k ms waited ceil(k / 2) ms, so it first waits >= 5 ms
        // at 9 ms; CoDel gives the queue one interval (100 ms) and drops at the first dequeue after 109 ms.
        run(2, 0, 1_000);

        assertFollowsTheControlLaw(dropTimesNs, "drop");
        assertEquals(dropTimesNs.size(), queue.codelDrops());
        assertEquals(dropTimesNs.size(), queue.droppedPackets());
    }

    @Test
    void doesNotDropWhileSojournStaysBelowTarget()
    {
        run(1, 0, 2_000);

        assertEquals(0, queue.codelDrops());
    }

    @Test
    void doesNotDropForAStandingQueueShorterThanAnInterval()
    {
        // 80 packets at once drain in 80 ms: sojourn is above 5 ms for 75 ms, less than one interval.
        for (int i = 0; i < 80; i++)
        {
            queue.enqueue(pool.packet(FLOW, 1500), 0);
        }
        for (int k = 0; k < 100; k++)
        {
            pool.recycle(queue.dequeue(k * MS));
        }

        assertEquals(0, queue.codelDrops());
        assertEquals(0, queue.packetCount());
    }

    @Test
    void leavesDroppingStateWhenTheQueueDrainsAndStaysQuietBelowTarget()
    {
        run(2, 0, 300);
        final int flow = new HashedFlowClassifier(QueueConfig.DEFAULT_FLOW_BUCKETS, 1).flowOf(FLOW);
        final CoDel codel = queue.codel();
        assertTrue(codel.isDropping(flow));

        // Arrivals stop: every queued packet has waited long, so CoDel keeps dropping at its growing rate until at
        // most one MTU is left (RFC 8289 section 4.2), then leaves the dropping state.
        final long nowNs = drain(300 * MS);
        assertFalse(codel.isDropping(flow));

        // Traffic at the service rate never waits 5 ms: no more drops.
        final long dropsBefore = queue.codelDrops();
        run(1, nowNs / MS, nowNs / MS + 1_000);
        assertEquals(dropsBefore, queue.codelDrops());
        assertFalse(codel.isDropping(flow));
    }

    @Test
    void dropRateResumesWhenDroppingRestartsSoon()
    {
        run(2, 0, 600);
        final int flow = new HashedFlowClassifier(QueueConfig.DEFAULT_FLOW_BUCKETS, 1).flowOf(FLOW);
        final CoDel codel = queue.codel();
        final long nowNs = drain(600 * MS);
        final int countBefore = codel.count(flow);
        assertTrue(countBefore > 3, "count " + countBefore);

        // Overload again: after another interval above target CoDel drops, and since the last drop schedule is
        // less than 16 intervals ago it restarts at count - lastcount (RFC 8289 section 5.5), not at 1.
        final long dropsBefore = queue.codelDrops();
        long k = nowNs / MS;
        while (queue.codelDrops() == dropsBefore)
        {
            run(2, k, k + 1);
            k++;
        }
        assertTrue(codel.isDropping(flow));
        assertEquals(countBefore - 1, codel.count(flow));
    }

    @Test
    void fullQueueDropsHalfOfTheFattestFlowFromItsHeadAndRaisesItsCodelCount()
    {
        final FairQueue small = fqCodel(10, QueueConfig.DEFAULT_QUANTUM_BYTES);
        final LinkPacket oldestFat = pool.packet(FLOW, 1500);
        small.enqueue(oldestFat, 0);
        for (int i = 0; i < 9; i++)
        {
            assertNull(small.enqueue(pool.packet(FLOW, 1500), 0));
        }

        // 11 packets for 10 places: the fat flow (15 000 B) loses 7 500 B from its head, the arrival stays.
        assertSame(oldestFat, small.enqueue(pool.packet(FLOW + 1, 100), 0), "fq_codel_drop: head of the fattest flow");
        assertEquals(5, small.overlimitDrops());
        assertEquals(4, dropTimesNs.size(), "the first drop is returned, the rest go to the listener");
        assertEquals(6, small.packetCount());
        assertEquals(5 * 1500 + 100, small.byteCount());
        final int fatFlow = new HashedFlowClassifier(QueueConfig.DEFAULT_FLOW_BUCKETS, 1).flowOf(FLOW);
        assertEquals(5, small.codel().count(fatFlow), "fq_codel_drop adds its drops to the CoDel count");
    }

    @Test
    void overflowDropsAtMostOneBatchOfSixtyFourPackets()
    {
        final FairQueue small = fqCodel(200, QueueConfig.DEFAULT_QUANTUM_BYTES);
        for (int i = 0; i < 200; i++)
        {
            assertNull(small.enqueue(pool.packet(FLOW, 1500), 0));
        }

        // Half of the fat flow would be 100 packets; the batch stops at 64.
        pool.recycle(small.enqueue(pool.packet(FLOW + 1, 100), 0));
        assertEquals(64, small.overlimitDrops());
        assertEquals(201 - 64, small.packetCount());
    }

    @Test
    void quantumBelowTwoHundredFiftySixBytesIsRaisedToIt()
    {
        // Linux fq_codel_change: quantum = max(256, quantum). With 256 B each new flow sends two 200-byte packets
        // (256 - 200 > 0) before the next flow; with the configured 100 B it would send one.
        final FairQueue tiny = fqCodel(100, 100);
        for (int i = 0; i < 3; i++)
        {
            tiny.enqueue(pool.packet(FLOW, 200), 0);
            tiny.enqueue(pool.packet(FLOW + 1, 200), 0);
        }

        final StringBuilder order = new StringBuilder();
        for (int i = 0; i < 4; i++)
        {
            final LinkPacket packet = tiny.dequeue(0);
            order.append(packet.flowKey() - FLOW);
            pool.recycle(packet);
        }
        assertEquals("0011", order.toString());
    }

    @Test
    void withEcnCapablePacketsCoDelMarksWhereItWouldDropAndDropsNothing()
    {
        // The drop test's load, every packet ECT(0): marks at CoDel's drop times, by its control law (Linux
        // codel_dequeue with params->ecn, fq_codel's default).
        final LongArrayList markTimesNs = new LongArrayList();
        for (long k = 0; k < 1_000; k++)
        {
            final long nowNs = k * MS;
            assertNull(queue.enqueue(pool.ectPacket(FLOW, 1500), nowNs));
            assertNull(queue.enqueue(pool.ectPacket(FLOW, 1500), nowNs));
            final LinkPacket packet = queue.dequeue(nowNs);
            if (EcnCodepoint.CE == packet.ecnCodepoint())
            {
                markTimesNs.addLong(nowNs);
            }
            pool.recycle(packet);
        }

        assertEquals(0, queue.droppedPackets());
        assertFollowsTheControlLaw(markTimesNs, "mark");
        assertEquals(markTimesNs.size(), queue.markedPackets());
    }

    @Test
    void withEcnOffEcnCapablePacketsAreDropped()
    {
        final FairQueue noEcn = fqCodel(new AqmSpec(AqmSpec.Toggle.OFF, 0, 0, 0.02, 1000, 0, false, false, 0));
        for (long k = 0; k < 1_000; k++)
        {
            noEcn.enqueue(pool.ectPacket(FLOW, 1500), k * MS);
            noEcn.enqueue(pool.ectPacket(FLOW, 1500), k * MS);
            pool.recycle(noEcn.dequeue(k * MS));
        }
        assertEquals(0, noEcn.markedPackets());
        assertEquals(110 * MS, dropTimesNs.getLong(0));
        assertTrue(noEcn.codelDrops() >= 15);
    }

    @Test
    void aCeThresholdMarksEveryEcnCapablePacketThatWaitedLonger()
    {
        final FairQueue stepped =
            fqCodel(new AqmSpec(AqmSpec.Toggle.DEFAULT, 0, 0, 0.02, 1000, 0, false, false, 2 * MS));
        // Two arrivals per departure for 20 ms: the packet leaving at k ms waited ceil(k / 2) ms.
        int marked = 0;
        int missedEct = 0;
        for (long k = 0; k < 20; k++)
        {
            final long nowNs = k * MS;
            stepped.enqueue(pool.ectPacket(FLOW, 1500), nowNs);
            stepped.enqueue(pool.packet(FLOW, 1500), nowNs);
            final LinkPacket packet = stepped.dequeue(nowNs);
            if (EcnCodepoint.CE == packet.ecnCodepoint())
            {
                marked++;
                assertTrue(nowNs - packet.enqueueTimeNs() > 2 * MS, "marked after waiting " +
                    (nowNs - packet.enqueueTimeNs()));
            }
            else if (nowNs - packet.enqueueTimeNs() > 2 * MS && 0 == packet.sequence() % 2)
            {
                missedEct++;
            }
            pool.recycle(packet);
        }
        // Dequeued at k ms: the packet enqueued at k/2 ms; waited more than 2 ms from k = 5, ECT(0) every other one.
        assertEquals(7, marked);
        assertEquals(0, missedEct);
        assertEquals(7, stepped.markedPackets());
        assertEquals(0, stepped.droppedPackets(), "no CoDel drop within 20 ms");
    }

    /**
     * The first signal at 110 ms, then RFC 8289 section 5.4's schedule: the next one interval / sqrt(count) after the
     * previous schedule, served on the 1 ms grid; at least 15 in the second.
     */
    private static void assertFollowsTheControlLaw(final LongArrayList timesNs, final String what)
    {
        assertEquals(110 * MS, timesNs.getLong(0), "first " + what);
        long idealNs = timesNs.getLong(0);
        for (int count = 1; count < timesNs.size(); count++)
        {
            idealNs += (long)(INTERVAL_NS / Math.sqrt(count));
            final long actualNs = timesNs.getLong(count);
            assertTrue(actualNs >= idealNs && actualNs < idealNs + MS,
                what + " " + count + " at " + actualNs + " ns, schedule " + idealNs + " ns");
        }
        assertTrue(timesNs.size() >= 15, what + "s in 1 s: " + timesNs.size());
    }

    private FairQueue fqCodel(final AqmSpec aqm)
    {
        return (FairQueue)new FqCodelQueueFactory().newQueue(
            new QueueConfig(10_000, Long.MAX_VALUE, QueueConfig.DEFAULT_QUANTUM_BYTES,
                QueueConfig.DEFAULT_FLOW_BUCKETS, QueueConfig.DEFAULT_CODEL_TARGET_NS, INTERVAL_NS, 1, aqm,
                RateSchedule.UNLIMITED_BITS_PER_SECOND),
            recordingListener);
    }

    private FairQueue fqCodel(final int limitPackets, final int quantumBytes)
    {
        return (FairQueue)new FqCodelQueueFactory().newQueue(
            new QueueConfig(limitPackets, Long.MAX_VALUE, quantumBytes, QueueConfig.DEFAULT_FLOW_BUCKETS,
                QueueConfig.DEFAULT_CODEL_TARGET_NS, INTERVAL_NS, 1, AqmSpec.DEFAULT,
                RateSchedule.UNLIMITED_BITS_PER_SECOND),
            recordingListener);
    }

    private long drain(final long startNs)
    {
        long nowNs = startNs;
        LinkPacket packet;
        while (null != (packet = queue.dequeue(nowNs)))
        {
            pool.recycle(packet);
            nowNs += MS;
        }
        return nowNs;
    }

    private void run(final int arrivalsPerMs, final long fromMs, final long toMs)
    {
        for (long k = fromMs; k < toMs; k++)
        {
            final long nowNs = k * MS;
            for (int i = 0; i < arrivalsPerMs; i++)
            {
                assertNull(queue.enqueue(pool.packet(FLOW, 1500), nowNs));
            }
            pool.recycle(queue.dequeue(nowNs));
        }
    }
}
