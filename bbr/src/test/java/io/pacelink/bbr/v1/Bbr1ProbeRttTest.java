package io.pacelink.bbr.v1;

import org.junit.jupiter.api.Test;

import static io.pacelink.bbr.v1.Bbr1Run.MS;
import static io.pacelink.bbr.v1.Bbr1Run.MSS;
import static io.pacelink.bbr.v1.Bbr1Run.RATE_100_MBIT;
import static io.pacelink.bbr.v1.Bbr1Run.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PROBE_RTT (Linux {@code bbr_update_min_rtt}). On a scripted path with a constant RTT every packet sent into an empty
 * queue matches min_rtt exactly and refreshes it, so PROBE_RTT would never be due; the tests therefore raise the
 * propagation delay by 1 ms at t = 3 s (a route change) so that min_rtt can only age out.
 */
class Bbr1ProbeRttTest
{
    private static final long PROPAGATION_RTT_NS = 100 * MS;
    private static final long SERIALIZATION_NS = MSS * SECOND / RATE_100_MBIT;
    private static final long FLOOR_BYTES = 4L * MSS;

    private long stampBeforeEntryNs = -1;
    private long lastStampNs;
    private long entryNs = -1;
    private long cwndBeforeEntry;
    private long lastCwnd;
    private long floorStartNs = -1;
    private long floorStartRound;
    private long exitNs = -1;
    private long exitRound;
    private long exitCwnd;
    private long maxCwndInProbeRtt;
    private long minMaxBwInProbeRtt = Long.MAX_VALUE;
    private int probeRttEntries;
    private long lowestMaxBwAfterEntry = Long.MAX_VALUE;

