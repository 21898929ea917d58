package io.pacelink.link;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MahimahiTraceTest
{
    private static final long MS = 1_000_000L;

    private static LinkDriver driverFor(final long... opportunitiesMs)
    {
        final PathSpec spec = PathSpec.parse("queue=100p");
        return new LinkDriver(new PathSpec(
            MahimahiTrace.of(opportunitiesMs, "test.trace"),
            spec.delayNs(),
            spec.jitterNs(),
            spec.jitterDistribution(),
            spec.keepOrder(),
            spec.loss(),
            spec.duplicateProbability(),
            spec.corruptProbability(),
            spec.policer(),
            spec.queueLimit(),
            spec.qdisc(),
            spec.quantumBytes(),
            spec.flowBuckets(),
            spec.codelTargetNs(),
            spec.codelIntervalNs(),
            spec.aqm(),
            spec.ecnRewrite()), 1);
    }

    @Test
    void deliversAtTheTracesOpportunitiesAndRepeatsIt()
    {
        final LinkDriver driver = driverFor(1, 1, 2, 5);
        for (int i = 0; i < 8; i++)
        {
            driver.offer(0, MahimahiTrace.OPPORTUNITY_BYTES);
        }
        driver.runToEnd();

        // Period 5 ms: the second pass is at 6, 6, 7, 10 ms.
        final long[] expectedMs = { 1, 1, 2, 5, 6, 6, 7, 10 };
        for (int i = 0; i < expectedMs.length; i++)
        {
            assertEquals(expectedMs[i] * MS, driver.deliveryTimesNs.getLong(i), "packet " + i);
        }
    }

    @Test
    void smallPacketsShareAnOpportunityAndLargeOnesSpanSeveral()
    {
        final LinkDriver driver = driverFor(1, 2, 3, 4, 10);
        driver.offer(0, 752);
        driver.offer(0, 752);
        driver.offer(0, 2000);
        driver.runToEnd();

        assertEquals(1 * MS, driver.deliveryTimesNs.getLong(0));
        assertEquals(1 * MS, driver.deliveryTimesNs.getLong(1));
        // 2000 bytes need two opportunities.
        assertEquals(3 * MS, driver.deliveryTimesNs.getLong(2));
    }

    @Test
    void unusedOpportunitiesAreLost()
    {
        final LinkDriver driver = driverFor(1, 2, 3, 4, 10);
        driver.offer(0, 752);
        driver.offer(1_500_000L, 752);
        driver.offer(3_500_000L, 100);
        driver.runToEnd();

        assertEquals(1 * MS, driver.deliveryTimesNs.getLong(0));
        // The rest of the 1 ms opportunity is gone by 1.5 ms: the next one is at 2 ms.
        assertEquals(2 * MS, driver.deliveryTimesNs.getLong(1));
        assertEquals(4 * MS, driver.deliveryTimesNs.getLong(2));
    }

    @Test
    void skipsWholePeriodsAfterALongIdleTime()
    {
        final LinkDriver driver = driverFor(3, 7, 10);
        driver.offer(1_000 * MS + 4 * MS, 100);
        driver.runToEnd();

        // 1000 ms is 100 periods; within the period the next opportunity after 4 ms is at 7 ms.
        assertEquals(1_007 * MS, driver.deliveryTimesNs.getLong(0));
    }

    @Test
    void capacityCountsOpportunities()
    {
        final MahimahiTrace trace = MahimahiTrace.of(new long[]{ 1, 1, 2, 5 }, "t");

        assertEquals(4 * 1504 * 8, trace.capacityBits(0, 5 * MS + 1), 0);
        assertEquals(400 * 1504 * 8, trace.capacityBits(0, 500 * MS + 1), 0);
    }
}
