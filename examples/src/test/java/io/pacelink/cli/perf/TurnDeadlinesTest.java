package io.pacelink.cli.perf;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The timers {@code pacelink perf}'s loops sleep to instead of a 1 ms tick: the next interval report and the end of
 * the omitted seconds; each is left out once it no longer applies.
 */
class TurnDeadlinesTest
{
    private static final long S = 1_000_000_000L;

    @Test
    void theNextIntervalReportIsADeadlineUntilReportsAreOff()
    {
        final IntervalClock intervals = new IntervalClock(0, S);
        assertEquals(S, intervals.earlierDeadlineNs(5 * S));
        assertEquals(S / 2, intervals.earlierDeadlineNs(S / 2), "a sooner deadline stays");
        intervals.advance(S);
        assertEquals(2 * S, intervals.earlierDeadlineNs(5 * S), "the next report after one was made");
        assertEquals(5 * S, new IntervalClock(0, 0).earlierDeadlineNs(5 * S), "no reports: no deadline");
    }

    @Test
    void theOmittedSecondsEndIsADeadlineUntilTheyAreOver()
    {
        final OmittedSeconds omitted = new OmittedSeconds(0, 2 * S);
        assertEquals(2 * S, omitted.earlierDeadlineNs(5 * S));
        assertEquals(S, omitted.earlierDeadlineNs(S));
        omitted.endsBy(2 * S);
        assertEquals(5 * S, omitted.earlierDeadlineNs(5 * S), "over: no deadline");
        assertEquals(5 * S, new OmittedSeconds(0, 0).earlierDeadlineNs(5 * S), "nothing omitted: no deadline");
    }
}
