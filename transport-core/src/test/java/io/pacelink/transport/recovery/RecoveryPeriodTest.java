package io.pacelink.transport.recovery;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecoveryPeriodTest
{
    private final RecoveryPeriod period = new RecoveryPeriod();

    @Test
    void firstLossStartsAPeriod()
    {
        assertFalse(period.isInRecovery());
        assertTrue(period.onCongestionEvent(900, false, 1_000));
        assertTrue(period.isInRecovery());
        assertEquals(1_000, period.startNs());
        assertEquals(1, period.recoveryCount());
    }

    @Test
    void lossOfAPacketSentBeforeThePeriodBeganDoesNotStartAnother()
    {
        period.onCongestionEvent(900, false, 1_000);

        assertFalse(period.onCongestionEvent(999, false, 1_050), "sent before the period began");
        assertFalse(period.onCongestionEvent(1_000, false, 1_060), "sent at the instant it began: in the period");
        assertTrue(period.onCongestionEvent(1_001, false, 1_070), "sent after it began: a new period");
        assertEquals(1_070, period.startNs());
        assertEquals(2, period.recoveryCount());
    }

    @Test
    void periodEndsOnTheAckOfAPacketSentAfterItBegan()
    {
        period.onCongestionEvent(900, false, 1_000);

        assertFalse(period.onAck(Long.MIN_VALUE), "nothing newly acknowledged");
        assertFalse(period.onAck(1_000), "a packet sent at the start is still in the period");
        assertTrue(period.isInRecovery());
        assertTrue(period.onAck(1_001));
        assertFalse(period.isInRecovery());
        assertFalse(period.onAck(1_002), "ends once");
    }

    @Test
    void lossesOfTheEndedPeriodStillDoNotStartANewOne()
    {
        period.onCongestionEvent(900, false, 1_000);
        period.onAck(1_001);

        assertFalse(period.onCongestionEvent(950, false, 1_100));
        assertFalse(period.isInRecovery());
    }

    @Test
    void persistentCongestionAlwaysStartsAPeriod()
    {
        period.onCongestionEvent(900, false, 1_000);

        assertTrue(period.onCongestionEvent(500, true, 1_200), "its losses start the recovery from the collapse");
        assertEquals(1_200, period.startNs());
        assertFalse(period.onCongestionEvent(1_100, false, 1_300), "sent before the collapse: part of it");
    }
}
