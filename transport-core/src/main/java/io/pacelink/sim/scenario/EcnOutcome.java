package io.pacelink.sim.scenario;

import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.recovery.EcnValidation;

/**
 * What ECN did for one flow: how the sender's validation ended (RFC 9000 section 13.4.2), the CE marks its peer
 * reported and the congestion events they started, and the CE marks the receiver counted on arriving packets.
 *
 * @param state          the sender's validation state at the end of the run ({@link EcnValidation#STATE_NAMES}).
 * @param failure        why validation failed ({@link EcnValidation#FAILURE_NAMES}; {@code NONE} if it did not).
 * @param markedSent     packets the sender sent ECT(0).
 * @param ceReported     CE marks the receiver reported in its ACK frames, as the sender validated them.
 * @param ceReactions    congestion events the marks started at the sender's controller.
 * @param ceReceived     packets the receiver got marked CE.
 */
public record EcnOutcome(
    String state,
    String failure,
    long markedSent,
    long ceReported,
    long ceReactions,
    long ceReceived)
{
    /**
     * A flow that never connected, or a report made before ECN.
     */
    public static final EcnOutcome NONE = new EcnOutcome(
        EcnValidation.STATE_NAMES.get(EcnValidation.DISABLED),
        EcnValidation.FAILURE_NAMES.get(EcnValidation.NO_FAILURE), 0, 0, 0, 0);

    /**
     * @param sender   the sender's connection statistics, or null.
     * @param receiver the receiver's, or null.
     * @return the flow's ECN figures.
     */
    static EcnOutcome of(final ConnectionStats sender, final ConnectionStats receiver)
    {
        if (null == sender)
        {
            return NONE;
        }
        return new EcnOutcome(
            EcnValidation.STATE_NAMES.get((int)sender.ecnState()),
            EcnValidation.FAILURE_NAMES.get((int)sender.ecnFailure()),
            sender.ecnMarkedPacketsSent(),
            sender.ecnCeReported(),
            sender.ecnCeReactions(),
            null == receiver ? 0 : receiver.ecnCeReceived());
    }

    /**
     * @return true if the sender's validation ended CAPABLE: marks were believed and answered.
     */
    public boolean isCapable()
    {
        return EcnValidation.STATE_NAMES.get(EcnValidation.CAPABLE).equals(state);
    }
}
