package io.pacelink.perf.scale;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The median the one-at-a-time phase reports as its connections' RTT.
 */
class ScaleRoleTest
{
    @Test
    void theMedianOfAnOddCountIsItsMiddleValue()
    {
        assertEquals(300.0, ScaleRole.medianNs(new long[] {100, 300, 900}));
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfItsMiddleTwo()
    {
        assertEquals(250.0, ScaleRole.medianNs(new long[] {100, 200, 300, 900}));
    }

    @Test
    void noValuesHaveNoMedian()
    {
        assertEquals(-1.0, ScaleRole.medianNs(new long[0]));
    }

    @Test
    void eachConnectIsReadAgainstItsOwnPing()
    {
        // connects 2.0, 1.5, 3.0 ms against pings 1.0, 1.2, 0.5: excesses 1.0, 0.3, 2.5 ms; the median 1.0 ms, not
        // the difference of the two medians (2.0 - 1.0).
        assertEquals(1_000_000.0, ScaleRole.medianExcessNs(
            new long[] {2_000_000, 1_500_000, 3_000_000, 7}, new long[] {1_000_000, 1_200_000, 500_000, 9}, 3));
        assertEquals(-1.0, ScaleRole.medianExcessNs(new long[0], new long[0], 0));
    }

    @Test
    void aReadyLinesValuesAreReadByTheirKeys()
    {
        final String ready = "READY port=4000 ping_port=4001";
        assertEquals("4000", ScaleSuite.value(ready, " port="));
        assertEquals("4001", ScaleSuite.value(ready, " ping_port="));
        assertEquals(null, ScaleSuite.value("READY port=4000", " ping_port="), "a server without the echo");
    }
}
