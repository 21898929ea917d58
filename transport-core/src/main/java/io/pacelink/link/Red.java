package io.pacelink.link;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The RED algorithm (Floyd and Jacobson 1993, as Linux {@code include/net/red.h} codes it) for one queue or for every
 * flow queue of a fair queue (SFQ-RED, Linux {@code sch_sfq.c} with {@code redflowlimit}), one state per index: the
 * average backlog, an EWMA updated at each arrival with the backlog the arrival finds; and the count of arrivals since
 * the last mark, which spreads marks evenly: with {@code p_b = max_p (avg - min) / (max - min)}, an arrival marks once
 * {@code p_b * count} reaches a uniform random number drawn after the previous mark ({@code red_mark_probability}), so
 * the gap between marks is uniform in {@code [1, 1/p_b]} as the paper's {@code p_a = p_b / (1 - count p_b)} makes it.
 * <p>
 * What a mark means is the caller's: mark CE if ECN is on and the packet is ECN-capable, else drop
 * ({@link #admit}). Seeded, so a scenario's seed reproduces every decision. Allocation free once its arrays have grown.
 */
public final class Red
{
    /**
     * The average is below {@code min}: the packet passes.
     */
    public static final int DONT_MARK = 0;

    /**
     * The average is between the thresholds and this arrival drew a mark.
     */
    public static final int PROB_MARK = 1;

    /**
     * The average is at or above {@code max}: every arrival is marked (or dropped).
     */
    public static final int HARD_MARK = 2;

    private final RedParameters parameters;
    private final SplittableRandom random;
    private double[] averageBytes;
    private long[] counts;
    private double[] markThresholds;
    private long marks;
    private long probabilityDrops;
    private long forcedDrops;

    /**
     * @param parameters the thresholds, probability and weight.
     * @param states     the number of queues (1, or the flows of a fair queue).
     * @param seed       seeds the marking draws.
     */
    public Red(final RedParameters parameters, final int states, final long seed)
    {
        this.parameters = parameters;
        this.random = new SplittableRandom(seed);
        averageBytes = new double[0];
        counts = new long[0];
        markThresholds = new double[0];
        ensureCapacity(states);
    }

    /**
     * @param states the number of states needed.
     */
    public void ensureCapacity(final int states)
    {
        final int old = counts.length;
        if (states > old)
        {
            averageBytes = Arrays.copyOf(averageBytes, states);
            counts = Arrays.copyOf(counts, states);
            markThresholds = Arrays.copyOf(markThresholds, states);
            Arrays.fill(counts, old, states, -1);
        }
    }

    /**
     * Forget a state: its queue was empty (Linux {@code red_set_vars}: average 0, count -1).
     *
     * @param state the queue's index.
     */
    public void reset(final int state)
    {
        averageBytes[state] = 0;
        counts[state] = -1;
    }

    /**
     * Update the average with the backlog an arrival finds and decide (Linux {@code red_calc_qavg_no_idle_time} then
     * {@code red_action}).
     *
     * @param state        the queue's index.
     * @param backlogBytes bytes queued before the arrival.
     * @return {@link #DONT_MARK}, {@link #PROB_MARK} or {@link #HARD_MARK}.
     */
    public int onArrival(final int state, final long backlogBytes)
    {
        averageBytes[state] += parameters.weight() * (backlogBytes - averageBytes[state]);
        return decide(state);
    }

    /**
     * Decide for the first arrival after the queue was idle: the average decays for the idle spell instead of taking
     * the empty backlog (Linux {@code red_calc_qavg} while idling, {@code red_calc_qavg_from_idle_time}).
     *
     * @param state  the queue's index.
     * @param idleNs how long the queue was empty.
     * @return {@link #DONT_MARK}, {@link #PROB_MARK} or {@link #HARD_MARK}.
     */
    public int onArrivalAfterIdle(final int state, final long idleNs)
    {
        if (idleNs > 0 && parameters.idlePacketNs() > 0)
        {
            averageBytes[state] *= Math.pow(1 - parameters.weight(), (double)idleNs / parameters.idlePacketNs());
        }
        return decide(state);
    }

    private int decide(final int state)
    {
        final double average = averageBytes[state];
        if (average < parameters.minBytes())
        {
            counts[state] = -1;
            return DONT_MARK;
        }
        if (average >= parameters.maxBytes())
        {
            counts[state] = -1;
            return HARD_MARK;
        }
        final long count = ++counts[state];
        if (0 == count)
        {
            markThresholds[state] = random.nextDouble();
            return DONT_MARK;
        }
        final double markProbability = parameters.maxProbability() * (average - parameters.minBytes()) /
            (parameters.maxBytes() - parameters.minBytes());
        if (markProbability * count >= markThresholds[state])
        {
            counts[state] = 0;
            markThresholds[state] = random.nextDouble();
            return PROB_MARK;
        }
        return DONT_MARK;
    }

    /**
     * Apply a decision to a packet (Linux {@code red_enqueue} / {@code sfq_enqueue}): a mark becomes CE if ECN is on
     * and the packet is ECN-capable (above {@code max} only without {@code harddrop}); otherwise the packet must be
     * dropped.
     *
     * @param action   what {@link #onArrival} decided.
     * @param packet   the packet to mark.
     * @param ecn      true if the queue marks instead of dropping.
     * @param hardDrop true to drop above {@code max} even ECN-capable packets.
     * @return true if the packet may be queued (unmarked or marked CE); false if it must be dropped.
     */
    public boolean admit(final int action, final LinkPacket packet, final boolean ecn, final boolean hardDrop)
    {
        switch (action)
        {
            case PROB_MARK:
                if (ecn && packet.markCe())
                {
                    marks++;
                    return true;
                }
                probabilityDrops++;
                return false;

            case HARD_MARK:
                if (ecn && !hardDrop && packet.markCe())
                {
                    marks++;
                    return true;
                }
                forcedDrops++;
                return false;

            default:
                return true;
        }
    }

    /**
     * @param state a queue's index.
     * @return its average backlog in bytes.
     */
    public double averageBytes(final int state)
    {
        return averageBytes[state];
    }

    /**
     * @return packets marked CE.
     */
    public long marks()
    {
        return marks;
    }

    /**
     * Count a mark made outside {@link #admit} (SFQ-RED with head drop marks the flow's oldest packet).
     */
    public void countMark()
    {
        marks++;
    }

    /**
     * @return packets dropped because a probabilistic mark could not be a CE mark.
     */
    public long probabilityDrops()
    {
        return probabilityDrops;
    }

    /**
     * @return packets dropped because the average was above {@code max}.
     */
    public long forcedDrops()
    {
        return forcedDrops;
    }
}
