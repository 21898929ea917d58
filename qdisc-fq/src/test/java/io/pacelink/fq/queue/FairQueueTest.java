package io.pacelink.fq.queue;

import io.pacelink.link.AqmSpec;
import io.pacelink.link.BottleneckQueue;
import io.pacelink.link.BottleneckQueueFactory;
import io.pacelink.link.LinkPacket;
import io.pacelink.link.QueueConfig;
import io.pacelink.link.RateSchedule;
import io.pacelink.transport.testing.AllocationMeter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FairQueueTest
{
    private static final long FAT = 1;
    private static final long THIN = 2;
    private static final long SEED = 7;
    private static final int QUANTUM = QueueConfig.DEFAULT_QUANTUM_BYTES;

    private final PacketPool pool = new PacketPool();

    @ParameterizedTest
    @ValueSource(strings = { "fq", "fq_codel", "sfq" })
    void deficitRoundRobinSharesBytesBetweenFatAndThinPackets(final String discipline)
    {
        final BottleneckQueue queue = queue(discipline, 10_000, Long.MAX_VALUE);
        for (int i = 0; i < 50; i++)
        {
            assertNull(queue.enqueue(pool.packet(FAT, 1500), 0));
            assertNull(queue.enqueue(pool.packet(THIN, 300), 0));
        }

        long fatBytes = 0;
        long thinBytes = 0;
        for (int i = 0; i < 20_000; i++)
        {
            final LinkPacket packet = queue.dequeue(0);
            if (FAT == packet.flowKey())
            {
                fatBytes += packet.length();
                queue.enqueue(pool.packet(FAT, 1500), 0);
            }
            else
            {
                thinBytes += packet.length();
                queue.enqueue(pool.packet(THIN, 300), 0);
            }
            pool.recycle(packet);
            assertTrue(Math.abs(fatBytes - thinBytes) <= QUANTUM + 1500, "fat=" + fatBytes + " thin=" + thinBytes);
        }
        assertTrue(thinBytes > 4_000_000L, "both flows were served: " + thinBytes);
        assertEquals(0, queue.droppedPackets());
    }

    @ParameterizedTest
    @ValueSource(strings = { "fq", "fq_codel" })
    void sparseFlowOvertakesBackloggedFlow(final String discipline)
    {
        final BottleneckQueue queue = queue(discipline, 10_000, Long.MAX_VALUE);
        for (int i = 0; i < 100; i++)
        {
            queue.enqueue(pool.packet(FAT, 1500), 0);
        }
        // The fat flow has had its first quantum and sits on the old list, half way through its next one.
        for (int i = 0; i < 3; i++)
        {
            assertEquals(FAT, queue.dequeue(0).flowKey());
        }

        final LinkPacket sparse = pool.packet(THIN, 100);
        queue.enqueue(sparse, 0);
        assertSame(sparse, queue.dequeue(0), "the new flow's packet goes before the fat flow's next quantum");
        assertEquals(FAT, queue.dequeue(0).flowKey());
    }

    @Test
    void stochasticFairQueueHasNoSparseFlowPriority()
    {
        final BottleneckQueue queue = queue("sfq", 10_000, Long.MAX_VALUE);
        for (int i = 0; i < 100; i++)
        {
            queue.enqueue(pool.packet(FAT, 1000), 0);
        }
        assertEquals(FAT, queue.dequeue(0).flowKey());

        // sch_sfq appends the new flow to the tail of its ring: the fat flow finishes its quantum (1514 B) first.
        queue.enqueue(pool.packet(THIN, 100), 0);
        assertEquals(FAT, queue.dequeue(0).flowKey());
        assertEquals(THIN, queue.dequeue(0).flowKey());
    }

    @Test
    void packetLimitDropsTheHeadOfTheFattestFlow()
    {
        // fq drops one packet per overflow; fq_codel's batch is in FqCodelTest.
        final BottleneckQueue queue = queue("fq", 10, Long.MAX_VALUE);
        final LinkPacket oldestFat = pool.packet(FAT, 1500);
        queue.enqueue(oldestFat, 0);
        for (int i = 0; i < 9; i++)
        {
            assertNull(queue.enqueue(pool.packet(FAT, 1500), 0));
        }

        final LinkPacket thin = pool.packet(THIN, 100);
        assertSame(oldestFat, queue.enqueue(thin, 0), "head of the fattest flow, not the arrival");
        assertEquals(10, queue.packetCount());
        assertEquals(9 * 1500 + 100, queue.byteCount());
        assertEquals(1, queue.droppedPackets());
    }

    @Test
    void stochasticFairQueueDropsTheTailOfTheLongestBucket()
    {
        final BottleneckQueue queue = queue("sfq", 10, Long.MAX_VALUE);
        LinkPacket newestFat = null;
        for (int i = 0; i < 10; i++)
        {
            newestFat = pool.packet(FAT, 1500);
            queue.enqueue(newestFat, 0);
        }

        assertSame(newestFat, queue.enqueue(pool.packet(THIN, 100), 0), "sfq_drop: tail of the longest bucket");
        assertEquals(10, queue.packetCount());
        assertEquals(1, queue.droppedPackets());
    }

    @Test
    void byteLimitDropsUntilUnderTheLimitAndReportsExtraDrops()
    {
        final BottleneckQueue queue = queue("fq", Integer.MAX_VALUE, 3000);
        final LinkPacket first = pool.packet(FAT, 1000);
        queue.enqueue(first, 0);
        queue.enqueue(pool.packet(FAT, 1000), 0);
        queue.enqueue(pool.packet(FAT, 1000), 0);
        final LinkPacket big = pool.packet(THIN, 2500);

        // 5500 B queued: the fat flow (3000 B) loses its head, then the thin flow (2500 B) is the fattest.
        assertSame(first, queue.enqueue(big, 5));
        assertSame(big, pool.lastDropped);
        assertEquals(5, pool.lastDropNs);
        assertEquals(2000, queue.byteCount());
        assertEquals(2, queue.droppedPackets());
    }

    @Test
    void perFlowLimitDropsTheArrival()
    {
        final FairQueue queue = new FairQueue(
            new ExactFlowClassifier(4), FairQueue.Mode.FLOW_QUEUE, QUANTUM, 100, Long.MAX_VALUE, 3,
            FairQueue.ONE_PACKET_PER_OVERFLOW, null, pool);
        for (int i = 0; i < 3; i++)
        {
            assertNull(queue.enqueue(pool.packet(FAT, 1500), 0));
        }

        final LinkPacket fourth = pool.packet(FAT, 1500);
        assertSame(fourth, queue.enqueue(fourth, 0));
        assertNull(queue.enqueue(pool.packet(THIN, 1500), 0));
        assertEquals(1, queue.flowLimitDrops());
        assertEquals(4, queue.packetCount());
    }

    @Test
    void exactFlowQueueGrowsBeyondItsInitialCapacityAndReusesIdleFlows()
    {
        final BottleneckQueue queue = new FqQueueFactory().newQueue(config(100_000, Long.MAX_VALUE, 8), pool);
        for (int round = 0; round < 3; round++)
        {
            for (int key = 0; key < 2000; key++)
            {
                assertNull(queue.enqueue(pool.packet(key + round * 10_000L, 100 + key % 7), 0));
            }

            final Map<Long, Integer> seen = new HashMap<>();
            LinkPacket packet;
            while (null != (packet = queue.dequeue(0)))
            {
                seen.merge(packet.flowKey(), 1, Integer::sum);
                pool.recycle(packet);
            }
            assertEquals(2000, seen.size(), "every flow was served once");
        }
        assertEquals(0, queue.packetCount());
    }

    @Test
    void stochasticBucketsAreSeeded()
    {
        final HashedFlowClassifier a = new HashedFlowClassifier(1024, SEED);
        final HashedFlowClassifier sameSeed = new HashedFlowClassifier(1024, SEED);
        final HashedFlowClassifier otherSeed = new HashedFlowClassifier(1024, SEED + 1);

        int moved = 0;
        final boolean[] used = new boolean[1024];
        int usedBuckets = 0;
        for (long key = 0; key < 10_000; key++)
        {
            final int bucket = a.flowOf(key);
            assertEquals(bucket, sameSeed.flowOf(key));
            if (bucket != otherSeed.flowOf(key))
            {
                moved++;
            }
            if (!used[bucket])
            {
                used[bucket] = true;
                usedBuckets++;
            }
        }
        assertTrue(moved > 9_900, "a different seed perturbs the buckets: " + moved);
        assertTrue(usedBuckets > 1_000, "10000 keys spread over the buckets: " + usedBuckets);
    }

    @Test
    void sameSeedReplaysTheSameServiceOrder()
    {
        final String order = serviceOrder(SEED);
        assertEquals(order, serviceOrder(SEED));
        assertNotEquals(order, serviceOrder(SEED + 1));
    }

    @Test
    void factoriesAreFoundByName()
    {
        final Map<String, BottleneckQueueFactory> byName = new HashMap<>();
        for (final BottleneckQueueFactory factory : ServiceLoader.load(BottleneckQueueFactory.class))
        {
            byName.put(factory.name(), factory);
        }

        for (final String name : new String[]{ "fq", "fq_codel", "sfq" })
        {
            assertNotNull(byName.get(name), name);
            assertNotNull(byName.get(name).newQueue(config(100, Long.MAX_VALUE, 1024), pool));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "fq", "fq_codel", "sfq" })
    void enqueueAndDequeueDoNotAllocateAfterWarmUp(final String discipline)
    {
        final BottleneckQueue queue = queue(discipline, 200, Long.MAX_VALUE);
        runMixedTraffic(queue, 0, 200_000);

        // 200 000 enqueues and 160 000 dequeues per window.
        final int[] window = { 1 };
        AllocationMeter.assertAllocationFree(discipline + " enqueue and dequeue",
            () -> runMixedTraffic(queue, 200_000 * window[0]++, 200_000));

        assertTrue(queue.droppedPackets() > 0, "the limit was exercised");
    }

    /**
     * 20 flows arrive at 1.25 times the service rate (one packet every 100 us): the queue fills and drops.
     */
    private void runMixedTraffic(final BottleneckQueue queue, final int from, final int count)
    {
        for (int i = from; i < from + count; i++)
        {
            final long nowNs = i * 100_000L;
            pool.recycle(queue.enqueue(pool.packet(i % 20, 200 + (i * 37) % 1300), nowNs));
            if (i % 5 != 0)
            {
                pool.recycle(queue.dequeue(nowNs));
            }
        }
    }

    private String serviceOrder(final long seed)
    {
        final BottleneckQueue queue = new SfqQueueFactory().newQueue(
            new QueueConfig(20, Long.MAX_VALUE, QUANTUM, 16, QueueConfig.DEFAULT_CODEL_TARGET_NS,
                QueueConfig.DEFAULT_CODEL_INTERVAL_NS, seed, AqmSpec.DEFAULT, RateSchedule.UNLIMITED_BITS_PER_SECOND),
            pool);
        final StringBuilder order = new StringBuilder();
        for (int i = 0; i < 400; i++)
        {
            pool.recycle(queue.enqueue(pool.packet(i % 40, 1000), i));
            if (i % 2 == 0)
            {
                final LinkPacket packet = queue.dequeue(i);
                order.append(packet.flowKey()).append(',');
                pool.recycle(packet);
            }
        }
        return order.toString();
    }

    private BottleneckQueue queue(final String discipline, final int limitPackets, final long limitBytes)
    {
        final QueueConfig config = config(limitPackets, limitBytes, QueueConfig.DEFAULT_FLOW_BUCKETS);
        switch (discipline)
        {
            case "fq":
                return new FqQueueFactory().newQueue(config, pool);
            case "fq_codel":
                return new FqCodelQueueFactory().newQueue(config, pool);
            default:
                return new SfqQueueFactory().newQueue(config, pool);
        }
    }

    private static QueueConfig config(final int limitPackets, final long limitBytes, final int flowBuckets)
    {
        return new QueueConfig(limitPackets, limitBytes, QUANTUM, flowBuckets,
            QueueConfig.DEFAULT_CODEL_TARGET_NS, QueueConfig.DEFAULT_CODEL_INTERVAL_NS, SEED, AqmSpec.DEFAULT,
            RateSchedule.UNLIMITED_BITS_PER_SECOND);
    }
}
