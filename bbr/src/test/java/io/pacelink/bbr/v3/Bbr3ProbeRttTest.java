package io.pacelink.bbr.v3;

import io.pacelink.transport.testing.ScriptedPath;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * draft-ietf-ccwg-bbr-06 Appendix A.10: ProbeRTT every 5 s of continuous backlog, cwnd max(0.5 BDP, 4 SMSS), held for
 * at least 200 ms and one round; on a 20 Mbit/s, 40 ms scripted path whose RTT never drops below its first sample (40.6
 * ms), so only ProbeRTT refreshes it.
 */
class Bbr3ProbeRttTest
{
    private static final long MS = 1_000_000L;
    private static final int SMSS = Bbr3Run.SMSS;

    @Test
    void probeRttEveryFiveSecondsAtHalfTheBdpForTwoHundredMillisecondsAndARound()
    {
        final Bbr3Run bbr = new Bbr3Run(1, "");
        final ScriptedPath path = bbr.path(2_500_000L, 40 * MS, 0, 1);
        // Per episode: {cwnd before entry, largest cwnd inside, its ProbeRTT cwnd, time and round when inflight
        // first reached the ProbeRTT cwnd, episode number}.
        final List<long[]> episodes = new ArrayList<>();
        final long[] cwndOutside = {0};
        path.listener((p) ->
        {
            if (!"PROBE_RTT".equals(bbr.stateName()))
            {
                cwndOutside[0] = bbr.congestionWindowBytes();
                return;
            }
            final long probeRttCwnd = Math.max(bbr.bdp(0.5), 4L * SMSS);
            final int entries = bbr.transitionsTo("PROBE_RTT").size();
            if (episodes.isEmpty() || episodes.get(episodes.size() - 1)[5] != entries)
            {
                episodes.add(new long[] {cwndOutside[0], 0, probeRttCwnd, -1, -1, entries});
            }
            final long[] episode = episodes.get(episodes.size() - 1);
            episode[1] = Math.max(episode[1], bbr.congestionWindowBytes());
            if (episode[3] < 0 && p.bytesInFlight() <= probeRttCwnd)
            {
                episode[3] = p.nowNs();
                episode[4] = bbr.counter(Bbr3Counters.ROUND_COUNT);
            }
        });

        path.runUntil(21_000 * MS);

        final List<Bbr3Run.Transition> entries = bbr.transitionsTo("PROBE_RTT");
        assertEquals(4, entries.size(), bbr.transitions.toString());
        assertEquals(4, episodes.size());
        // The first RTT sample (40.6 ms) was never beaten: ProbeRTT 5 s later, on the next ACK.
        assertTrue(entries.get(0).timeNs() > 5_040_600_000L && entries.get(0).timeNs() < 5_042_000_000L,
            entries.get(0).toString());
        for (int i = 0; i < entries.size(); i++)
        {
            final Bbr3Run.Transition entry = entries.get(i);
            final Bbr3Run.Transition exit = bbr.transitions.get(bbr.transitions.indexOf(entry) + 1);
            final long[] episode = episodes.get(i);
            assertEquals("PROBE_RTT", exit.from());
            assertEquals("PROBE_BW_CRUISE", exit.to(), "back to ProbeBW through DOWN once the pipe was full");
            // cwnd = max(0.5 * BDP, 4 SMSS) = 50 750 bytes here.
            assertEquals(50_750, episode[2]);
            assertTrue(episode[1] <= episode[2], "cwnd " + episode[1] + " in ProbeRTT");
            // Held for 200 ms and at least one round after inflight reached it, and not much longer.
            assertTrue(episode[3] > 0);
            assertTrue(exit.timeNs() - episode[3] > 200 * MS, "held " + (exit.timeNs() - episode[3]));
            assertTrue(exit.timeNs() - episode[3] < 200 * MS + 2 * 41 * MS, "held " + (exit.timeNs() - episode[3]));
            assertTrue(exit.roundCount() > episode[4]);
            // The last known good cwnd comes back on exit, within the cruising bound of 2 BDP (plus extra_acked).
            assertTrue(exit.congestionWindowBytes() >= Math.min(episode[0], 2 * 101_500),
                "cwnd " + exit.congestionWindowBytes() + " vs " + episode[0]);
            // The next ProbeRTT is scheduled 5 s after this one ended.
            if (i + 1 < entries.size())
            {
                final long gapNs = entries.get(i + 1).timeNs() - exit.timeNs();
                assertTrue(gapNs > 5_000 * MS && gapNs < 5_002 * MS, "gap " + gapNs);
            }
        }
    }

    @Test
    void probeRttDuringStartupReturnsToStartup()
    {
        // Draft A.20: an application writing a fifth of the link rate never fills the pipe, so Startup lasts until
        // ProbeRTT and resumes afterwards.
        final Bbr3Run bbr = new Bbr3Run(1, "");
        final ScriptedPath path = bbr.path(2_500_000L, 40 * MS, 0, 1).appChunks(6_000, 12 * MS);

        path.runUntil(5_500 * MS);

        final Bbr3Run.Transition entry = bbr.firstTransitionTo("PROBE_RTT");
        assertEquals("STARTUP", entry.from());
        final Bbr3Run.Transition exit = bbr.transitions.get(bbr.transitions.indexOf(entry) + 1);
        assertEquals("STARTUP", exit.to());
        assertTrue(exit.timeNs() - entry.timeNs() > 200 * MS);
    }

    @Test
    void configuredIntervalAndDurationAreHonoured()
    {
        final Bbr3Run bbr =
            new Bbr3Run(1, "bbr3.probeRttIntervalMs=2000,bbr3.probeRttDurationMs=400");
        final ScriptedPath path = bbr.path(2_500_000L, 40 * MS, 0, 1);

        path.runUntil(5_000 * MS);

        final Bbr3Run.Transition entry = bbr.firstTransitionTo("PROBE_RTT");
        assertTrue(entry.timeNs() > 2_040 * MS && entry.timeNs() < 2_042 * MS, entry.toString());
        final Bbr3Run.Transition exit = bbr.transitions.get(bbr.transitions.indexOf(entry) + 1);
        assertTrue(exit.timeNs() - entry.timeNs() > 400 * MS, exit.toString());
    }

    @Test
    void probeRttSamplesDoNotEndStartupAsAPlateau()
    {
        // With ProbeRTT every 200 ms, Startup on 100 Mbit/s, 40 ms is interrupted twice. ProbeRTT marks the
        // connection app-limited (draft MarkConnectionAppLimited), so its low-rate samples are no plateau: Startup
        // resumes and still measures the full link rate.
        final Bbr3Run bbr = new Bbr3Run(1, "bbr3.probeRttIntervalMs=200");
        final ScriptedPath path = bbr.path(12_500_000L, 40 * MS, 0, 1);
        final long[] maxBwAtDrain = {-1};
        path.listener((p) ->
        {
            if (maxBwAtDrain[0] < 0 && "DRAIN".equals(bbr.stateName()))
            {
                maxBwAtDrain[0] = bbr.counter(Bbr3Counters.MAX_BW);
            }
        });

        path.runUntil(3_000 * MS);

        final Bbr3Run.Transition firstProbeRtt = bbr.firstTransitionTo("PROBE_RTT");
        assertEquals("STARTUP", firstProbeRtt.from());
        assertEquals("STARTUP", bbr.transitions.get(bbr.transitions.indexOf(firstProbeRtt) + 1).to());
        assertEquals(12_500_000L, maxBwAtDrain[0]);
    }
}
