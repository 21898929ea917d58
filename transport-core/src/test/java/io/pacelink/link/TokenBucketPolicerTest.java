package io.pacelink.link;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The policer alone (token arithmetic, as tc's {@code act_police}) and in a link direction (what it drops, what it
 * leaves to the line rate and the queue).
 */
class TokenBucketPolicerTest
{
    private static final long MS = 1_000_000L;

    @Test
    void aFullBucketPassesTheBurstThenTheRateAndTokensNeverExceedTheBurst()
    {
        // 8 Mbit/s is 1000 bytes per ms; the bucket holds 3000 bytes and starts full.
        final TokenBucketPolicer policer = new PolicerSpec(8_000_000L, 3000).newPolicer();
        assertTrue(policer.conforms(0, 1000));
        assertTrue(policer.conforms(0, 1000));
        assertTrue(policer.conforms(0, 1000));
        assertFalse(policer.conforms(0, 1), "empty");

        assertFalse(policer.conforms(MS / 2, 1000), "500 bytes of tokens");
        assertTrue(policer.conforms(MS, 1000), "a packet that exceeds takes no tokens");
        assertFalse(policer.conforms(MS, 1));

        // Idle for a second: full again, but only to the burst.
        assertTrue(policer.conforms(1000 * MS, 3000));
        assertFalse(policer.conforms(1000 * MS, 1));
        assertFalse(policer.conforms(1001 * MS, 3001), "larger than the bucket: never conforms");
    }

    @Test
    void keepsExactCountAcrossTheWholeRangeOfRatesAndBursts()
    {
        final TokenBucketPolicer fast = new PolicerSpec(1_000_000_000_000L, PolicerSpec.MAX_BURST_BYTES).newPolicer();
        assertTrue(fast.conforms(Long.MAX_VALUE / 2, 65_507));
        final TokenBucketPolicer slow = new PolicerSpec(1, PolicerSpec.MAX_BURST_BYTES).newPolicer();
        assertTrue(slow.conforms(0, 65_507));
        assertTrue(slow.conforms(Long.MAX_VALUE / 2, 65_507));
    }

    @Test
    void linkDropsWhatExceedsAtOnceAndServesTheRestAtTheLineRate()
    {
        // 12 Mbit/s line, 1 ms per 1500-byte packet; policed at 6 Mbit/s with a 3000-byte bucket; offered 1500 bytes
        // every 0.5 ms (24 Mbit/s) for 100 ms.
        final LinkDriver driver = new LinkDriver("rate=12mbit delay=10ms police=6mbit burst=3000b", 1);
        for (int i = 0; i < 200; i++)
        {
            driver.offer(i * MS / 2, 1500);
        }
        driver.runUntil(Long.MAX_VALUE - 1);

        // The bucket passes 2 at once, then one packet per 2 ms: 2 + 49 (at 2, 4, ..., 98 ms; the 100 ms one is not
        // offered).
        final LinkCounters counters = driver.link.counters();
        assertEquals(51, counters.deliveredPackets());
        assertEquals(149, counters.policedPackets());
        assertEquals(0, counters.queueDropPackets());
        // Nothing policed ever waits: the second burst packet is serialized right after the first, at the line rate.
        assertEquals(10 * MS + MS, driver.deliveryTimesNs.getLong(0));
        assertEquals(10 * MS + 2 * MS, driver.deliveryTimesNs.getLong(1));
        assertTrue(counters.queueDelayNs().getMaxValue() <= MS, "never more than one packet ahead");
    }
}
