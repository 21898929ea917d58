package io.pacelink.bbr;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WindowedFilterTest
{
    @Test
    void emptyFilterTakesFirstSample()
    {
        final WindowedFilter max = WindowedFilter.max(10);
        final WindowedFilter min = WindowedFilter.min(10);
        assertFalse(max.hasSample());
        assertEquals(0, max.best());

        assertEquals(70, max.update(5, 70));
        assertEquals(70, min.update(5, 70));
        assertTrue(min.hasSample());
        assertEquals(5, min.bestTime());
    }

    @Test
    void newMaximumReplacesAllChoices()
    {
        final WindowedFilter filter = WindowedFilter.max(10);
        filter.update(0, 100);
        filter.update(1, 50);
        assertEquals(200, filter.update(2, 200));
        // Everything older than the new best is forgotten: when 200 expires there is no stale 100 behind it.
        assertEquals(2, filter.bestTime());
        assertEquals(30, filter.update(13, 30));
    }

    @Test
    void expiredBestIsReplacedByRunnerUpFromLaterQuarter()
    {
        final WindowedFilter filter = WindowedFilter.max(10);
        filter.update(0, 100);
        filter.update(1, 90);   // first quarter of the best's window: not kept as a runner-up
        filter.update(3, 80);   // past a quarter: becomes second and third choice
        assertEquals(100, filter.update(6, 70));  // past half: becomes third choice
        // At t=11 the best (t=0) is older than the window: the second choice (80 at t=3) takes over.
        assertEquals(80, filter.update(11, 10));
        assertEquals(3, filter.bestTime());
        assertEquals(80, filter.update(12, 10));
        // At t=14 the 80 expired too; the third choice (70 at t=6) is promoted.
        assertEquals(70, filter.update(14, 10));
        assertEquals(6, filter.bestTime());
    }

    @Test
    void matchesLinuxMinmaxTrace()
    {
        // Trace computed by hand from lib/win_minmax.c (minmax_running_max, win = 8).
        final WindowedFilter filter = WindowedFilter.max(8);
        assertEquals(10, filter.update(0, 10));  // reset: all three = (0, 10)
        assertEquals(10, filter.update(1, 9));   // 9 >= s1(10)? no; >= s2(10)? no; dt=1: no sub-window rule
        assertEquals(10, filter.update(3, 8));   // dt=3 > 8/4 and s1.t == s0.t: s1 = s2 = (3, 8)
        assertEquals(10, filter.update(5, 7));   // dt=5 > 8/2 and s2.t == s1.t: s2 = (5, 7)
        assertEquals(10, filter.update(8, 6));   // dt=8, not > 8: no change
        assertEquals(8, filter.update(9, 5));    // dt=9 > 8: s0 = (3, 8), s1 = (5, 7), s2 = (9, 5)
        assertEquals(3, filter.bestTime());
        assertEquals(7, filter.update(12, 4));   // dt=9 > 8: s0 = (5, 7), s1 = (9, 5), s2 = (12, 4)
        assertEquals(5, filter.update(14, 4));   // dt=9 > 8: s0 = (9, 5), s1 = (12, 4), s2 = (14, 4)
        assertEquals(9, filter.update(21, 9));   // new max resets
        assertEquals(9, filter.update(29, 1));   // dt=8: still in the window
        assertEquals(1, filter.update(40, 1));   // third choice (t=29) older than the window too: reset
    }

    @Test
    void minFilterTracksMinimum()
    {
        final WindowedFilter filter = WindowedFilter.min(10_000);
        filter.update(0, 50_000);
        assertEquals(40_000, filter.update(1_000, 40_000));
        assertEquals(40_000, filter.update(5_000, 60_000));
        assertEquals(40_000, filter.update(11_000, 60_000));
        assertEquals(60_000, filter.update(12_000, 70_000));
    }

    @Test
    void bestIsAlwaysAnUnexpiredSampleAndNeverWorseThanTheNewest()
    {
        final SplittableRandom random = new SplittableRandom(42);
        final int window = 10;
        for (final boolean isMax : new boolean[]{ true, false })
        {
            final WindowedFilter filter = isMax ? WindowedFilter.max(window) : WindowedFilter.min(window);
            final long[] values = new long[2_000];
            long time = 0;
            final long[] times = new long[values.length];
            for (int i = 0; i < values.length; i++)
            {
                time += random.nextInt(3);
                times[i] = time;
                values[i] = random.nextInt(1_000);
                final long best = filter.update(time, values[i]);

                long trueBest = values[i];
                boolean found = false;
                for (int j = i; j >= 0 && time - times[j] <= window; j--)
                {
                    trueBest = isMax ? Math.max(trueBest, values[j]) : Math.min(trueBest, values[j]);
                    found |= values[j] == best && times[j] == filter.bestTime();
                }
                assertTrue(found, "best must be a sample inside the window at i=" + i);
                assertTrue(time - filter.bestTime() <= window);
                if (isMax)
                {
                    assertTrue(best >= values[i] && best <= trueBest);
                }
                else
                {
                    assertTrue(best <= values[i] && best >= trueBest);
                }
            }
        }
    }

    @Test
    void clearForgetsAndRejectsBadWindow()
    {
        final WindowedFilter filter = WindowedFilter.max(3);
        filter.update(1, 99);
        filter.clear();
        assertFalse(filter.hasSample());
        assertEquals(5, filter.update(2, 5));
        assertThrows(IllegalArgumentException.class, () -> WindowedFilter.min(0));
    }
}
