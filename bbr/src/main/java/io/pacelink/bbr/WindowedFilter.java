package io.pacelink.bbr;

/**
 * Kathleen Nichols' windowed running maximum or minimum (Linux {@code lib/win_minmax.c}, the BBR draft's
 * {@code KN_FILTER}). It keeps the best, second-best and third-best samples with their times so that when the best one
 * ages out of the window a good replacement is already at hand, in constant space.
 * <p>
 * The time base is whatever the caller chooses and must never decrease: packet-timed rounds (BBRv1 bandwidth, 10
 * rounds), nanoseconds, or ProbeBW cycles. Times are compared by subtraction, so any monotonic {@code long} works.
 * No allocation: six longs and a flag.
 */
public final class WindowedFilter
{
    private final boolean isMax;
    private final long windowLength;

    private boolean hasSample;
    private long bestTime;
    private long bestValue;
    private long secondTime;
    private long secondValue;
    private long thirdTime;
    private long thirdValue;

    private WindowedFilter(final boolean isMax, final long windowLength)
    {
        if (windowLength <= 0)
        {
            throw new IllegalArgumentException("windowLength must be positive: " + windowLength);
        }
        this.isMax = isMax;
        this.windowLength = windowLength;
    }

    /**
     * @param windowLength how long a sample stays eligible, in the caller's time unit (positive).
     * @return an empty running-maximum filter ({@code minmax_running_max}).
     */
    public static WindowedFilter max(final long windowLength)
    {
        return new WindowedFilter(true, windowLength);
    }

    /**
     * @param windowLength how long a sample stays eligible, in the caller's time unit (positive).
     * @return an empty running-minimum filter ({@code minmax_running_min}).
     */
    public static WindowedFilter min(final long windowLength)
    {
        return new WindowedFilter(false, windowLength);
    }

    /**
     * @return the window length in the caller's time unit.
     */
    public long windowLength()
    {
        return windowLength;
    }

    /**
     * @return true once a sample was added since construction or {@link #clear()}.
     */
    public boolean hasSample()
    {
        return hasSample;
    }

    /**
     * @return the best sample in the window, or 0 if there is none (Linux zero-initialises its filter; callers that
     * must tell "none" from 0 check {@link #hasSample()}).
     */
    public long best()
    {
        return bestValue;
    }

    /**
     * @return the time of the best sample, or 0 if there is none.
     */
    public long bestTime()
    {
        return bestTime;
    }

    /**
     * Forget every sample.
     */
    public void clear()
    {
        hasSample = false;
        bestTime = secondTime = thirdTime = 0;
        bestValue = secondValue = thirdValue = 0;
    }

    /**
     * Forget every sample and make {@code value} the best, second and third ({@code minmax_reset}).
     *
     * @param time  the sample's time.
     * @param value the sample.
     * @return the new best value, {@code value}.
     */
    public long reset(final long time, final long value)
    {
        hasSample = true;
        bestTime = secondTime = thirdTime = time;
        bestValue = secondValue = thirdValue = value;
        return value;
    }

    /**
     * Add a sample ({@code minmax_running_max} / {@code minmax_running_min}).
     *
     * @param time  the sample's time, not before any earlier sample's.
     * @param value the sample.
     * @return the best value in the window after the update.
     */
    public long update(final long time, final long value)
    {
        // A new best, or nothing left in the window (even the third choice expired): forget earlier samples.
        if (!hasSample || isAtLeastAsGood(value, bestValue) || time - thirdTime > windowLength)
        {
            return reset(time, value);
        }

        if (isAtLeastAsGood(value, secondValue))
        {
            secondTime = thirdTime = time;
            secondValue = thirdValue = value;
        }
        else if (isAtLeastAsGood(value, thirdValue))
        {
            thirdTime = time;
            thirdValue = value;
        }

        return updateSubWindows(time, value);
    }

    /**
     * As time advances, promote the runners-up ({@code minmax_subwin_update}).
     */
    private long updateSubWindows(final long time, final long value)
    {
        final long sinceBest = time - bestTime;
        if (sinceBest > windowLength)
        {
            // The best expired without a better sample: the second becomes best, the third second, this one
            // third. The second may have expired too (the third was checked on entry), so possibly once more.
            shiftDown(time, value);
            if (time - bestTime > windowLength)
            {
                shiftDown(time, value);
            }
        }
        else if (secondTime == bestTime && sinceBest > windowLength / 4)
        {
            // A quarter of the window passed without a new runner-up: take one from the second quarter.
            secondTime = thirdTime = time;
            secondValue = thirdValue = value;
        }
        else if (thirdTime == secondTime && sinceBest > windowLength / 2)
        {
            // Half the window passed without a new third choice: take one from the last half.
            thirdTime = time;
            thirdValue = value;
        }
        return bestValue;
    }

    private void shiftDown(final long time, final long value)
    {
        bestTime = secondTime;
        bestValue = secondValue;
        secondTime = thirdTime;
        secondValue = thirdValue;
        thirdTime = time;
        thirdValue = value;
    }

    private boolean isAtLeastAsGood(final long candidate, final long incumbent)
    {
        return isMax ? candidate >= incumbent : candidate <= incumbent;
    }

    public String toString()
    {
        return (isMax ? "WindowedFilter.max(" : "WindowedFilter.min(") + windowLength + "){best=" + bestValue +
            "@" + bestTime + ", second=" + secondValue + "@" + secondTime + ", third=" + thirdValue + "@" +
            thirdTime + "}";
    }
}
