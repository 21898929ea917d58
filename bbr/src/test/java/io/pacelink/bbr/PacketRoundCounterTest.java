package io.pacelink.bbr;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PacketRoundCounterTest
{
    @Test
    void roundEndsWhenPacketSentAfterRoundStartIsAcked()
    {
        final PacketRoundCounter rounds = new PacketRoundCounter();
        // First ACK: source sent at delivered = 0 >= next_round_delivered = 0.
        assertTrue(rounds.onAck(0, 1_000));
        assertEquals(1, rounds.roundCount());
        assertEquals(1_000, rounds.nextRoundDeliveredBytes());
        // Packets sent before delivered reached 1000 do not end the round.
        assertFalse(rounds.onAck(0, 2_000));
        assertFalse(rounds.onAck(999, 3_000));
        assertTrue(rounds.onAck(1_000, 4_000));
        assertEquals(2, rounds.roundCount());
        assertTrue(rounds.isRoundStart());
    }

    @Test
    void startRoundNowDefersTheRoundEnd()
    {
        final PacketRoundCounter rounds = new PacketRoundCounter();
        rounds.onAck(0, 1_000);
        rounds.startRound(5_000);
        assertFalse(rounds.onAck(1_000, 6_000));
        assertTrue(rounds.onAck(5_000, 7_000));
        rounds.clearRoundStart();
        assertFalse(rounds.isRoundStart());
        assertEquals(2, rounds.roundCount());
    }
}
