package io.pacelink.bbr.v1;

import org.junit.jupiter.api.Test;

import static io.pacelink.bbr.v1.Bbr1Run.MS;
import static io.pacelink.bbr.v1.Bbr1Run.RATE_100_MBIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Continuous random loss (the Linux BBR announcement: throughput about {@code bw * (1 - p)} up to ~15 % loss). Under
 * QUIC recovery semantics a recovery period ends with the first ACK of a packet sent after it began, before the loss
 * detector has ruled on the packets sent just after it; with a loss in every round trip, each such loss would start a
 * "new" recovery with a packet-conservation round, pinning cwnd to bytes in flight and spiralling the bandwidth
 * estimate down (the lossy long path of the BBR acceptance suite fell to ~5 Mbit/s). Linux, whose Recovery lasts until
 * high_seq is cumulatively acknowledged, sees one continuous episode: one conservation round at its start.
 */
class Bbr1RandomLossTest
{
    private static final long RTT_NS = 100 * MS;

    private long acks;
    private long conservationAcks;
    private long conservationEpisodes;
    private boolean wasConserving;

    @Test
    void continuousLossIsOneRecoveryEpisodeWithOneConservationRound()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, RTT_NS, 21);
        final Bbr1Controller bbr = run.controller;
        run.runUntilSeconds(3.0);
        assertEquals(Bbr1State.PROBE_BW, bbr.state());

        run.path.randomLoss(0.05);
        final long deliveredBefore = run.path.deliveredBytes();
        run.path.listener((path) ->
        {
            acks++;
            if (bbr.isPacketConservation())
            {
                conservationAcks++;
                if (!wasConserving)
                {
                    conservationEpisodes++;
                }
            }
            wasConserving = bbr.isPacketConservation();
        });
        run.runUntilSeconds(13.0);

        // One conservation round when the losses began (at most one more after the PROBE_RTT dip), not one per RTT.
        assertTrue(conservationEpisodes <= 2, "conservation episodes " + conservationEpisodes);
        assertTrue(conservationAcks < 0.05 * acks, "conservation ACKs " + conservationAcks + " of " + acks);
        // The model is untouched by random loss: the estimate stays at the link rate and the flow fills the link
        // (less the 5 % lost and about 2 % for PROBE_RTT and pacing below the estimate).
        assertTrue(
            bbr.maxBandwidthBytesPerSecond() >= 0.9 * RATE_100_MBIT, "max_bw " + bbr.maxBandwidthBytesPerSecond());
        final double deliveredRate = (run.path.deliveredBytes() - deliveredBefore) / 10.0;
        assertTrue(deliveredRate >= 0.85 * RATE_100_MBIT, "delivered " + deliveredRate + " B/s");
    }

    @Test
    void lossAfterACleanRoundTripStartsANewConservationRound()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, RTT_NS, 22);
        final Bbr1Controller bbr = run.controller;
        run.runUntilSeconds(3.0);

        run.path.dropNext(1);
        run.runUntilSeconds(3.5);
        assertTrue(!bbr.isInRecovery(), "the first episode is over");

        // Half a second later, a fresh loss of a packet sent long after that episode ended: Linux is in Open by
        // then, so this is a new episode with its own conservation round.
        run.path.listener((path) ->
        {
            if (bbr.isPacketConservation() && !wasConserving)
            {
                conservationEpisodes++;
            }
            wasConserving = bbr.isPacketConservation();
        });
        run.path.dropNext(1);
        run.runUntilSeconds(4.0);
        assertEquals(1, conservationEpisodes);
    }
}