    @Test
    void backloggedFlowProbesRttTenSecondsAfterLastMinRttUpdate()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, PROPAGATION_RTT_NS, 4);
        final Bbr1Controller bbr = run.controller;
        run.path.listener((path) ->
        {
            if (Bbr1State.PROBE_RTT == bbr.state())
            {
                if (entryNs < 0)
                {
                    entryNs = path.nowNs();
                    stampBeforeEntryNs = lastStampNs;
                    cwndBeforeEntry = lastCwnd;
                }
                maxCwndInProbeRtt = Math.max(maxCwndInProbeRtt, bbr.congestionWindowBytes());
                minMaxBwInProbeRtt = Math.min(minMaxBwInProbeRtt, bbr.maxBandwidthBytesPerSecond());
                if (floorStartNs < 0 && path.bytesInFlight() <= FLOOR_BYTES)
                {
                    floorStartNs = path.nowNs();
                    floorStartRound = bbr.roundCount();
                }
            }
            else if (entryNs >= 0 && exitNs < 0)
            {
                exitNs = path.nowNs();
                exitRound = bbr.roundCount();
                exitCwnd = bbr.congestionWindowBytes();
                assertEquals(Bbr1State.PROBE_BW, bbr.state());
            }
            lastStampNs = bbr.minRttStampNs();
            lastCwnd = bbr.congestionWindowBytes();
        });
        run.runUntilSeconds(3.0);
        run.path.propagationRttNs(PROPAGATION_RTT_NS + MS);
        run.runUntilSeconds(16.0);

        // The last refresh happened before the route change took effect; PROBE_RTT starts on the first ACK more
        // than 10 s later (ACKs arrive every 120 us).
        assertTrue(stampBeforeEntryNs > 0 && stampBeforeEntryNs < Bbr1Run.START_NS + 3 * SECOND + 110 * MS);
        final long sinceUpdateNs = entryNs - stampBeforeEntryNs;
        assertTrue(sinceUpdateNs > 10 * SECOND && sinceUpdateNs <= 10 * SECOND + 2 * SERIALIZATION_NS,
            "PROBE_RTT " + sinceUpdateNs + " ns after the last min_rtt update");

        // cwnd held at 4 packets; inflight at the floor for at least 200 ms and a round.
        assertEquals(FLOOR_BYTES, maxCwndInProbeRtt);
        assertTrue(exitNs - floorStartNs > 200 * MS, "floor held " + (exitNs - floorStartNs));
        assertTrue(exitRound > floorStartRound, "floor held " + (exitRound - floorStartRound) + " rounds");
        assertTrue(exitNs - entryNs < 400 * MS, "PROBE_RTT lasted " + (exitNs - entryNs));

        // Back to PROBE_BW with the cwnd from before, and the new propagation delay measured.
        assertTrue(exitCwnd >= cwndBeforeEntry, "cwnd " + exitCwnd + " < prior " + cwndBeforeEntry);
        assertEquals(cwndBeforeEntry, bbr.priorCwndBytes());
        assertEquals(PROPAGATION_RTT_NS + MS + SERIALIZATION_NS, bbr.minRttNs());
        // The low delivery rates of PROBE_RTT are marked app-limited and leave max_bw alone.
        assertTrue(minMaxBwInProbeRtt >= 0.98 * RATE_100_MBIT);
        run.runUntilSeconds(18.0);
        assertTrue(run.controller.maxBandwidthBytesPerSecond() >= 0.98 * RATE_100_MBIT);
    }

    @Test
    void appThatIdlesWithinTheWindowNeverProbesRtt()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, PROPAGATION_RTT_NS, 4);
        final Bbr1Controller bbr = run.controller;
        run.path.listener((path) ->
        {
            if (Bbr1State.PROBE_RTT == bbr.state() && (0 == probeRttEntries || lastCwnd > FLOOR_BYTES))
            {
                probeRttEntries++;
            }
            lastCwnd = bbr.congestionWindowBytes();
        });
        run.runUntilSeconds(3.0);
        // 300 KB every 700 ms: idle most of the time, with nothing in flight between writes.
        run.path.appChunks(300_000, 700 * MS);
        run.path.propagationRttNs(PROPAGATION_RTT_NS + MS);
        run.runUntilSeconds(33.0);

        assertEquals(0, probeRttEntries);
        // min_rtt did expire: the first ACK after a restart from idle took the new RTT instead of probing.
        assertEquals(PROPAGATION_RTT_NS + MS + SERIALIZATION_NS, bbr.minRttNs());
        assertTrue(bbr.minRttStampNs() > Bbr1Run.START_NS + 13 * SECOND);
    }

    @Test
    void probeRttLongerThanTheBandwidthWindowKeepsMaxBw()
    {
        // 10 ms path with ACKs in 20 ms bursts: rounds last 20 ms, so PROBE_RTT (200 ms + a round) spans more than
        // the 10-round max_bw window, and inflight drops to 0 after each burst. Its low delivery rates must stay
        // marked app-limited until the mark is delivered, or the expired filter would take them. As in the other
        // tests the propagation delay rises by 1 ms at 3 s so min_rtt can only age out: otherwise the send times
        // drift against the bursts and keep finding RTT samples a few hundred nanoseconds lower.
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, 10 * MS, 17);
        final Bbr1Controller bbr = run.controller;
        run.path.ackBurstPeriodNs(20 * MS);
        run.path.listener((path) ->
        {
            if (Bbr1State.PROBE_RTT == bbr.state() && entryNs < 0)
            {
                entryNs = path.nowNs();
                floorStartRound = bbr.roundCount();
            }
            if (Bbr1State.PROBE_RTT != bbr.state() && entryNs >= 0 && exitNs < 0)
            {
                exitNs = path.nowNs();
                exitRound = bbr.roundCount();
            }
            if (Bbr1State.PROBE_RTT == bbr.state())
            {
                minMaxBwInProbeRtt = Math.min(minMaxBwInProbeRtt, bbr.maxBandwidthBytesPerSecond());
            }
            if (entryNs >= 0)
            {
                lowestMaxBwAfterEntry = Math.min(lowestMaxBwAfterEntry, bbr.maxBandwidthBytesPerSecond());
            }
        });
        run.runUntilSeconds(3.0);
        run.path.propagationRttNs(11 * MS);
        run.runUntilSeconds(14.0);

        assertTrue(exitNs > entryNs && entryNs > 0);
        assertTrue(exitRound - floorStartRound > Bbr1Parameters.from(run.context.parameters()).bandwidthFilterRounds());
        assertTrue(minMaxBwInProbeRtt >= 0.98 * RATE_100_MBIT, "max_bw fell to " + minMaxBwInProbeRtt);
        // PROBE_RTT delivers 4 packets per 20 ms (75 KB/s). Once the expired window takes the first sample after
        // the app-limited bubble, max_bw may dip to one burst-distorted sample (about half the rate, Linux does the
        // same) and is back within the round; it never falls to PROBE_RTT's rate.
        assertTrue(lowestMaxBwAfterEntry >= 0.4 * RATE_100_MBIT, "max_bw fell to " + lowestMaxBwAfterEntry);
        assertTrue(bbr.maxBandwidthBytesPerSecond() >= 0.98 * RATE_100_MBIT);
        final long delivered = run.path.deliveredBytes();
        run.runUntilSeconds(15.0);
        assertTrue(run.path.deliveredBytes() - delivered >= 0.95 * RATE_100_MBIT);
    }
}
