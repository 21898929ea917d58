package io.pacelink.link;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LinkDirection#nextDeliveryBoundNs()}: a caller that comes back only for deliveries, skipping the ends of
 * the serializations in between, sees the same packets delivered at the same times, and the same counters, as one
 * that comes back at every event of the link.
 */
class LinkDirectionDeliveryBoundTest
{
    private static final long MS = 1_000_000L;

    @ParameterizedTest
    @ValueSource(strings = {
        "rate=10mbit delay=20ms",
        "rate=10mbit delay=20ms queue=20p",
        "rate=50mbit delay=5ms loss=2% queue=1bdp",
        "rate=20mbit delay=10ms gemodel=1%,20%,50%,0% duplicate=1% corrupt=1% queue=10p",
        "rate=8mbit delay=10ms queue=60kb qdisc=red ecn=on",
        "rate=10mbit delay=30ms jitter=5ms queue=30p",
        "rate=10mbit delay=30ms jitter=5ms order=keep queue=30p",
        "delay=15ms",
        "rate=10mbit",
        "rate=100mbit delay=5ms police=5mbit burst=30kb"})
    void deliveriesOnlyGiveTheSameDeliveriesAndCounters(final String spec)
    {
        for (long seed = 1; seed <= 5; seed++)
        {
            final LinkDriver everyEvent = new LinkDriver(spec, seed);
            final LinkDriver deliveriesOnly = new LinkDriver(spec, seed);
            deliveriesOnly.deliveriesOnly = true;
            final SplittableRandom offers = new SplittableRandom(seed);
            long timeNs = 0;
            for (int i = 0; i < 2_000; i++)
            {
                // Bursts and gaps: often at the same instant, sometimes long after the queue drained.
                timeNs += offers.nextInt(4) == 0 ? 0 : offers.nextLong(3 * MS);
                final int lengthBytes = 40 + offers.nextInt(1_460);
                assertEquals(everyEvent.offer(timeNs, lengthBytes), deliveriesOnly.offer(timeNs, lengthBytes));
            }
            everyEvent.runToEnd();
            deliveriesOnly.runToEnd();

            final String what = spec + ", seed " + seed;
            assertEquals(everyEvent.deliveredNumbers, deliveriesOnly.deliveredNumbers, what);
            assertEquals(everyEvent.deliveryTimesNs, deliveriesOnly.deliveryTimesNs, what);
            final LinkCounters expected = everyEvent.link.counters();
            final LinkCounters actual = deliveriesOnly.link.counters();
            assertEquals(expected.servedPackets(), actual.servedPackets(), what);
            assertEquals(expected.servedBytes(), actual.servedBytes(), what);
            assertEquals(expected.queueDropPackets(), actual.queueDropPackets(), what);
            assertEquals(expected.queueMarkPackets(), actual.queueMarkPackets(), what);
            assertEquals(expected.randomLossPackets(), actual.randomLossPackets(), what);
            assertEquals(expected.reorderedPackets(), actual.reorderedPackets(), what);
            assertEquals(expected.queueDelayNs().getTotalCount(), actual.queueDelayNs().getTotalCount(), what);
            assertEquals(expected.queueDelayNs().getMean(), actual.queueDelayNs().getMean(), 0.0, what);
            assertTrue(deliveriesOnly.deliveryTimesNs.size() > 100, what);
            if (!spec.contains("jitter"))
            {
                // Without jitter the bound is the next delivery itself: no wake finds nothing.
                assertEquals(0, deliveriesOnly.emptyWakes, what);
            }
        }
    }

    @Test
    void anEmptyLinkHasNoBound()
    {
        final LinkDriver driver = new LinkDriver("rate=10mbit delay=20ms", 1);
        assertEquals(Long.MAX_VALUE, driver.link.nextDeliveryBoundNs());
        driver.offer(0, 1500);
        driver.runToEnd();
        assertEquals(Long.MAX_VALUE, driver.link.nextDeliveryBoundNs());
    }

    @Test
    void withoutJitterThePacketBeingSerializedBoundsTheNextDelivery()
    {
        final LinkDriver driver = new LinkDriver("rate=10mbit delay=20ms", 1);
        driver.offer(0, 1500);
        driver.offer(0, 1500);
        // The first is serialized in 1.2 ms: the link's next event, and its delivery 20 ms after.
        assertEquals(1_200_000L, driver.link.nextEventTimeNs());
        assertEquals(21_200_000L, driver.link.nextDeliveryBoundNs());
        // Completed by a caller that reads the link at 3 ms: both propagate, the first is due first.
        driver.link.advance(3 * MS);
        assertEquals(0, driver.link.queuedPackets());
        assertEquals(2, driver.link.propagatingPackets());
        assertEquals(21_200_000L, driver.link.nextDeliveryBoundNs());
    }

    @Test
    void withJitterTheBoundIsTheSerializationsEnd()
    {
        // Jitter may take the whole delay away: a packet can be due as soon as it is serialized.
        final LinkDriver driver = new LinkDriver("rate=10mbit delay=20ms jitter=20ms", 1);
        driver.offer(0, 1500);
        assertEquals(1_200_000L, driver.link.nextDeliveryBoundNs());
        assertEquals(driver.link.nextEventTimeNs(), driver.link.nextDeliveryBoundNs());
    }

    @Test
    void aLinkWithoutARateIsDueAfterItsDelay()
    {
        final LinkDriver driver = new LinkDriver("delay=15ms", 1);
        driver.offer(2 * MS, 100);
        assertEquals(17 * MS, driver.link.nextDeliveryBoundNs());
    }
}
