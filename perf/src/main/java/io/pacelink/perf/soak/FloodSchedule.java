package io.pacelink.perf.soak;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * When a probe beside a flood stops: a set time after the attacker's last datagram, read from the summary the
 * attacker writes as it ends ({@link HelloFlood}'s {@code flood_end_unix_s}, on the wall clock every process shares).
 * A probe that ran for a fixed time from its own start instead lost the seconds after the flood whenever the
 * attacker's start slipped behind the probe's (a JVM started on a loaded two-core machine), and those seconds — the
 * server dropping the flood's half-open handshakes — are part of what the check judges. Until the summary is there
 * (or while it is half written) the flood is taken to go on.
 */
final class FloodSchedule
{
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Path attackSummary;
    private final double afterSeconds;
    private double stopUnixS = Double.NaN;

    /**
     * @param attackSummary the attacker's summary file, written when its flood has ended.
     * @param afterSeconds  how long after the flood's last datagram the probe goes on.
     */
    FloodSchedule(final Path attackSummary, final double afterSeconds)
    {
        this.attackSummary = attackSummary;
        this.afterSeconds = afterSeconds;
    }

    /**
     * @param nowUnixS the wall clock now, seconds since the Unix epoch.
     * @return true once the flood has ended and {@code afterSeconds} have passed since its last datagram.
     */
    boolean isOver(final double nowUnixS)
    {
        if (Double.isNaN(stopUnixS))
        {
            final double endUnixS = floodEndUnixS(attackSummary);
            if (Double.isNaN(endUnixS))
            {
                return false;
            }
            stopUnixS = endUnixS + afterSeconds;
        }
        return nowUnixS >= stopUnixS;
    }

    /**
     * @return the wall-clock time the probe stops at, or NaN while the flood has not been seen to end.
     */
    double stopUnixS()
    {
        return stopUnixS;
    }

    /**
     * @return the flood's last datagram's wall-clock time from the attacker's summary, or NaN if there is none yet.
     */
    static double floodEndUnixS(final Path attackSummary)
    {
        if (!Files.isRegularFile(attackSummary))
        {
            return Double.NaN;
        }
        try
        {
            final JsonNode end = MAPPER.readTree(attackSummary.toFile()).get("flood_end_unix_s");
            return null != end && end.isNumber() && end.asDouble() > 0 ? end.asDouble() : Double.NaN;
        }
        catch (final IOException ex)
        {
            // Being written as it is read: the next look finds it whole.
            return Double.NaN;
        }
    }
}
