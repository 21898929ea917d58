package io.pacelink.perf.soak;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A probe beside a flood stops a set time after the attacker's last datagram, as the attacker's summary gives it, and
 * not before the summary is there and whole — however late the attacker started.
 */
class FloodScheduleTest
{
    private static final double FLOOD_END_S = 2_000.0;

    @TempDir
    Path dir;

    @Test
    void theProbeGoesOnWhileTheAttackerHasWrittenNothing()
    {
        final FloodSchedule schedule = new FloodSchedule(dir.resolve("attack.json"), 2);
        assertFalse(schedule.isOver(FLOOD_END_S + 1_000));
        assertTrue(Double.isNaN(schedule.stopUnixS()));
    }

    @Test
    void theProbeStopsTheGivenTimeAfterTheFloodsLastDatagram() throws Exception
    {
        final Path summary = dir.resolve("attack.json");
        Files.writeString(summary, "{\"flood_start_unix_s\": 1985.0, \"flood_end_unix_s\": " + FLOOD_END_S + "}\n");
        final FloodSchedule schedule = new FloodSchedule(summary, 2);
        assertFalse(schedule.isOver(FLOOD_END_S + 1.9));
        assertEquals(FLOOD_END_S + 2, schedule.stopUnixS());
        assertTrue(schedule.isOver(FLOOD_END_S + 2));
    }

    @Test
    void aHalfWrittenOrOlderSummaryIsNotAnEnd() throws Exception
    {
        final Path summary = dir.resolve("attack.json");
        Files.writeString(summary, "{\"flood_start_unix_s\": 1985.0, \"flood_e");
        final FloodSchedule schedule = new FloodSchedule(summary, 2);
        assertFalse(schedule.isOver(FLOOD_END_S + 100));
        // An attacker's summary without the flood's times (an older tool) says nothing of its end either.
        Files.writeString(summary, "{\"datagrams_sent\": 15000}\n");
        assertFalse(schedule.isOver(FLOOD_END_S + 100));
        Files.writeString(summary, "{\"flood_end_unix_s\": " + FLOOD_END_S + "}\n");
        assertTrue(schedule.isOver(FLOOD_END_S + 100));
    }
}
