package io.pacelink.transport.recovery;

import io.pacelink.transport.wire.EcnCodepoint;
import org.junit.jupiter.api.Test;

import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ECN validation (RFC 9000 section 13.4.2, Appendix A.4) driven packet by packet: which codepoint goes out, and how
 * each kind of path or peer is judged by the counts it reports.
 */
class EcnValidationTest
{
    private static final long MS = 1_000_000L;
    private static final long PTO_NS = 100 * MS;

    private final EcnValidation ecn = new EcnValidation(true);
    private final BitSet marked = new BitSet();
    private int nextPacketNumber;

    @Test
    void theFirstTenPacketsTestThePathThenPacketsGoUnmarkedUntilAnAckValidates()
    {
        for (int i = 0; i < EcnValidation.TEST_PACKETS; i++)
        {
            assertEquals(EcnValidation.TESTING, ecn.state());
            assertEquals(EcnCodepoint.ECT_0, send());
        }
        assertEquals(EcnValidation.UNKNOWN, ecn.state());
        assertEquals(EcnCodepoint.NOT_ECT, send(), "unmarked until validated");
        assertEquals(EcnCodepoint.NOT_ECT, send());

        ack(0, 4);
        assertEquals(0, ecn.onAckFrame(true, 5, 0, 0, true));
        assertEquals(EcnValidation.CAPABLE, ecn.state());
        assertEquals(EcnCodepoint.ECT_0, send(), "every packet marked once capable");
        assertEquals(EcnValidation.NO_FAILURE, ecn.failure());

        assertTrue(marked.get(0) && marked.get(9) && marked.get(12));
        assertFalse(marked.get(10) || marked.get(11) || marked.get(13));
        assertEquals(11, ecn.markedPackets());
    }

    @Test
    void threeProbeTimeoutsEndTheTestEarly()
    {
        assertEquals(EcnCodepoint.ECT_0, ecn.codepointToSend(0, PTO_NS));
        assertTrue(ecn.onPacketSent(EcnCodepoint.ECT_0, true, 0));
        assertEquals(EcnCodepoint.ECT_0, ecn.codepointToSend(3 * PTO_NS - 1, PTO_NS));
        assertEquals(EcnCodepoint.NOT_ECT, ecn.codepointToSend(3 * PTO_NS, PTO_NS));
        assertEquals(EcnValidation.UNKNOWN, ecn.state());
    }

    @Test
    void aValidatedIncreaseOfTheCeCountIsTheSignalToActOn()
    {
        sendTest();
        ack(0, 9);
        assertEquals(2, ecn.onAckFrame(true, 8, 0, 2, true), "two of ten arrived CE");
        assertEquals(EcnValidation.CAPABLE, ecn.state());
        assertEquals(2, ecn.reportedCe());

        send();
        send();
        ack(10, 11);
        assertEquals(1, ecn.onAckFrame(true, 9, 0, 3, true));
        assertEquals(0, ecn.onAckFrame(true, 9, 0, 3, true), "nothing new acknowledged, counts unchanged: no signal");
        assertEquals(EcnValidation.NO_FAILURE, ecn.failure());
    }

    @Test
    void aBleachingPathFailsValidationWhenMarkedPacketsAreAcknowledgedWithoutCounts()
    {
        sendTest();
        ack(0, 3);
        assertEquals(0, ecn.onAckFrame(false, 0, 0, 0, true));
        assertFailed(EcnValidation.BLEACHED);
        assertEquals(EcnCodepoint.NOT_ECT, send(), "ECN off: packets go unmarked");
        ack(4, 9);
        assertEquals(0, ecn.onAckFrame(true, 0, 0, 6, true), "counts are ignored once failed");
    }

    @Test
    void countsThatGrowLessThanTheMarkedPacketsAcknowledgedFail()
    {
        sendTest();
        ack(0, 5);
        assertEquals(0, ecn.onAckFrame(true, 4, 0, 1, true), "5 of 6 accounted for: one mark was removed");
        assertFailed(EcnValidation.BLEACHED);
    }

    @Test
    void anEct1CountWhenOnlyEct0WasSentIsARemarkingPath()
    {
        sendTest();
        ack(0, 5);
        assertEquals(0, ecn.onAckFrame(true, 0, 6, 0, true));
        assertFailed(EcnValidation.REMARKED);
    }

    @Test
    void decreasingCountsFail()
    {
        sendTest();
        ack(0, 5);
        ecn.onAckFrame(true, 6, 0, 0, true);
        send();
        ack(6, 10);
        assertEquals(0, ecn.onAckFrame(true, 5, 0, 0, true));
        assertFailed(EcnValidation.DECREASED);
    }

    @Test
    void countsBeyondThePacketsSentMarkedFail()
    {
        sendTest();
        ack(0, 5);
        assertEquals(0, ecn.onAckFrame(true, 6, 0, 1_000, true), "CE on packets never marked");
        assertFailed(EcnValidation.EXCEEDED);
    }

