package io.pacelink.scenario;

import io.pacelink.link.LinkCounters;
import io.pacelink.link.PathSpec;
import io.pacelink.sim.Dumbbell;
import io.pacelink.sim.scenario.FlowOutcome;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.transport.PacelinkContext;

import java.util.Locale;
import java.util.function.Consumer;

/**
 * One bulk flow in the simulator, summarised for comparing ACK policies (ACK thinning, ACK frequency): ACK datagrams
 * per data packet, goodput, losses declared against packets the path dropped, and for BBR its mean bandwidth estimate.
 */
final class AckRuns
{
    private AckRuns()
    {
    }

    /**
     * @param controller  the sender's controller.
     * @param seed        the scenario's seed.
     * @param path        the forward path's spec.
     * @param durationNs  how long the flow runs.
     * @param modelFromNs where BBR's bandwidth estimate starts to be averaged.
     * @param customizer  applied to both endpoints' contexts.
     * @return the run's figures.
     */
    static Run run(
        final String controller,
        final long seed,
        final String path,
        final long durationNs,
        final long modelFromNs,
        final Consumer<PacelinkContext> customizer)
    {
        final BbrTelemetry telemetry = new BbrTelemetry(0);
        final Dumbbell[] dumbbell = new Dumbbell[1];
        final Scenario.Builder builder = Scenario.builder()
            .seed(seed)
            .path(PathSpec.Pair.parse(path))
            .durationNs(durationNs)
            .flow(FlowSpec.bulk(controller))
            .contextCustomizer(customizer)
            .pathChange(0, (d) -> dumbbell[0] = d);
        final boolean isBbr = controller.startsWith("bbr");
        if (isBbr)
        {
            builder.registry(telemetry.registry());
        }
        final FlowOutcome flow = builder.build().run().flows().get(0);
        final LinkCounters forward = dumbbell[0].forward().counters();
        final LinkCounters reverse = dumbbell[0].reverse().counters();
        return new Run(
            reverse.deliveredPackets() / (double)forward.deliveredPackets(),
            flow.goodputBitsPerSecond(),
            flow.lostPackets(),
            flow.spuriousLosses(),
            forward.randomLossPackets() + forward.queueDropPackets(),
            isBbr ? telemetry.sender().meanBandwidth(modelFromNs, durationNs) : 0);
    }

    record Run(
        double acksPerPacket,
        double goodputBitsPerSecond,
        long lostPackets,
        long spuriousLosses,
        long droppedPackets,
        double meanBandwidthBytesPerSecond)
    {
        long missedLosses()
        {
            return Math.max(0, droppedPackets - (lostPackets - spuriousLosses));
        }

        public String toString()
        {
            return String.format(Locale.ROOT, "ACKs/packet %.3f, goodput %.1f Mbit/s, lost %d (spurious %d) of " +
                "%d dropped, bandwidth estimate %.1f Mbit/s", acksPerPacket, goodputBitsPerSecond / 1e6, lostPackets,
                spuriousLosses, droppedPackets, meanBandwidthBytesPerSecond * 8 / 1e6);
        }
    }
}
