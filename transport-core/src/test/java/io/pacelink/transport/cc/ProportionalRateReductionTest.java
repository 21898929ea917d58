package io.pacelink.transport.cc;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Proportional Rate Reduction's sending pattern (RFC 6937 section 3 and its examples in section 5; Linux
 * {@code tcp_cwnd_reduction}): a sender with a 20-datagram window and ssthresh 10, every ACK delivering one
 * datagram, sends whatever the window allows after each ACK.
 */
class ProportionalRateReductionTest
{
    private static final int MSS = 1_000;
    private static final long MINIMUM_WINDOW = 2L * MSS;

    private final ProportionalRateReduction prr = new ProportionalRateReduction();
    private long flightBytes;
    private long windowBytes;

    @Test
    void aSingleLossSendsOneDatagramForEveryTwoDeliveredAndEndsAtSsthresh()
    {
        // 20 in flight, one lost: 19 left, ssthresh 10.
        start(20, 19);
        assertEquals(20L * MSS, windowBytes, "the fast retransmit may leave at once");
        assertEquals(1, sendWhatTheWindowAllows());

        final List<Integer> sendsPerAck = new ArrayList<>();
        for (int ack = 0; ack < 19; ack++)
        {
            sendsPerAck.add(ackOne(false, 0));
        }
        // RFC 6937 section 5: the proportional part sends ssthresh / prior_cwnd = 1/2 of what is delivered, evenly
        // (the fast retransmit was the first); once the flight is down to ssthresh, one out for one delivered.
        assertEquals(List.of(0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1), sendsPerAck);
        assertEquals(10L * MSS, flightBytes, "the flight is ssthresh when the round trip ends");
    }

    @Test
    void theSlowStartReductionBoundRegrowsAFlightThatFellBelowSsthresh()
    {
        // 15 of 20 lost at once: 5 left, below ssthresh 10 (RFC 6937 section 5, the burst-loss example).
        start(20, 5);
        assertEquals(6L * MSS, windowBytes, "the fast retransmit");
        assertEquals(1, sendWhatTheWindowAllows());

        final List<Integer> sendsPerAck = new ArrayList<>();
        for (int ack = 0; ack < 8; ack++)
        {
            // Each ACK fills the oldest hole: the acknowledged prefix advances, and nothing new is lost.
            sendsPerAck.add(ackOne(true, 0));
            assertTrue(flightBytes <= 10L * MSS, "never beyond ssthresh: " + flightBytes);
        }
        // PRR-SSRB: what was delivered plus one datagram per ACK, slow start, until the flight is back at ssthresh.
        assertEquals(List.of(2, 2, 2, 2, 1, 1, 1, 1), sendsPerAck);
        assertEquals(10L * MSS, flightBytes);
    }

    @Test
    void withoutTheAcknowledgedPrefixAdvancingOrWithANewLossItIsPacketConservation()
    {
        start(20, 5);
        sendWhatTheWindowAllows();
        assertEquals(1, ackOne(false, 0), "an ACK beyond a hole: one out for one delivered");
        assertEquals(1, ackOne(false, 0));
        assertEquals(1, ackOne(true, MSS), "the prefix advanced but a packet was lost with it");
        assertEquals(2, ackOne(true, 0));
    }

    @Test
    void anAckThatDeliversNothingKeepsTheWindow()
    {
        start(20, 19);
        sendWhatTheWindowAllows();
        final long before = windowBytes;
        windowBytes = prr.windowOnAck(windowBytes, 10L * MSS, flightBytes, 0, MSS, false, MSS, MINIMUM_WINDOW);
        assertEquals(before, windowBytes);
    }

    @Test
    void theWindowNeverFallsBelowTheMinimumAndSendsCountOnlyDuringAReduction()
    {
        prr.onPacketSent(MSS);
        start(20, 0);
        assertEquals(MINIMUM_WINDOW, windowBytes, "flight 0 plus the retransmit is below the minimum window");
        prr.stop();
        assertFalse(prr.isActive());
        prr.onPacketSent(MSS);
        prr.start(20L * MSS);
        assertEquals(MINIMUM_WINDOW + MSS, prr.firstWindowBytes(MINIMUM_WINDOW, MSS, MINIMUM_WINDOW),
            "nothing sent in this reduction yet");
    }

    @Test
    void largeWindowsDoNotOverflow()
    {
        final long prior = 1L << 40;
        prr.start(prior);
        prr.onPacketSent(MSS);
        final long window = prr.windowOnAck(prior, prior / 2, prior - MSS, prior / 4, 0, false, MSS, MINIMUM_WINDOW);
        final long allowed = (prior / 8 + MSS - 1) / MSS * MSS;
        assertEquals(prior - MSS + allowed - MSS, window, "half a quarter delivered, in datagrams, less the one sent");
    }

    private void start(final int priorPackets, final int flightPackets)
    {
        prr.start((long)priorPackets * MSS);
        flightBytes = (long)flightPackets * MSS;
        windowBytes = prr.firstWindowBytes(flightBytes, MSS, MINIMUM_WINDOW);
    }

    private int ackOne(final boolean advancedPrefix, final long lostBytes)
    {
        flightBytes -= MSS + lostBytes;
        windowBytes = prr.windowOnAck(
            windowBytes, 10L * MSS, flightBytes, MSS, lostBytes, advancedPrefix, MSS, MINIMUM_WINDOW);
        return sendWhatTheWindowAllows();
    }

    private int sendWhatTheWindowAllows()
    {
        int sent = 0;
        while (flightBytes + MSS <= windowBytes)
        {
            prr.onPacketSent(MSS);
            flightBytes += MSS;
            sent++;
        }
        return sent;
    }
}
