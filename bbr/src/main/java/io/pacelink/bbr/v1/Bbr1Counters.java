package io.pacelink.bbr.v1;

import io.pacelink.transport.cc.ControllerCounters;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The counters BBRv1 publishes for observation (the fields Linux exposes in {@code tcp_bbr_info} plus its state
 * machine), named after the variant: {@code bbr-state}, {@code bbrplus-state}, ... Registered once at construction;
 * updated with release stores after every event that changes them.
 */
final class Bbr1Counters
{
    /**
     * Counter name after the variant's name and a dash: how often the long-term (policer) rate has been put in use.
     */
    static final String LONG_TERM_BANDWIDTH_ENGAGEMENTS = "lt-bw-engagements";

    private static final double GAIN_SCALE = 1000.0;

    private final AtomicCounter state;
    private final AtomicCounter cycleIndex;
    private final AtomicCounter maxBandwidthBytesPerSecond;
    private final AtomicCounter minRttNs;
    private final AtomicCounter pacingGainX1000;
    private final AtomicCounter cwndGainX1000;
    private final AtomicCounter isFullBandwidthReached;
    private final AtomicCounter isLongTermBandwidthInUse;
    private final AtomicCounter longTermBandwidthEngagements;
    private final AtomicCounter roundCount;

    Bbr1Counters(final ControllerCounters counters, final Bbr1Variant variant)
    {
        final String prefix = variant.controllerName() + "-";
        state = counters.newCounter(prefix + "state");
        cycleIndex = counters.newCounter(prefix + "cycle-index");
        maxBandwidthBytesPerSecond = counters.newCounter(prefix + "max-bw-bytes-per-second");
        minRttNs = counters.newCounter(prefix + "min-rtt-ns");
        pacingGainX1000 = counters.newCounter(prefix + "pacing-gain-x1000");
        cwndGainX1000 = counters.newCounter(prefix + "cwnd-gain-x1000");
        isFullBandwidthReached = counters.newCounter(prefix + "full-bw-reached");
        isLongTermBandwidthInUse = counters.newCounter(prefix + "lt-bw-in-use");
        longTermBandwidthEngagements = counters.newCounter(prefix + LONG_TERM_BANDWIDTH_ENGAGEMENTS);
        roundCount = counters.newCounter(prefix + "round-count");
    }

    void publish(final Bbr1Controller controller)
    {
        state.setRelease(controller.state().ordinal());
        cycleIndex.setRelease(controller.cycleIndex());
        maxBandwidthBytesPerSecond.setRelease(controller.maxBandwidthBytesPerSecond());
        minRttNs.setRelease(controller.hasMinRtt() ? controller.minRttNs() : -1);
        pacingGainX1000.setRelease(Math.round(controller.pacingGain() * GAIN_SCALE));
        cwndGainX1000.setRelease(Math.round(controller.cwndGain() * GAIN_SCALE));
        isFullBandwidthReached.setRelease(controller.isFullBandwidthReached() ? 1 : 0);
        isLongTermBandwidthInUse.setRelease(controller.isLongTermBandwidthInUse() ? 1 : 0);
        longTermBandwidthEngagements.setRelease(controller.longTermBandwidthEngagements());
        roundCount.setRelease(controller.roundCount());
    }
}
