package io.pacelink.transport.admission;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HandshakeBudgetSlotsTest
{
    private static final long SEED = 42;

    @Test
    void aFullBudgetTakesTheOldestOfTheSourcesHoldingTheMostNotAClientsOneHandshake() throws Exception
    {
        final HandshakeBudget budget = new HandshakeBudget(8, 6, SEED);
        final InetAddress attackerA = InetAddress.getByName("192.0.2.1");
        final InetAddress attackerB = InetAddress.getByName("192.0.2.2");
        final InetAddress client = InetAddress.getByName("198.51.100.7");
        budget.add(1, attackerA);
        budget.add(2, client); // second oldest of all, and its source's only handshake
        budget.add(3, attackerB);
        budget.add(4, attackerA);
        budget.add(5, attackerB);
        budget.add(6, attackerA);
        budget.add(7, attackerB);
        budget.add(8, attackerA);
        assertEquals(8, budget.size());

        // Full: a new handshake from B (under its cap) takes the place of A's oldest, A holding the most (4 to 3).
        assertEquals(1, budget.victim(attackerB));
        budget.remove(1);
        budget.add(9, attackerB);
        // Now B holds the most (4 to 3): its oldest goes, whoever asks; the client's one handshake stays.
        assertEquals(3, budget.victim(attackerA));
        assertEquals(3, budget.victim(InetAddress.getByName("203.0.113.9")));
        budget.remove(3);
        budget.add(10, attackerA);
        assertEquals(4, budget.victim(attackerB), "A holds the most again (4 to 3)");
    }

    @Test
    void withEverySourceHoldingOneTheOldestOfAllGoes() throws Exception
    {
        final HandshakeBudget budget = new HandshakeBudget(4, 2, SEED);
        for (int i = 1; i <= 4; i++)
        {
            assertEquals(HandshakeBudget.NONE, budget.victim(InetAddress.getByName("192.0.2." + i)));
            budget.add(i, InetAddress.getByName("192.0.2." + i));
        }
        assertEquals(1, budget.victim(InetAddress.getByName("192.0.2.99")));
        budget.remove(1);
        assertEquals(HandshakeBudget.NONE, budget.victim(InetAddress.getByName("192.0.2.99")), "room again");
    }

    @Test
    void aSourceAtItsCapLosesItsOwnOldestEvenWithRoomLeft() throws Exception
    {
        final HandshakeBudget budget = new HandshakeBudget(8, 2, SEED);
        final InetAddress source = InetAddress.getByName("192.0.2.1");
        budget.add(1, InetAddress.getByName("192.0.2.50"));
        budget.add(2, source);
        assertEquals(HandshakeBudget.NONE, budget.victim(source), "under its cap");
        budget.add(3, source);
        assertEquals(2, budget.victim(source), "at its cap: its own oldest, not the oldest of all");
    }

    /**
     * Pressure is counted within shares: one source holding its whole cap (half the budget) is its own pressure, not
     * everyone's; the same number of handshakes from sources within their shares is. Both sides of the share (half the
     * cap, rounded up) and of the half-budget mark, as handshakes come and go.
     */
    @Test
    void oneSourceAtItsCapIsItsOwnPressureAndManySourcesWithinTheirSharesAreEveryones() throws Exception
    {
        final HandshakeBudget budget = new HandshakeBudget(8, 4, SEED);
        final InetAddress host = InetAddress.getByName("192.0.2.1");
        final InetAddress other = InetAddress.getByName("198.51.100.7");
        budget.add(1, host);
        assertFalse(budget.isSourceOverShare(host), "1 of its share of 2");
        budget.add(2, host);
        assertTrue(budget.isSourceOverShare(host), "its share of 2 held");
        assertFalse(budget.isSourceOverShare(other));
        budget.add(3, host);
        budget.add(4, host);
        assertEquals(4, budget.size(), "half the budget, all from one host");
        assertFalse(budget.isUnderPressure(), "two of them beyond its share");

        budget.add(5, other);
        assertFalse(budget.isUnderPressure(), "3 within shares of 8");
        budget.add(6, other);
        assertTrue(budget.isUnderPressure(), "4 within shares of 8");
        budget.remove(3);
        assertTrue(budget.isUnderPressure(), "the host still holds its share: 4 within shares");
        budget.remove(5);
        assertFalse(budget.isUnderPressure(), "3 within shares");
        budget.remove(1);
        budget.remove(2);
        assertFalse(budget.isSourceOverShare(host), "1 held");
    }

    @Test
    void anOddCapsShareIsRoundedUp() throws Exception
    {
        final HandshakeBudget budget = new HandshakeBudget(6, 3, SEED);
        final InetAddress host = InetAddress.getByName("192.0.2.1");
        budget.add(1, host);
        assertFalse(budget.isSourceOverShare(host));
        budget.add(2, host);
        assertTrue(budget.isSourceOverShare(host));
        budget.add(3, host);
        assertFalse(budget.isUnderPressure(), "2 within its share, of 6");
        budget.add(4, InetAddress.getByName("198.51.100.7"));
        assertTrue(budget.isUnderPressure(), "3 within shares, of 6");
    }
}
