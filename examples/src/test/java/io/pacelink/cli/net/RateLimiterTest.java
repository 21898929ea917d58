package io.pacelink.cli.net;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code -b} token bucket and the release time a sleeping loop waits for: a message passes exactly when its
 * tokens are there, not a nanosecond before, so the loop wakes neither early nor late.
 */
class RateLimiterTest
{
    private static final long T0 = Long.MAX_VALUE - 5_000_000L; // the clock wraps within the test

    @Test
    void aMessageIsReleasedAtTheFirstNanosecondItsTokensAreThere()
    {
        // 8 Mbit/s: one byte per microsecond; 1,000-byte messages; the first message's tokens are there at once.
        final RateLimiter limiter = new RateLimiter(8_000_000, 1_000, T0);
        assertEquals(T0, limiter.releaseNs(1_000, T0));
        assertTrue(limiter.tryAcquire(1_000, T0));

        final long releaseNs = limiter.releaseNs(1_000, T0);
        assertEquals(T0 + 1_000_000L, releaseNs, "1,000 bytes at one byte per microsecond");
        assertFalse(limiter.tryAcquire(1_000, releaseNs - 1));
        assertEquals(releaseNs, limiter.releaseNs(1_000, releaseNs - 1), "asking again moves nothing");
        assertTrue(limiter.tryAcquire(1_000, releaseNs));
        assertTrue(limiter.releaseNs(1_000, releaseNs) - releaseNs > 0, "the next one after it, past the wrap");
    }

    @Test
    void aSmallerMessageIsReleasedSoonerAndAFullBucketReleasesAtOnce()
    {
        final RateLimiter limiter = new RateLimiter(8_000_000, 1_000, 0);
        assertTrue(limiter.tryAcquire(1_000, 0));
        assertEquals(100_000L, limiter.releaseNs(100, 0));
        // After 10 ms the bucket holds its 10 ms of rate (10,000 bytes): a message goes at once.
        assertEquals(20_000_000L, limiter.releaseNs(1_000, 20_000_000L));
    }

    @Test
    void earlierComparesTimesAcrossTheClocksWrap()
    {
        assertEquals(T0, TransportWaits.earlier(T0, T0 + 10_000_000L), "T0 + 10 ms has wrapped to a negative value");
        assertEquals(T0, TransportWaits.earlier(T0 + 10_000_000L, T0));
        assertEquals(-5L, TransportWaits.earlier(-5L, 7L));
        assertEquals(3L, TransportWaits.earlier(3L, 3L));
    }
}
