package io.pacelink.cli.perf;

import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.recovery.EcnValidation;

import java.util.List;

/**
 * One end's ECN figures over a stream's test (docs/ecn.md): the sender's validation outcome and what the marks did to
 * it, and the CE marks the receiver counted. Both ends fill every field from their own connection, so a stream's two
 * ends together say whether every mark the path set arrived, was reported and was answered.
 *
 * @param state       the validation state's name ({@link EcnValidation#STATE_NAMES}).
 * @param failure     why validation failed ({@link EcnValidation#FAILURE_NAMES}), {@code NONE} if it did not.
 * @param markedSent  packets this end sent marked ECT(0).
 * @param ceReported  CE marks the peer reported on this end's packets.
 * @param ceReactions congestion events those marks started at this end's controller.
 * @param ceReceived  packets this end received marked CE.
 */
public record EcnTotals(
    String state, String failure, long markedSent, long ceReported, long ceReactions, long ceReceived)
{
    /**
     * @param stats a connection's live figures.
     * @return its ECN figures now.
     */
    static EcnTotals of(final ConnectionStats stats)
    {
        return new EcnTotals(
            name(EcnValidation.STATE_NAMES, stats.ecnState()),
            name(EcnValidation.FAILURE_NAMES, stats.ecnFailure()),
            stats.ecnMarkedPacketsSent(),
            stats.ecnCeReported(),
            stats.ecnCeReactions(),
            stats.ecnCeReceived());
    }

    private static String name(final List<String> names, final long index)
    {
        return index >= 0 && index < names.size() ? names.get((int)index) : Long.toString(index);
    }
}
