package io.pacelink.transport.stream;

import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RangeSetTest
{
    @Test
    void shouldMergeOverlappingAndTouchingRanges()
    {
        final RangeSet set = new RangeSet(2, 100);
        set.add(10, 20);
        set.add(30, 40);
        set.add(50, 60);
        assertEquals("RangeSet{[10, 20), [30, 40), [50, 60)}", set.toString());

        set.add(20, 30);
        assertEquals("RangeSet{[10, 40), [50, 60)}", set.toString());

        set.add(5, 55);
        assertEquals("RangeSet{[5, 60)}", set.toString());

        set.add(0, 1);
        set.add(60, 61);
        assertEquals("RangeSet{[0, 1), [5, 61)}", set.toString());
        assertEquals(57, set.coveredLength());
    }

    @Test
    void shouldIgnoreEmptyRanges()
    {
        final RangeSet set = new RangeSet(2, 100);
        assertTrue(set.add(10, 10));
        assertTrue(set.add(10, 5));
        assertTrue(set.isEmpty());
        set.add(0, 10);
        assertTrue(set.remove(5, 5));
        assertEquals("RangeSet{[0, 10)}", set.toString());
    }

    @Test
    void shouldSplitAndTrimOnRemove()
    {
        final RangeSet set = new RangeSet(0, 100);
        set.add(0, 100);
        set.remove(40, 60);
        assertEquals("RangeSet{[0, 40), [60, 100)}", set.toString());

        set.remove(30, 70);
        assertEquals("RangeSet{[0, 30), [70, 100)}", set.toString());

        set.add(200, 300);
        set.remove(0, 250);
        assertEquals("RangeSet{[250, 300)}", set.toString());

        set.remove(250, 300);
        assertTrue(set.isEmpty());
    }

    @Test
    void shouldAnswerCoveredEndAndNextStart()
    {
        final RangeSet set = new RangeSet(4, 100);
        set.add(10, 20);
        set.add(30, 40);

        assertEquals(5, set.coveredEnd(5));
        assertEquals(20, set.coveredEnd(10));
        assertEquals(20, set.coveredEnd(19));
        assertEquals(20, set.coveredEnd(20));
        assertEquals(40, set.coveredEnd(35));

        assertEquals(10, set.nextStart(0));
        assertEquals(30, set.nextStart(10));
        assertEquals(30, set.nextStart(20));
        assertEquals(Long.MAX_VALUE, set.nextStart(30));

        assertTrue(set.contains(12, 18));
        assertFalse(set.contains(12, 31));
    }

    @Test
    void shouldRefuseToGrowBeyondMaxRangesLeavingTheSetUnchanged()
    {
        final RangeSet set = new RangeSet(1, 2);
        assertTrue(set.add(0, 10));
        assertTrue(set.add(20, 30));
        assertFalse(set.add(40, 50));
        assertFalse(set.remove(2, 4));
        assertEquals("RangeSet{[0, 10), [20, 30)}", set.toString());

        assertTrue(set.add(10, 20), "merging needs no new slot");
        assertEquals("RangeSet{[0, 30)}", set.toString());
    }

    @Test
    void shouldMatchABitSetModelUnderRandomOperations()
    {
        final Random random = new Random(42);
        final RangeSet set = new RangeSet(1, 1_000);
        final BitSet model = new BitSet();

        for (int i = 0; i < 20_000; i++)
        {
            final int start = random.nextInt(2_000);
            final int end = start + random.nextInt(40);
            if (random.nextInt(3) == 0)
            {
                assertTrue(set.remove(start, end));
                model.clear(start, end);
            }
            else
            {
                assertTrue(set.add(start, end));
                model.set(start, end);
            }

            if (i % 97 == 0)
            {
                assertMatches(model, set);
            }
        }
        assertMatches(model, set);
    }

    private static void assertMatches(final BitSet model, final RangeSet set)
    {
        int index = 0;
        int start = model.nextSetBit(0);
        while (start >= 0)
        {
            final int end = model.nextClearBit(start);
            assertEquals(start, set.start(index), "start of range " + index);
            assertEquals(end, set.end(index), "end of range " + index);
            index++;
            start = model.nextSetBit(end);
        }
        assertEquals(index, set.size());
        assertEquals(model.cardinality(), set.coveredLength());
    }
}
