package io.pacelink.transport.stats;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The duty-cycle counters: the longest since the start, and the longest of the last one to two seconds, which forgets
 * a start-up's stall so a reader sampling once a second sees what the endpoint does now.
 */
class EndpointCountersTest
{
    private static final long MS = 1_000_000L;

    private final EndpointCounters counters = new EndpointCounters(CountersBuffers.newManager(64 * 1024), "test");

    private void cycle(final long endMs, final long durationMs)
    {
        counters.onDutyCycle(endMs * MS, durationMs * MS);
    }

    @Test
    void theRecentLongestKeepsTheCurrentAndThePreviousIntervalOnly()
    {
        cycle(0, 50);
        assertEquals(50 * MS, counters.longestRecentDutyCycleNs().get());
        cycle(500, 1);
        assertEquals(50 * MS, counters.longestRecentDutyCycleNs().get(), "the same interval");
        cycle(1_200, 2);
        assertEquals(50 * MS, counters.longestRecentDutyCycleNs().get(), "the previous interval's");
        cycle(2_300, 3);
        assertEquals(3 * MS, counters.longestRecentDutyCycleNs().get(), "the stall is two intervals back");
        cycle(2_400, 1);
        assertEquals(3 * MS, counters.longestRecentDutyCycleNs().get());
        cycle(6_000, 1);
        assertEquals(1 * MS, counters.longestRecentDutyCycleNs().get(), "an idle gap carries nothing over");
        assertEquals(50 * MS, counters.longestDutyCycleNs().get(), "the longest since the start stays");
    }
}
