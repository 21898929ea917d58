package io.pacelink.link;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LinkDirectionTest
{
    private static final long MS = 1_000_000L;
    private static final long SEED = 42;

    @Test
    void serializationTimeIsExact()
    {
        final LinkDriver driver = new LinkDriver("rate=10mbit", SEED);

        driver.offer(0, 1500);
        driver.offer(0, 1500);
        driver.offer(0, 1);
        driver.runToEnd();

        // 1500 B * 8 / 10 Mbit/s = 1.2 ms each, served back to back; 1 B = 0.8 us.
        assertEquals(1_200_000L, driver.deliveryTimesNs.getLong(0));
        assertEquals(2_400_000L, driver.deliveryTimesNs.getLong(1));
        assertEquals(2_400_800L, driver.deliveryTimesNs.getLong(2));
    }

    @Test
    void queueDelayListenerHearsEachPacketWhenItsSerializationStarts()
    {
        final LinkDriver driver = new LinkDriver("rate=10mbit", SEED);
        final List<long[]> heard = new ArrayList<>();
        driver.link.queueDelayListener((packet, queueDelayNs, nowNs) ->
            heard.add(new long[] { packet.length(), queueDelayNs, nowNs }));

        driver.offer(0, 1500);
        driver.offer(0, 1500);
        driver.offer(MS, 1);
        driver.runToEnd();

        // The first starts at once; the second waits for the first's 1.2 ms; the third, offered at 1 ms, waits
        // until 2.4 ms. The link's own histogram saw the same delays.
        assertEquals(3, heard.size());
        assertArrayEquals(new long[] { 1500, 0, 0 }, heard.get(0));
        assertArrayEquals(new long[] { 1500, 1_200_000, 1_200_000 }, heard.get(1));
        assertArrayEquals(new long[] { 1, 1_400_000, 2_400_000 }, heard.get(2));
        assertEquals(3, driver.link.counters().queueDelayNs().getTotalCount());
    }

    @Test
    void idleBottleneckStartsServingOnArrival()
    {
        final LinkDriver driver = new LinkDriver("rate=1gbit", SEED);

        driver.offer(5 * MS, 1472);
        driver.offer(10 * MS, 1472);
        driver.runToEnd();

        // 1472 B at 1 Gbit/s = 11 776 ns.
        assertEquals(5 * MS + 11_776, driver.deliveryTimesNs.getLong(0));
        assertEquals(10 * MS + 11_776, driver.deliveryTimesNs.getLong(1));
    }

    @Test
    void propagationDelayFollowsSerialization()
    {
        final LinkDriver withRate = new LinkDriver("rate=10mbit delay=20ms", SEED);
        withRate.offer(0, 1500);
        withRate.runToEnd();
        assertEquals(21_200_000L, withRate.deliveryTimesNs.getLong(0));

        final LinkDriver delayOnly = new LinkDriver("delay=20ms", SEED);
        delayOnly.offer(3, 1500);
        delayOnly.offer(3, 1500);
        delayOnly.runToEnd();
        assertEquals(20_000_003L, delayOnly.deliveryTimesNs.getLong(0));
        assertEquals(20_000_003L, delayOnly.deliveryTimesNs.getLong(1));
        assertEquals(0, delayOnly.reorderings());
    }

    @Test
    void uniformJitterStaysWithinBoundsAndReorders()
    {
        final LinkDriver driver = new LinkDriver("delay=50ms jitter=10ms", SEED);
        final int packets = 10_000;
        for (int i = 0; i < packets; i++)
        {
            driver.offer(i * MS, 100);
        }
        driver.runToEnd();

        assertEquals(packets, driver.deliveryTimesNs.size());
        double sumNs = 0;
        for (int i = 0; i < packets; i++)
        {
            final long delayNs = driver.oneWayDelayNs(i);
            assertTrue(delayNs >= 40 * MS && delayNs <= 60 * MS, "delay " + delayNs);
            sumNs += delayNs;
        }
        // Mean 50 ms; the standard error of the mean is 5.77 ms / 100 = 0.058 ms.
        assertEquals(50 * MS, sumNs / packets, 0.3 * MS);
        // Packets 1 ms apart with +-10 ms jitter overtake each other often (netem behaviour).
        assertTrue(driver.reorderings() > packets / 4, "reorderings " + driver.reorderings());
    }

    @Test
    void keepOrderPreventsReorderingButKeepsDelayBounds()
    {
        final LinkDriver driver = new LinkDriver("delay=50ms jitter=10ms order=keep", SEED);
        for (int i = 0; i < 10_000; i++)
        {
            driver.offer(i * MS, 100);
        }
        driver.runToEnd();

        assertEquals(0, driver.reorderings());
        for (int i = 0; i < driver.deliveryTimesNs.size(); i++)
        {
            final long delayNs = driver.oneWayDelayNs(i);
            assertTrue(delayNs >= 40 * MS && delayNs <= 60 * MS, "delay " + delayNs);
        }
    }

    @Test
    void normalJitterHasTheGivenStandardDeviationAndIsCut()
    {
        final LinkDriver driver = new LinkDriver("delay=50ms jitter=5ms distribution=normal", SEED);
        final int packets = 20_000;
        for (int i = 0; i < packets; i++)
        {
            driver.offer(i * MS, 100);
        }
        driver.runToEnd();

        double sum = 0;
        double sumOfSquares = 0;
        for (int i = 0; i < packets; i++)
        {
            final double delayMs = driver.oneWayDelayNs(i) / (double)MS;
            assertTrue(delayMs >= 30 && delayMs <= 70, "delay beyond 4 sigma: " + delayMs);
            sum += delayMs;
            sumOfSquares += delayMs * delayMs;
        }
        final double mean = sum / packets;
        final double sigma = Math.sqrt(sumOfSquares / packets - mean * mean);
        assertEquals(50.0, mean, 0.15);
        assertEquals(5.0, sigma, 0.25);
    }

    @Test
    void bernoulliLossRateIsWithinThreeSigma()
    {
        final LinkDriver driver = new LinkDriver("loss=10%", SEED);
        final int packets = 100_000;
        for (int i = 0; i < packets; i++)
        {
            driver.offer(i * 1000L, 100);
        }
        driver.runToEnd();

        final long lost = driver.link.counters().randomLossPackets();
        final double sigma = Math.sqrt(packets * 0.1 * 0.9);
        assertEquals(packets * 0.1, lost, 3 * sigma);
        assertEquals(packets - lost, driver.deliveryTimesNs.size());
    }

    @Test
    void gilbertElliottBurstsLastOneOverRPackets()
    {
        final LinkDriver driver = new LinkDriver("gemodel=1%,10%,100%,0%", SEED);
        final int packets = 200_000;
        for (int i = 0; i < packets; i++)
        {
            driver.offer(i * 1000L, 100);
        }
        driver.runToEnd();

        final boolean[] delivered = new boolean[packets];
        for (int i = 0; i < driver.deliveredNumbers.size(); i++)
        {
            delivered[(int)driver.deliveredNumbers.getLong(i)] = true;
        }
        int bursts = 0;
        int lostInBursts = 0;
        for (int i = 0; i < packets; i++)
        {
            if (!delivered[i])
            {
                lostInBursts++;
                if (i == 0 || delivered[i - 1])
                {
                    bursts++;
                }
            }
        }
        final double meanBurst = (double)lostInBursts / bursts;
        // Bursts are geometric with mean 1/r = 10 (std ~9.5); ~1800 bursts give a standard error of ~0.22.
        assertEquals(10.0, meanBurst, 0.7);
        // Mean loss p / (p + r) = 1/11.
        assertEquals(1.0 / 11, (double)lostInBursts / packets, 0.01);
        assertEquals(1.0 / 11, driver.link.spec().loss().meanLossRate(), 1e-12);
    }

    @Test
    void queueLimitInPackets()
    {
        final LinkDriver driver = new LinkDriver("rate=1mbit queue=10p", SEED);
        int accepted = 0;
        for (int i = 0; i < 20; i++)
        {
            accepted += driver.offer(0, 1500) ? 1 : 0;
        }
        driver.runToEnd();

        // One packet in service plus ten waiting.
        assertEquals(11, accepted);
        assertEquals(9, driver.link.counters().queueDropPackets());
        assertEquals(11, driver.deliveryTimesNs.size());
    }

    @Test
    void queueLimitInBytes()
    {
        final LinkDriver driver = new LinkDriver("rate=1mbit queue=15000b", SEED);
        for (int i = 0; i < 20; i++)
        {
            driver.offer(0, 1500);
        }
        assertEquals(10, driver.link.queuedPackets());
        assertEquals(15_000, driver.link.queuedBytes());
        assertEquals(9, driver.link.counters().queueDropPackets());
        assertFalse(driver.offer(0, 1500));
    }

    @Test
    void queueLimitInBdp()
    {
        // 12 Mbit/s * (2 * 10 ms) / 8 = 30 000 bytes = 20 packets of 1500 bytes.
        final LinkDriver driver = new LinkDriver("rate=12mbit delay=10ms queue=1bdp", SEED);
        for (int i = 0; i < 32; i++)
        {
            driver.offer(0, 1500);
        }
        assertEquals(20, driver.link.queuedPackets());
        assertEquals(11, driver.link.counters().queueDropPackets());
    }

    @Test
    void queueingDelayIsRecordedPerServedPacket()
    {
        final LinkDriver driver = new LinkDriver("rate=12mbit", SEED);
        for (int i = 0; i < 10; i++)
        {
            driver.offer(0, 1500);
        }
        driver.runToEnd();

        // 1 ms per packet: the n-th waited n ms.
        assertEquals(10, driver.link.counters().queueDelayNs().getTotalCount());
        assertEquals(0, driver.link.counters().queueDelayNs().getMinValue());
        assertEquals(9 * MS, driver.link.counters().queueDelayNs().getMaxValue(), 0.001 * 9 * MS);
        assertEquals(10 * 1500, driver.link.counters().servedBytes());
    }

    @Test
    void rateStepChangesSerializationAtTheStepTime()
    {
        final LinkDriver driver = new LinkDriver("rate=12mbit,6mbit@9.5ms queue=100p", SEED);
        for (int i = 0; i < 12; i++)
        {
            driver.offer(0, 1500);
        }
        driver.runToEnd();

        for (int i = 0; i < 9; i++)
        {
            assertEquals((i + 1) * MS, driver.deliveryTimesNs.getLong(i));
        }
        // The tenth starts at 9 ms: 6000 bits at 12 Mbit/s until 9.5 ms, the other 6000 at 6 Mbit/s take 1 ms.
        assertEquals(10_500_000L, driver.deliveryTimesNs.getLong(9));
        assertEquals(12_500_000L, driver.deliveryTimesNs.getLong(10));
        assertEquals(14_500_000L, driver.deliveryTimesNs.getLong(11));
    }

    @Test
    void outageHoldsPacketsUntilTheRateReturns()
    {
        final LinkDriver driver = new LinkDriver("rate=12mbit,0bit@10ms,12mbit@20ms", SEED);
        driver.offer(9_500_000L, 1500);
        driver.runToEnd();

        // Half the packet before the outage, half after it.
        assertEquals(20_500_000L, driver.deliveryTimesNs.getLong(0));
    }

    @Test
    void duplicationDeliversTwice()
    {
        final LinkDriver driver = new LinkDriver("duplicate=100%", SEED);
        for (int i = 0; i < 10; i++)
        {
            driver.offer(i * MS, 100);
        }
        driver.runToEnd();

        assertEquals(20, driver.deliveryTimesNs.size());
        assertEquals(10, driver.link.counters().duplicatedPackets());
        for (int i = 0; i < 20; i++)
        {
            assertEquals(i / 2, driver.deliveredNumbers.getLong(i));
        }
    }

    @Test
    void corruptionFlipsExactlyOneBit()
    {
        final LinkDriver driver = new LinkDriver("corrupt=100%", SEED);
        driver.offer(0, 3);
        driver.runToEnd();

        int bitsSet = 0;
        for (final byte b : driver.lastDelivered)
        {
            bitsSet += Integer.bitCount(b & 0xFF);
        }
        assertEquals(1, bitsSet);
        assertEquals(1, driver.link.counters().corruptedPackets());
    }

    @Test
    void sameSeedSameChoicesDifferentSeedDifferentChoices()
    {
        final String spec = "rate=50mbit delay=10ms jitter=2ms loss=5% duplicate=1%";
        final LinkDriver first = new LinkDriver(spec, 7);
        final LinkDriver second = new LinkDriver(spec, 7);
        final LinkDriver other = new LinkDriver(spec, 8);
        for (int i = 0; i < 5_000; i++)
        {
            first.offer(i * 100_000L, 1200);
            second.offer(i * 100_000L, 1200);
            other.offer(i * 100_000L, 1200);
        }
        first.runToEnd();
        second.runToEnd();
        other.runToEnd();

        assertEquals(first.deliveryTimesNs, second.deliveryTimesNs);
        assertEquals(first.deliveredNumbers, second.deliveredNumbers);
        assertFalse(first.deliveredNumbers.equals(other.deliveredNumbers));
    }

    @Test
    void recyclesPacketsSoSteadyStateStopsAllocating()
    {
        final LinkDriver driver = new LinkDriver("rate=10mbit delay=5ms loss=1% duplicate=1%", SEED);
        for (int i = 0; i < 1_000; i++)
        {
            driver.offer(i * 2 * MS, 1200);
        }
        final long warmAllocated = driver.pool.allocatedPackets();
        for (int i = 1_000; i < 20_000; i++)
        {
            driver.offer(i * 2 * MS, 1200);
        }
        driver.runToEnd();

        // At most ~4 packets are ever on the link at once (1 serializing, 5 ms / 2 ms propagating, rare copies):
        // 20 000 packets must come from a handful of recycled holders.
        assertTrue(warmAllocated <= 8, "allocated " + warmAllocated);
        assertTrue(driver.pool.allocatedPackets() <= 8, "allocated " + driver.pool.allocatedPackets());
    }
}
