package io.pacelink.link;

import java.util.Arrays;

/**
 * A piecewise-constant bottleneck rate: {@code rate=100mbit} (one step) or {@code rate=100mbit,50mbit@30s} (a step
 * change at 30 s). A step of 0 bit/s is an outage that holds packets until the next step; the last step must be
 * positive. Serialization is exact in integer nanoseconds: a packet of {@code n} bytes at {@code R} bit/s takes
 * {@code ceil(8n * 1e9 / R)} ns, and a packet in service across a step is served at each step's rate in turn.
 */
public final class StepRateSchedule implements RateSchedule
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final StepRateSchedule UNLIMITED =
        new StepRateSchedule(new long[]{ 0 }, new long[]{ UNLIMITED_BITS_PER_SECOND });

    private final long[] stepStartNs;
    private final long[] stepBitsPerSecond;

    private StepRateSchedule(final long[] stepStartNs, final long[] stepBitsPerSecond)
    {
        this.stepStartNs = stepStartNs;
        this.stepBitsPerSecond = stepBitsPerSecond;
    }

    /**
     * @return a schedule with no bottleneck (no serialization delay).
     */
    public static StepRateSchedule unlimited()
    {
        return UNLIMITED;
    }

    /**
     * @param bitsPerSecond the constant rate, positive.
     * @return the schedule.
     */
    public static StepRateSchedule constant(final long bitsPerSecond)
    {
        return steps(new long[]{ 0 }, new long[]{ bitsPerSecond });
    }

    /**
     * @param stepStartNs       when each step starts: the first at 0, then strictly increasing.
     * @param stepBitsPerSecond each step's rate: zero (an outage) or positive; the last one positive.
     * @return the schedule.
     * @throws IllegalArgumentException if the steps are not as described.
     */
    public static StepRateSchedule steps(final long[] stepStartNs, final long[] stepBitsPerSecond)
    {
        if (stepStartNs.length == 0 || stepStartNs.length != stepBitsPerSecond.length)
        {
            throw new IllegalArgumentException("need one rate per step start, at least one step");
        }
        if (stepStartNs[0] != 0)
        {
            throw new IllegalArgumentException("the first rate step must start at 0s");
        }
        for (int i = 0; i < stepStartNs.length; i++)
        {
            if (i > 0 && stepStartNs[i] <= stepStartNs[i - 1])
            {
                throw new IllegalArgumentException("rate step times must increase strictly");
            }
            if (stepBitsPerSecond[i] < 0)
            {
                throw new IllegalArgumentException("a rate must not be negative");
            }
        }
        if (stepBitsPerSecond[stepBitsPerSecond.length - 1] == 0)
        {
            throw new IllegalArgumentException("the last rate step must be positive (an outage must end)");
        }
        return new StepRateSchedule(stepStartNs.clone(), stepBitsPerSecond.clone());
    }

    /**
     * @return the number of steps.
     */
    public int stepCount()
    {
        return stepStartNs.length;
    }

    /**
     * @param step index of the step.
     * @return when it starts.
     */
    public long stepStartNs(final int step)
    {
        return stepStartNs[step];
    }

    /**
     * @param step index of the step.
     * @return its rate in bits per second.
     */
    public long stepBitsPerSecond(final int step)
    {
        return stepBitsPerSecond[step];
    }

    /**
     * {@inheritDoc}
     */
    public Server newServer()
    {
        return new StepServer();
    }

    /**
     * {@inheritDoc}
     */
    public long nominalBitsPerSecond()
    {
        return stepBitsPerSecond[0];
    }

    /**
     * {@inheritDoc}
     */
    public double capacityBits(final long fromNs, final long toNs)
    {
        double bits = 0;
        for (int i = 0; i < stepStartNs.length; i++)
        {
            final long start = Math.max(fromNs, stepStartNs[i]);
            final long end = Math.min(toNs, i + 1 < stepStartNs.length ? stepStartNs[i + 1] : Long.MAX_VALUE);
            if (end > start)
            {
                if (stepBitsPerSecond[i] == UNLIMITED_BITS_PER_SECOND)
                {
                    return Double.POSITIVE_INFINITY;
                }
                bits += (double)stepBitsPerSecond[i] * (end - start) / NANOS_PER_SECOND;
            }
        }
        return bits;
    }

    /**
     * {@inheritDoc}
     */
    public String toSpec()
    {
        if (stepBitsPerSecond[0] == UNLIMITED_BITS_PER_SECOND)
        {
            return "";
        }
        final StringBuilder spec = new StringBuilder("rate=");
        for (int i = 0; i < stepStartNs.length; i++)
        {
            if (i > 0)
            {
                spec.append(',');
            }
            spec.append(SpecUnits.formatRate(stepBitsPerSecond[i]));
            if (i > 0)
            {
                spec.append('@').append(SpecUnits.formatTime(stepStartNs[i]));
            }
        }
        return spec.toString();
    }

    /**
     * {@inheritDoc}
     */
    public boolean equals(final Object other)
    {
        return other instanceof StepRateSchedule that &&
            Arrays.equals(stepStartNs, that.stepStartNs) &&
            Arrays.equals(stepBitsPerSecond, that.stepBitsPerSecond);
    }

    /**
     * {@inheritDoc}
     */
    public int hashCode()
    {
        return 31 * Arrays.hashCode(stepStartNs) + Arrays.hashCode(stepBitsPerSecond);
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        return toSpec();
    }

    private final class StepServer implements Server
    {
        private int step;

        public long serviceCompleteNs(final long startNs, final int lengthBytes)
        {
            while (step + 1 < stepStartNs.length && stepStartNs[step + 1] <= startNs)
            {
                step++;
            }

            // Work is measured in bit-nanoseconds-per-second so that every step is served in exact integers: a step
            // of R bit/s does R units of work per nanosecond. A crossing only happens when the step is shorter than
            // the remaining need, so R * (end - t) < work <= 8 * 65507 * 1e9 and nothing overflows.
            long work = lengthBytes * 8L * NANOS_PER_SECOND;
            long timeNs = startNs;
            while (true)
            {
                final long rate = stepBitsPerSecond[step];
                if (rate == UNLIMITED_BITS_PER_SECOND)
                {
                    return timeNs;
                }
                final boolean last = step + 1 == stepStartNs.length;
                final long endNs = last ? Long.MAX_VALUE : stepStartNs[step + 1];
                if (rate > 0)
                {
                    final long needNs = (work + rate - 1) / rate;
                    if (last || needNs <= endNs - timeNs)
                    {
                        return timeNs + needNs;
                    }
                    work -= rate * (endNs - timeNs);
                }
                timeNs = endNs;
                step++;
            }
        }
    }
}
