package io.pacelink.transport.engine;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionIdGeneratorTest
{
    /**
     * Key 00 01 ... 0f, message 00 01 ... 07: the reference implementation's test vector for an 8-byte message,
     * output bytes 62 24 93 9a 79 f5 f5 93 (the SipHash paper's {@code vectors.h}, entry 8).
     */
    @Test
    void sipHashGivesTheReferenceVector()
    {
        final long[] keyHalves = { 0x0706050403020100L, 0x0f0e0d0c0b0a0908L };
        final int[] drawn = { 0 };
        final ConnectionIdGenerator generator = ConnectionIdGenerator.keyed(() -> keyHalves[drawn[0]++]);
        assertEquals(0x93f5f5799a932462L, generator.prfOf(0x0706050403020100L));
        // And again: no state carried from one hash to the next.
        assertEquals(0x93f5f5799a932462L, generator.prfOf(0x0706050403020100L));
    }

    @Test
    void aKeyedGeneratorDrawsTwiceFromTheSecureSourceAndNeverAgain()
    {
        final long[] draws = { 0 };
        final SplittableRandom source = new SplittableRandom(5);
        final ConnectionIdGenerator generator = ConnectionIdGenerator.keyed(() ->
        {
            draws[0]++;
            return source.nextLong();
        });
        final Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 100_000; i++)
        {
            final long id = generator.nextId(ids::contains);
            assertNotEquals(0, id);
            assertTrue(ids.add(id), "an id in use is never given again");
        }
        assertEquals(2, draws[0]);
    }

    @Test
    void keyedIdsDependOnTheKeyAndSkipIdsInUse()
    {
        final ConnectionIdGenerator first = ConnectionIdGenerator.keyed(new SplittableRandom(1)::nextLong);
        final ConnectionIdGenerator sameKey = ConnectionIdGenerator.keyed(new SplittableRandom(1)::nextLong);
        final ConnectionIdGenerator otherKey = ConnectionIdGenerator.keyed(new SplittableRandom(2)::nextLong);
        final long id = first.nextId((candidate) -> false);
        assertEquals(id, sameKey.nextId((candidate) -> false), "a function of the key and the counter");
        assertNotEquals(id, otherKey.nextId((candidate) -> false));
        // The id the same key gives next is skipped while in use.
        final long next = first.nextId((candidate) -> false);
        final long skipped = sameKey.nextId((candidate) -> candidate == next);
        assertNotEquals(next, skipped);
        assertEquals(first.nextId((candidate) -> false), skipped);
    }

    @Test
    void aDrawingGeneratorTakesEveryIdFromItsSourceInOrder()
    {
        final long[] values = { 0, 42, 7, 42, 9 };
        final int[] next = { 0 };
        final ConnectionIdGenerator generator = ConnectionIdGenerator.drawing(() -> values[next[0]++]);
        assertEquals(42, generator.nextId((candidate) -> false), "0 is never an id");
        assertEquals(7, generator.nextId((candidate) -> false));
        assertEquals(9, generator.nextId((candidate) -> candidate == 42), "an id in use is skipped");
    }
}
