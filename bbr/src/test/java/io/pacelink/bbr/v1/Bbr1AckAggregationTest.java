package io.pacelink.bbr.v1;

import org.junit.jupiter.api.Test;

import static io.pacelink.bbr.v1.Bbr1Run.MS;
import static io.pacelink.bbr.v1.Bbr1Run.RATE_100_MBIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ACK aggregation (Linux {@code bbr_update_ack_aggregation}): on a 100 Mbit/s, 10 ms path whose ACKs arrive in bursts
 * every 20 ms, cwnd must grow by about extra_acked (20 ms of data) to keep the pipe full.
 */
class Bbr1AckAggregationTest
{
    private static final long BURST_PERIOD_NS = 20 * MS;

    @Test
    void extraAckedCreditKeepsThePipeFullUnderAckBursts()
    {
        final Bbr1Run withCredit = run("");
        final Bbr1Run withoutCredit = run("bbr.extraAckedGain=0");

        final long expectedExtra = RATE_100_MBIT * BURST_PERIOD_NS / 1_000_000_000L;
        final long extra = withCredit.controller.extraAckedBytes();
        assertTrue(Math.abs(extra - expectedExtra) <= 0.05 * expectedExtra, "extra_acked " + extra);
        assertEquals(0, withoutCredit.controller.extraAckedBytes());

        // cwnd exceeds the inflight target of the bandwidth estimate by the credit, up to the rounding to an even
        // number of packets. (Compared within one run: without the credit the flow is starved and samples a lower
        // bandwidth, so the two runs' targets differ.)
        final Bbr1Controller bbr = withCredit.controller;
        final long creditInCwnd = bbr.congestionWindowBytes() - bbr.inflightTargetBytes(bbr.cwndGain());
        assertTrue(Math.abs(creditInCwnd - extra) <= 3L * Bbr1Run.MSS * 2, "cwnd above the target " + creditInCwnd);
        assertEquals(withoutCredit.controller.inflightTargetBytes(withoutCredit.controller.cwndGain()),
            withoutCredit.controller.congestionWindowBytes());

        final double utilisationWith = utilisation(withCredit);
        final double utilisationWithout = utilisation(withoutCredit);
        assertTrue(utilisationWith >= 0.95, "utilisation with credit " + utilisationWith);
        assertTrue(utilisationWithout < 0.9, "utilisation without credit " + utilisationWithout);
    }

    private Bbr1Run run(final String parameters)
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, 10 * MS, 1, parameters);
        run.path.ackBurstPeriodNs(BURST_PERIOD_NS);
        run.runUntilSeconds(3.0);
        return run;
    }

    private static double utilisation(final Bbr1Run run)
    {
        final long delivered = run.path.deliveredBytes();
        run.runUntilSeconds(9.0);
        return (run.path.deliveredBytes() - delivered) / (6.0 * RATE_100_MBIT);
    }
}
