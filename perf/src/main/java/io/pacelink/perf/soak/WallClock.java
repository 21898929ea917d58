package io.pacelink.perf.soak;

import java.time.Instant;

/**
 * The wall clock the flood's tools stamp their phases with, so that {@code perf/scripts/flood.sh} can place one tool's
 * events on another's time line (the probes' connects against the attacker's flood): each JVM's
 * {@code System.nanoTime} has an origin of its own, the system's real-time clock is shared by every process
 * ({@code CLOCK_REALTIME}, clock_gettime(2); the script's {@code date +%s.%N} reads it too).
 */
final class WallClock
{
    private WallClock()
    {
    }

    /**
     * @return seconds since the Unix epoch, to the microsecond.
     */
    static double unixSeconds()
    {
        final Instant now = Instant.now();
        return now.getEpochSecond() + (now.getNano() / 1_000) / 1e6;
    }
}