    @Test
    void aReorderedAckIsNeverJudged()
    {
        sendTest();
        ack(0, 5);
        ecn.onAckFrame(true, 6, 0, 0, true);
        ack(6, 6);
        assertEquals(0, ecn.onAckFrame(true, 0, 0, 0, false),
            "RFC 9000 section 13.4.2.1: a frame that does not raise the largest acknowledged must not fail validation");
        assertEquals(EcnValidation.CAPABLE, ecn.state());
        assertEquals(1, ecn.ignoredFrames());
    }

    @Test
    void losingEveryMarkedPacketOfTheTestIsABlackHole()
    {
        for (int i = 0; i < EcnValidation.TEST_PACKETS - 1; i++)
        {
            send();
            ecn.onMarkedPacketLost();
        }
        assertEquals(EcnValidation.TESTING, ecn.state(), "the test is not over yet");
        send();
        ecn.onMarkedPacketLost();
        assertFailed(EcnValidation.BLACK_HOLE);
    }

    @Test
    void oneMarkedPacketGettingThroughIsNoBlackHole()
    {
        for (int i = 0; i < EcnValidation.TEST_PACKETS; i++)
        {
            send();
        }
        for (int i = 0; i < EcnValidation.TEST_PACKETS - 1; i++)
        {
            ecn.onMarkedPacketLost();
        }
        ecn.onMarkedPacketAcked();
        assertEquals(0, ecn.onAckFrame(true, 1, 0, 0, true));
        assertEquals(EcnValidation.CAPABLE, ecn.state());
    }

    @Test
    void aPathThatTurnsEveryMarkIntoCeFails()
    {
        sendTest();
        ack(0, 4);
        assertEquals(5, ecn.onAckFrame(true, 0, 0, 5, true), "CE is a signal while the rest is awaited");
        assertEquals(EcnValidation.UNKNOWN, ecn.state());
        ack(5, 9);
        assertEquals(0, ecn.onAckFrame(true, 0, 0, 10, true));
        assertFailed(EcnValidation.ALL_CE);
    }

    @Test
    void aDisabledValidationNeverMarksAndIgnoresCounts()
    {
        final EcnValidation disabled = new EcnValidation(false);
        assertEquals(EcnCodepoint.NOT_ECT, disabled.codepointToSend(0, PTO_NS));
        assertFalse(disabled.onPacketSent(EcnCodepoint.NOT_ECT, true, 0));
        assertEquals(0, disabled.onAckFrame(true, 5, 5, 5, true));
        assertEquals(EcnValidation.DISABLED, disabled.state());
        assertFalse(disabled.isMarking());
    }

    @Test
    void unmarkedPathChallengesBetweenACapableConnectionsMarkedPacketsLeaveItCapable()
    {
        // The peer's address changed several times: each time a PATH_CHALLENGE (not in flight) goes out unmarked
        // between marked packets. Each packet says itself whether it was marked; the counts still validate.
        sendTest();
        ack(0, EcnValidation.TEST_PACKETS - 1);
        assertEquals(0, ecn.onAckFrame(true, EcnValidation.TEST_PACKETS, 0, 0, true));
        assertEquals(EcnValidation.CAPABLE, ecn.state());
        final int first = nextPacketNumber;
        for (int change = 0; change < 5; change++)
        {
            assertFalse(ecn.onPacketSent(EcnCodepoint.NOT_ECT, false, 0), "the challenge");
            marked.clear(nextPacketNumber++);
            assertEquals(EcnCodepoint.ECT_0, send());
            assertEquals(EcnCodepoint.ECT_0, send());
        }
        ack(first, nextPacketNumber - 1);
        assertEquals(1, ecn.onAckFrame(true, EcnValidation.TEST_PACKETS + 9, 0, 1, true), "one of ten arrived CE");
        assertEquals(EcnValidation.CAPABLE, ecn.state());
        assertEquals(EcnValidation.TEST_PACKETS + 10, ecn.markedPackets());
    }

    private void sendTest()
    {
        for (int i = 0; i < EcnValidation.TEST_PACKETS; i++)
        {
            send();
        }
    }

    private int send()
    {
        final int codepoint = ecn.codepointToSend(0, PTO_NS);
        marked.set(nextPacketNumber++, ecn.onPacketSent(codepoint, true, 0));
        return codepoint;
    }

    private void ack(final long first, final long last)
    {
        for (long pn = first; pn <= last; pn++)
        {
            if (marked.get((int)pn))
            {
                ecn.onMarkedPacketAcked();
            }
        }
    }

    private void assertFailed(final int failure)
    {
        assertEquals(EcnValidation.FAILED, ecn.state());
        assertEquals(EcnValidation.FAILURE_NAMES.get(failure), EcnValidation.FAILURE_NAMES.get(ecn.failure()));
        assertFalse(ecn.isMarking());
    }
}
