package io.pacelink.link;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link LinkDirection#propagationDelayNs(long)}: a route change that scenarios apply at a chosen time.
 */
class LinkDirectionDelayChangeTest
{
    private static final long MS = 1_000_000L;
    private static final long SEED = 7;

    @Test
    void longerDelayAppliesToPacketsLeavingAfterTheChange()
    {
        final LinkDriver driver = new LinkDriver("rate=10mbit delay=20ms", SEED);
        driver.offer(0, 1500);
        driver.runUntil(10 * MS);
        driver.link.propagationDelayNs(40 * MS);
        driver.offer(10 * MS, 1500);
        driver.runToEnd();

        // 1.2 ms of serialization each, then the delay in force when the packet left the bottleneck.
        assertEquals(21_200_000L, driver.deliveryTimesNs.getLong(0));
        assertEquals(51_200_000L, driver.deliveryTimesNs.getLong(1));
        assertEquals(40 * MS, driver.link.propagationDelayNs());
        assertEquals(20 * MS, driver.link.spec().delayNs());
    }

    @Test
    void shorterDelayNeverLetsAPacketOvertakeOnAnOrderedLink()
    {
        final LinkDriver driver = new LinkDriver("rate=10mbit delay=40ms", SEED);
        driver.offer(0, 1500);
        driver.runUntil(2 * MS);
        driver.link.propagationDelayNs(5 * MS);
        driver.offer(2 * MS, 1500);
        driver.offer(45 * MS, 1500);
        driver.runToEnd();

        assertEquals(41_200_000L, driver.deliveryTimesNs.getLong(0));
        // Would arrive at 3.2 + 5 = 8.2 ms: waits behind the first packet instead.
        assertEquals(41_200_000L, driver.deliveryTimesNs.getLong(1));
        // Once the earlier packets are out of the way, the short delay shows.
        assertEquals(51_200_000L, driver.deliveryTimesNs.getLong(2));
        assertEquals(0, driver.reorderings());
    }

    @Test
    void negativeDelayIsRejected()
    {
        final LinkDriver driver = new LinkDriver("delay=20ms", SEED);
        assertThrows(IllegalArgumentException.class, () -> driver.link.propagationDelayNs(-1));
    }
}
