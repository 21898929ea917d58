package io.pacelink.transport.admission;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
