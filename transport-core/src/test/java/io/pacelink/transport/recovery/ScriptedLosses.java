package io.pacelink.transport.recovery;

/**
 * The test kit's way to script a congestion signal through a real {@link LossRecovery}, at a moment loss detection
 * would not choose: the signal then takes exactly the path a detected loss takes (bytes in flight, the rate sampler,
 * the recovery period, the controller's callbacks). Used by {@link io.pacelink.transport.testing.ScriptedPath}.
 */
public final class ScriptedLosses
{
    private ScriptedLosses()
    {
    }

    /**
     * Declare one packet in flight lost now and report it as a batch of one, as if loss detection had just found
     * it. If the path still delivers the packet, its acknowledgement later proves the loss spurious.
     *
     * @param recovery     the connection's loss recovery.
     * @param packetNumber a packet in flight.
     * @param nowNs        current time.
     * @param listener     told of the lost packet.
     */
    public static void declareLost(
        final LossRecovery lossRecovery,
        final long packetNumber,
        final long nowNs,
        final PacketOutcomeListener listener)
    {
        lossRecovery.declareLost(packetNumber, nowNs, listener);
    }

    /**
     * Deliver a congestion event without touching the packets in flight: a late report of a loss, persistent
     * congestion, or an ECN congestion-experienced mark (which the wire format cannot carry yet).
     *
     * @param recovery               the connection's loss recovery.
     * @param nowNs                  current time.
     * @param newestLostSentTimeNs   send time of the newest packet the signal is about.
     * @param lostBytes              bytes reported lost (0 for an ECN mark).
     * @param isPersistentCongestion true to report persistent congestion.
     * @param isEcnCe                true for an ECN-CE mark rather than a loss.
     */
    public static void congestionSignal(
        final LossRecovery lossRecovery,
        final long nowNs,
        final long newestLostSentTimeNs,
        final long lostBytes,
        final boolean isPersistentCongestion,
        final boolean isEcnCe)
    {
        lossRecovery.onCongestionEvent(
            nowNs, newestLostSentTimeNs, lostBytes, isEcnCe ? 0 : 1, isPersistentCongestion, isEcnCe);
    }
}
