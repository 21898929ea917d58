package io.pacelink.link;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LinkDirection#loseOfferedPacket(long)}: one deterministic loss, as the CUBIC window-curve scenario needs.
 */
class LinkDirectionSingleLossTest
{
    private static final long SEED = 3;

    @Test
    void losesExactlyTheChosenPacketAndNoOther()
    {
        final LinkDriver driver = new LinkDriver("rate=10mbit delay=1ms", SEED);
        driver.link.loseOfferedPacket(5);
        for (int i = 0; i < 10; i++)
        {
            final boolean accepted = driver.offer(i * 2_000_000L, 1000);
            assertEquals(i != 4, accepted, "packet " + (i + 1));
        }
        driver.runToEnd();

        assertEquals(9, driver.deliveredNumbers.size());
        assertFalse(driver.deliveredNumbers.containsLong(4), "the 5th packet offered carries number 4");
        assertEquals(1, driver.link.counters().randomLossPackets());
        assertEquals(10, driver.link.counters().offeredPackets());
    }

    @Test
    void keepsTheLossModelsDecisionsForEveryOtherPacket()
    {
        final LinkDriver plain = new LinkDriver("loss=20%", SEED);
        final LinkDriver withOneLoss = new LinkDriver("loss=20%", SEED);
        withOneLoss.link.loseOfferedPacket(1);
        withOneLoss.offer(0, 100);
        for (int i = 0; i < 1000; i++)
        {
            assertEquals(plain.offer(i + 1, 100), withOneLoss.offer(i + 1, 100), "packet " + i);
        }
        assertEquals(plain.link.counters().randomLossPackets() + 1, withOneLoss.link.counters().randomLossPackets());
    }

    @Test
    void zeroCancelsAndAPacketAlreadyOfferedIsRejected()
    {
        final LinkDriver driver = new LinkDriver("", SEED);
        driver.link.loseOfferedPacket(2);
        driver.link.loseOfferedPacket(0);
        assertTrue(driver.offer(0, 100));
        assertTrue(driver.offer(1, 100));

        assertThrows(IllegalArgumentException.class, () -> driver.link.loseOfferedPacket(2));
        assertThrows(IllegalArgumentException.class, () -> driver.link.loseOfferedPacket(-1));
    }
}
