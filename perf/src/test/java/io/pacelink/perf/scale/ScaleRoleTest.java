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
}
