package io.pacelink.scenario;

import io.pacelink.scenario.AckRuns.Run;
import io.pacelink.transport.ack.ReceivedPacketTracker;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ACK thinning (ReceivedPacketTracker: one ACK per up to 10 packets at high rates) leaves loss detection and the
 * rate samples BBR builds its model from as they were with an ACK every second packet, while the receiver sends far
 * fewer ACKs. Each case runs the same seed twice on a fast lossy path, with thinning (the default) and without
 * ({@code maxThinnedAckThreshold(2)}), and compares: ACK datagrams per data packet, losses declared against packets
 * the path really dropped (none missed, none spurious beyond a few), goodput, and for BBR its bandwidth estimate.
 */
@Timeout(120)
class AckThinningTest
{
    private static final long SECOND = 1_000_000_000L;
    private static final long DURATION_NS = 4 * SECOND;
    private static final long MODEL_FROM_NS = SECOND;

    @ParameterizedTest
    @CsvSource({
        "bbr,   1, rate=1gbit delay=5ms loss=1% queue=1bdp",
        "bbr,   2, rate=500mbit delay=19ms loss=1% queue=1bdp",
        "cubic, 1, rate=1gbit delay=5ms queue=1bdp",
        "cubic, 2, rate=500mbit delay=19ms queue=1bdp" })
    void thinnedAcksKeepLossDetectionAndTheBandwidthModel(final String controller, final long seed, final String path)
    {
        final Run thinned = run(controller, seed, path, ReceivedPacketTracker.DEFAULT_MAX_THINNED_THRESHOLD);
        final Run everySecond = run(controller, seed, path, ReceivedPacketTracker.DEFAULT_ACK_ELICITING_THRESHOLD);
        final String figures = String.format(Locale.ROOT, "%s seed %d %s%n  thinned:       %s%n  every second: %s",
            controller, seed, path, thinned, everySecond);
        System.out.println("ACK-THINNING " + figures);

        assertTrue(everySecond.acksPerPacket() > 0.4, "every second packet acknowledged without thinning: " + figures);
        assertTrue(thinned.acksPerPacket() < 0.6 * everySecond.acksPerPacket(), "far fewer ACKs: " + figures);
        assertTrue(thinned.goodputBitsPerSecond() >= 0.95 * everySecond.goodputBitsPerSecond(), "goodput: " + figures);
        // Packets dropped in the last round trip are still in flight when the run ends: a few go undeclared either way.
        assertTrue(thinned.missedLosses() <= everySecond.missedLosses() + 10,
            "every packet the path dropped declared lost: " + figures);
        assertTrue(thinned.spuriousLosses() <= everySecond.spuriousLosses() + 0.01 * thinned.droppedPackets() + 3,
            "no more spurious losses: " + figures);
        if (controller.startsWith("bbr"))
        {
            assertTrue(Math.abs(thinned.meanBandwidthBytesPerSecond() / everySecond.meanBandwidthBytesPerSecond() - 1) <
                0.05, "the bandwidth estimate within 5 %: " + figures);
        }
    }

    private static Run run(final String controller, final long seed, final String path, final int maxThreshold)
    {
        return AckRuns.run(controller, seed, path, DURATION_NS, MODEL_FROM_NS,
            (context) -> context.maxThinnedAckThreshold(maxThreshold));
    }
}
