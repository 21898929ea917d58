package io.pacelink.link;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A running link changed as {@code tc ... change} would: rate, loss, policer and queue limit apply from the change
 * on, and what is already queued stays. Controller tests (the transport test kit's {@code ScriptedPath}) change their
 * bottleneck this way mid-run.
 */
class LinkDirectionChangeTest
{
    private static final long MS = 1_000_000L;
    private static final long SEED = 11;

    @Test
    void newRateAppliesToPacketsStartingSerializationAfterTheChange()
    {
        final LinkDriver driver = new LinkDriver("rate=10mbit delay=10ms", SEED);
        driver.offer(0, 1500);
        driver.offer(0, 1500);
        driver.runUntil(MS);
        driver.link.rate(StepRateSchedule.constant(20_000_000L));
        driver.runToEnd();

        // The first keeps its 1.2 ms; the second, still waiting at the change, takes 0.6 ms at 20 Mbit/s.
        assertEquals(11_200_000L, driver.deliveryTimesNs.getLong(0));
        assertEquals(11_800_000L, driver.deliveryTimesNs.getLong(1));
        assertEquals(10_000_000L, driver.link.spec().rate().nominalBitsPerSecond());
    }

    @Test
    void lossModelAppliesFromTheChangeOn()
    {
        final LinkDriver driver = new LinkDriver("delay=1ms", SEED);
        for (int i = 0; i < 100; i++)
        {
            assertTrue(driver.offer(i * MS, 100));
        }
        driver.link.lossModel(LossModel.bernoulli(1.0));
        assertFalse(driver.offer(100 * MS, 100));
        driver.link.lossModel(LossModel.NONE);
        assertTrue(driver.offer(101 * MS, 100));
        driver.runToEnd();

        assertEquals(1, driver.link.counters().randomLossPackets());
        assertEquals(101, driver.deliveryTimesNs.size());
    }

    @Test
    void newPolicerStartsWithAFullBucketAndNoneRemovesIt()
    {
        final LinkDriver driver = new LinkDriver("delay=1ms", SEED);
        driver.link.policer(new PolicerSpec(8_000, 3000));
        assertTrue(driver.offer(0, 1500));
        assertTrue(driver.offer(0, 1500));
        assertFalse(driver.offer(0, 1500), "the 3000-byte bucket holds two packets");
        driver.link.policer(PolicerSpec.NONE);
        assertTrue(driver.offer(0, 1500));

        assertEquals(1, driver.link.counters().policedPackets());
    }

    @Test
    void smallerQueueLimitKeepsWhatIsQueuedAndDropsNewArrivalsUntilItDrains()
    {
        final LinkDriver driver = new LinkDriver("rate=1mbit delay=1ms queue=10p", SEED);
        for (int i = 0; i < 6; i++)
        {
            assertTrue(driver.offer(0, 1000));
        }
        assertEquals(5, driver.link.queuedPackets(), "one in service, five waiting");

        driver.link.queueLimits(Integer.MAX_VALUE, 2000);
        assertEquals(5, driver.link.queuedPackets(), "nothing queued is dropped");
        assertFalse(driver.offer(0, 1000));

        // At 1 Mbit/s a 1000-byte packet takes 8 ms: at 24 ms the fourth is in service and two wait, room for none.
        driver.runUntil(24 * MS);
        assertEquals(2, driver.link.queuedPackets());
        assertFalse(driver.offer(24 * MS, 1000));
        driver.runUntil(32 * MS);
        assertEquals(1, driver.link.queuedPackets());
        assertTrue(driver.offer(32 * MS, 1000), "one waiting: 1000 + 1000 bytes fit the 2000-byte limit");
        assertEquals(2, driver.link.counters().queueDropPackets());
    }

    @Test
    void queueLimitsMustBePositive()
    {
        final LinkDriver driver = new LinkDriver("rate=1mbit", SEED);
        assertThrows(IllegalArgumentException.class, () -> driver.link.queueLimits(0, 1000));
        assertThrows(IllegalArgumentException.class, () -> driver.link.queueLimits(10, 0));
    }
}
