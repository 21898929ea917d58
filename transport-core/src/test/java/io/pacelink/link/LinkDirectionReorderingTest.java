package io.pacelink.link;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The link's own count of reordering ({@link LinkCounters#reorderedPackets()}, {@link
 * LinkCounters#maxReorderDistance()}) against what a receiver of numbered packets sees, and the bound jitter puts on
 * the distance: a packet can only be overtaken by packets that left the bottleneck less than twice the jitter after
 * it.
 */
class LinkDirectionReorderingTest
{
    private static final int PACKETS = 50_000;
    private static final int PACKET_BYTES = 1472;

    @Test
    void countsWhatAReceiverOfNumberedPacketsSees()
    {
        final LinkDriver driver = saturate("rate=100mbit delay=20ms jitter=0.5ms");

        final LinkCounters counters = driver.link.counters();
        assertEquals(driver.reorderings(), counters.reorderedPackets());
        assertEquals(receivedDistance(driver), counters.maxReorderDistance());
        assertTrue(counters.reorderedPackets() > PACKETS / 10, "reordered " + counters.reorderedPackets());
    }

    @Test
    void jitterBelowOneAndAHalfSerializationTimesReordersByAtMostTwo()
    {
        // 1472 B at 100 Mbit/s take 117.76 us: the spread of 2 * 140 us covers two later departures, not three.
        final LinkCounters counters = saturate("rate=100mbit delay=20ms jitter=0.14ms").link.counters();
        assertEquals(2, counters.maxReorderDistance());
        assertTrue(counters.reorderedPackets() > 1_000, "reordered " + counters.reorderedPackets());

        // 2 * 500 us covers eight.
        assertEquals(8, saturate("rate=100mbit delay=20ms jitter=0.5ms").link.counters().maxReorderDistance());
    }

    @Test
    void noJitterOrKeptOrderNeverReorders()
    {
        for (final String spec : new String[]{ "rate=100mbit delay=20ms",
            "rate=100mbit delay=20ms jitter=5ms order=keep" })
        {
            final LinkDriver driver = saturate(spec);
            assertEquals(0, driver.link.counters().reorderedPackets(), spec);
            assertEquals(0, driver.link.counters().maxReorderDistance(), spec);
            assertEquals(0, driver.reorderings(), spec);
        }
    }

    /**
     * Offer full-size packets faster than the bottleneck serves them, into a queue that holds them all, so that they
     * leave back to back in the order they were offered.
     */
    private static LinkDriver saturate(final String spec)
    {
        final LinkDriver driver = new LinkDriver(spec + " queue=" + PACKETS + "p", 7);
        for (int i = 0; i < PACKETS; i++)
        {
            driver.offer(i * 100_000L, PACKET_BYTES);
        }
        driver.runToEnd();
        assertEquals(PACKETS, driver.deliveredNumbers.size());
        return driver;
    }

    private static long receivedDistance(final LinkDriver driver)
    {
        long highest = -1;
        long maxDistance = 0;
        for (int i = 0; i < driver.deliveredNumbers.size(); i++)
        {
            final long number = driver.deliveredNumbers.getLong(i);
            maxDistance = Math.max(maxDistance, highest - number);
            highest = Math.max(highest, number);
        }
        return maxDistance;
    }
}
