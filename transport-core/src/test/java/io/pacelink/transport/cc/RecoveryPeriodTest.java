package io.pacelink.transport.cc;

import io.pacelink.transport.cc.testing.MutableAckEvent;
import io.pacelink.transport.cc.testing.MutableCongestionEvent;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecoveryPeriodTest
{
    private final RecoveryPeriod recovery = new RecoveryPeriod();
    private final MutableCongestionEvent loss = new MutableCongestionEvent();
    private final MutableAckEvent ack = new MutableAckEvent();

    @Test
    void firstLossStartsAPeriod()
    {
        assertFalse(recovery.isInRecovery());
        assertTrue(lose(1_000, 900));
        assertTrue(recovery.isInRecovery());
    }

    @Test
    void lossOfAPacketSentBeforeThePeriodBeganDoesNotStartAnother()
    {
        lose(1_000, 900);

        assertFalse(lose(1_050, 999), "sent before the period began");
        assertFalse(lose(1_060, 1_000), "sent at the instant it began: RFC 9002 counts it in the period");
        assertTrue(lose(1_070, 1_001), "sent after it began: a new congestion event");
    }

    @Test
    void periodEndsOnTheAckOfAPacketSentAfterItBeganAndThatFrameDoesNotGrow()
    {
        lose(1_000, 900);

        assertTrue(acknowledge(1_000), "a packet sent at the start is still in the period");
        assertTrue(recovery.isInRecovery());
        assertTrue(acknowledge(1_001), "the frame that ends the period does not grow the window");
        assertFalse(recovery.isInRecovery());
        assertFalse(acknowledge(1_002), "after the period the window grows again");
    }

    @Test
    void endKeepsTheStartSoTheSameEpisodeDoesNotReduceAgain()
    {
        lose(1_000, 900);
        recovery.end();

        assertFalse(recovery.isInRecovery());
        assertFalse(lose(1_100, 950), "a loss from the undone episode");
        assertTrue(lose(1_200, 1_100));
    }

    @Test
    void resetLetsTheNextLossStartAPeriodWhateverItsSendTime()
    {
        lose(1_000, 900);
        recovery.reset();

        assertFalse(recovery.isInRecovery());
        assertTrue(lose(1_100, 500));
    }

    private boolean lose(final long nowNs, final long newestLostSentTimeNs)
    {
        loss.nowNs = nowNs;
        loss.newestLostSentTimeNs = newestLostSentTimeNs;
        return recovery.onCongestionEvent(loss);
    }

    private boolean acknowledge(final long largestAckedSentTimeNs)
    {
        ack.largestAckedSentTimeNs = largestAckedSentTimeNs;
        return recovery.onAck(ack);
    }
}
