package io.pacelink.transport.memory;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SegmentPoolTest
{
    @Test
    void segmentsAreChargedReusedRetainedUpToTheLimitAndRefusedBeyondTheBudget()
    {
        final MemoryBudget budget = new MemoryBudget(3 * 1024);
        final SegmentPool pool = new SegmentPool(budget, 1024, 1024);
        final UnsafeBuffer first = pool.acquire();
        final UnsafeBuffer second = pool.acquire();
        final UnsafeBuffer third = pool.acquire();
        assertNotNull(third);
        assertEquals(3 * 1024, budget.committedBytes());
        assertNull(pool.acquire(), "the budget is spent");
        assertEquals(1, budget.refusals());

        pool.release(first);
        assertSame(first, pool.acquire(), "a free segment is reused before a new one is allocated");
        pool.release(first);
        pool.release(second);
        assertEquals(1, pool.freeSegments(), "only 1 KiB is retained");
        assertEquals(2 * 1024, budget.committedBytes(), "the dropped one was credited");
    }

    @Test
    void theBudgetNeverGoesOverItsLimit()
    {
        final MemoryBudget budget = new MemoryBudget(100);
        assertTrue(budget.tryCommit(60));
        assertFalse(budget.tryCommit(41));
        assertTrue(budget.hasRoomFor(40));
        assertTrue(budget.tryCommit(40));
        budget.release(100);
        assertEquals(0, budget.committedBytes());

        final BudgetedSegments segments = new BudgetedSegments(budget, 50);
        assertNotNull(segments.acquire());
        assertNotNull(segments.acquire());
        assertNull(segments.acquire());
        segments.releaseSegments(2);
        assertEquals(0, budget.committedBytes());
    }
}
