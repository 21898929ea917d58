package io.pacelink.perf;

import io.pacelink.link.AqmSpec;
import io.pacelink.link.BottleneckQueue;
import io.pacelink.link.BottleneckQueueFactory;
import io.pacelink.link.BottleneckQueues;
import io.pacelink.link.FlowKeys;
import io.pacelink.link.LinkPacket;
import io.pacelink.link.LinkPacketPool;
import io.pacelink.link.QueueConfig;
import io.pacelink.link.RateSchedule;
import io.pacelink.perf.link.RecyclingDropListener;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Cost of a bottleneck queue of the link model: one packet in, one packet out, with a standing queue.
 * <p>
 * The queue (default parameters: fq_codel's 1514-byte quantum and 1024 buckets, CoDel 5 ms / 100 ms, a 10 000 packet
 * limit) starts with {@link #BACKLOG_PACKETS} packets queued. One op is one 1200-byte packet of the next flow
 * (flows arrive in a seeded random order, each once per round) taken from a {@link LinkPacketPool} and enqueued,
 * then one packet dequeued and returned to the pool, while the virtual clock moves on by the packet's serialization
 * time at 1 Gbit/s. The other disciplines keep 1000 packets queued; fq_codel's CoDel drops during warm-up until the
 * sojourn time is under its 5 ms target and then holds the backlog: about 520 packets with 1 flow, 16 with 100 flows
 * (a hundred CoDel instances, one per flow, overshoot together) and about 360 with 10 000 flows (hash collisions in
 * the 1024 buckets keep a drop now and then). The packet rate does not adapt to drops: this is the queue's cost per
 * packet, not a congestion-control experiment.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = { BenchmarkJvm.ADD_EXPORTS_MISC, BenchmarkJvm.ADD_OPENS_MISC })
@State(Scope.Thread)
public class BottleneckQueueBenchmark
{
    /**
     * Packets queued when the benchmark starts.
     */
    public static final int BACKLOG_PACKETS = 1000;

    /**
     * The queue's packet limit, well above the backlog: the benchmark measures queueing, not overflow.
     */
    public static final int LIMIT_PACKETS = 10_000;

    /**
     * Size of every packet.
     */
    public static final int PACKET_SIZE_BYTES = 1200;

    /**
     * Rate the queue drains at: 1 Gbit/s.
     */
    public static final long LINK_BYTES_PER_SECOND = 125_000_000L;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long SEED = 42;
    private static final long START_NS = 1_000_000_000L;

    /**
     * The queue discipline.
     */
    @Param({ "fifo", "fq", "fq_codel", "sfq" })
    public String qdisc;

    /**
     * Number of flows sending through the queue.
     */
    @Param({ "1", "100", "10000" })
    public int flows;

    private final LinkPacketPool pool = new LinkPacketPool();
    private RecyclingDropListener dropListener;
    private BottleneckQueue queue;
    private long[] arrivalFlowKeys;
    private int arrivalIndex;
    private long sequence;
    private long stepNs;
    private long nowNs;

    /**
     * Create the queue and fill it with the standing backlog.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        dropListener = new RecyclingDropListener(pool);
        final BottleneckQueueFactory factory = BottleneckQueues.factory(qdisc);
        queue = factory.newQueue(
            new QueueConfig(
                LIMIT_PACKETS,
                Long.MAX_VALUE,
                QueueConfig.DEFAULT_QUANTUM_BYTES,
                QueueConfig.DEFAULT_FLOW_BUCKETS,
                QueueConfig.DEFAULT_CODEL_TARGET_NS,
                QueueConfig.DEFAULT_CODEL_INTERVAL_NS,
                SEED,
                AqmSpec.DEFAULT,
                RateSchedule.UNLIMITED_BITS_PER_SECOND),
            dropListener);

        // Each flow once per round, rounds in one seeded random order.
        final SplittableRandom random = new SplittableRandom(SEED);
        arrivalFlowKeys = new long[flows];
        for (int i = 0; i < flows; i++)
        {
            arrivalFlowKeys[i] = FlowKeys.mix(i + 1);
        }
        for (int i = flows - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final long swap = arrivalFlowKeys[i];
            arrivalFlowKeys[i] = arrivalFlowKeys[j];
            arrivalFlowKeys[j] = swap;
        }

        stepNs = PACKET_SIZE_BYTES * NANOS_PER_SECOND / LINK_BYTES_PER_SECOND;
        nowNs = START_NS;
        for (int i = 0; i < BACKLOG_PACKETS; i++)
        {
            nowNs += stepNs;
            recycle(queue.enqueue(nextArrival(), nowNs));
        }
    }

    /**
     * @return the packet that left (already back in the pool), or null if the queue was empty.
     */
    @Benchmark
    public LinkPacket enqueueDequeue()
    {
        nowNs += stepNs;
        recycle(queue.enqueue(nextArrival(), nowNs));
        final LinkPacket departed = queue.dequeue(nowNs);
        recycle(departed);
        return departed;
    }

    /**
     * @return the queue under test (for tests).
     */
    BottleneckQueue queue()
    {
        return queue;
    }

    /**
     * @return the pool the benchmark's packets come from (for tests).
     */
    LinkPacketPool pool()
    {
        return pool;
    }

    private LinkPacket nextArrival()
    {
        final LinkPacket packet = pool.acquire(PACKET_SIZE_BYTES)
            .flowKey(arrivalFlowKeys[arrivalIndex])
            .sequence(sequence++);
        if (++arrivalIndex == flows)
        {
            arrivalIndex = 0;
        }
        return packet;
    }

    private void recycle(final LinkPacket packet)
    {
        if (null != packet)
        {
            pool.release(packet);
        }
    }
}
