package io.pacelink.transport.stream;

import io.pacelink.transport.memory.MemoryBudget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.BitSet;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void descendingSeparateRangesAreLogarithmicNotQuadratic()
    {
        // The timeout only catches the quadratic case (hours); it is generous so that a loaded machine never trips it.
        // A sorted array shifts every range behind each insertion: 10^6 descending fragments would copy ~4 TB.
        final int ranges = 1_000_000;
        final RangeSet set = new RangeSet(16, ranges);
        for (int i = ranges - 1; i >= 0; i--)
        {
            assertTrue(set.add(2L * i, 2L * i + 1));
        }
        assertEquals(ranges, set.size());
        assertEquals(0, set.firstStart());
        assertEquals(2L * ranges - 1, set.coveredEnd(2L * ranges - 2));
        assertEquals(2L * 500, set.nextStart(2L * 499));

        // Filling every gap from the top merges them all back into one range.
        for (int i = ranges - 1; i > 0; i--)
        {
            assertTrue(set.add(2L * i - 1, 2L * i));
        }
        assertEquals("RangeSet{[0, " + (2L * ranges - 1) + ")}", set.toString());
    }

    @Test
    void firstRangeComesOutInOrder()
    {
        final RangeSet set = new RangeSet(0, 100);
        set.add(50, 60);
        set.add(10, 20);
        set.add(30, 40);
        assertEquals(10, set.firstStart());
        assertEquals(20, set.firstEnd());
        set.removeFirst();
        assertEquals(30, set.firstStart());
        set.removeFirst();
        set.removeFirst();
        assertTrue(set.isEmpty());
        assertThrows(IllegalStateException.class, set::firstStart);
    }

    @Test
    void slotsAreChargedToTheBudgetBeforeTheyAreAllocated()
    {
        final MemoryBudget budget = new MemoryBudget(12 * RangeSet.BYTES_PER_RANGE);
        final RangeSet set = new RangeSet(0, 100, budget);
        for (int i = 0; i < 8; i++)
        {
            assertTrue(set.add(10L * i, 10L * i + 1));
        }
        assertEquals(8 * RangeSet.BYTES_PER_RANGE, budget.committedBytes(), "grown to 4, then 8 slots");
        assertEquals(8 * RangeSet.BYTES_PER_RANGE, set.allocatedBytes());

        assertFalse(set.add(100, 101), "16 slots do not fit the budget");
        assertEquals(8, set.size(), "unchanged");
        assertEquals(1, budget.refusals());
        assertTrue(set.add(1, 5), "a merge needs no slot");

        set.removeFirst();
        assertTrue(set.add(100, 101), "a freed slot is used again without growing");
        assertEquals(8 * RangeSet.BYTES_PER_RANGE, budget.committedBytes());

        set.releaseMemory();
        set.releaseMemory();
        assertEquals(0, budget.committedBytes(), "credited once");
    }

    private static void assertMatches(final BitSet model, final RangeSet set)
    {
        final StringBuilder expected = new StringBuilder("RangeSet{");
        int count = 0;
        int start = model.nextSetBit(0);
        while (start >= 0)
        {
            final int end = model.nextClearBit(start);
            expected.append(count == 0 ? "" : ", ").append('[').append(start).append(", ").append(end).append(')');
            count++;
            start = model.nextSetBit(end);
        }
        assertEquals(expected.append('}').toString(), set.toString());
        assertEquals(count, set.size());
        assertEquals(model.cardinality(), set.coveredLength());
        for (int position = 0; position < 2_100; position += 7)
        {
            final long coveredEnd = model.get(position) ? model.nextClearBit(position) : position;
            assertEquals(coveredEnd, set.coveredEnd(position), "coveredEnd(" + position + ")");
            final int next = model.nextSetBit(position + 1);
            final long nextStart = next < 0 ? Long.MAX_VALUE :
                model.get(next - 1) ? nextRangeStart(model, next) : next;
            assertEquals(nextStart, set.nextStart(position), "nextStart(" + position + ")");
        }
    }

    private static long nextRangeStart(final BitSet model, final int inside)
    {
        final int next = model.nextSetBit(model.nextClearBit(inside));
        return next < 0 ? Long.MAX_VALUE : next;
    }
}
