package io.pacelink.report;

import io.pacelink.sim.scenario.FlowOutcome;
import io.pacelink.sim.scenario.ScenarioResult;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the flows of one controller achieved together in a run: one point of the throughput-delay plot. Throughput
 * is the sum of their goodputs (each over its own active window); the RTT percentiles are over all their RTT samples
 * together, as Pantheon takes the delay percentile over all of a scheme's packets.
 *
 * @param congestionControl    the controller.
 * @param flows                how many of the run's flows use it.
 * @param throughputMbps       summed goodput in Mbit/s.
 * @param p50RttMs             median RTT in ms.
 * @param p95RttMs             95th percentile RTT in ms.
 * @param retransmittedPercent retransmitted bytes as a share of the bytes sent, in per cent.
 * @param lostPackets          packets declared lost.
 */
public record ControllerFigures(
    String congestionControl,
    int flows,
    double throughputMbps,
    double p50RttMs,
    double p95RttMs,
    double retransmittedPercent,
    long lostPackets)
{
    /**
     * @param result a run's result.
     * @return each controller's figures, in order of first appearance among the flows.
     */
    public static List<ControllerFigures> of(final ScenarioResult result)
    {
        final Map<String, List<FlowOutcome>> byController = new LinkedHashMap<>();
        for (final FlowOutcome flow : result.flows())
        {
            byController.computeIfAbsent(flow.congestionControl(), (name) -> new ArrayList<>()).add(flow);
        }
        final List<ControllerFigures> figures = new ArrayList<>();
        byController.forEach((name, flows) -> figures.add(of(name, flows)));
        return figures;
    }

    private static ControllerFigures of(final String name, final List<FlowOutcome> flows)
    {
        final Histogram rtt = flows.get(0).rttHistogram().copy();
        double goodputBps = 0;
        long sentBytes = 0;
        long retransmittedBytes = 0;
        long lostPackets = 0;
        for (int i = 0; i < flows.size(); i++)
        {
            final FlowOutcome flow = flows.get(i);
            if (i > 0)
            {
                rtt.add(flow.rttHistogram());
            }
            goodputBps += flow.goodputBitsPerSecond();
            sentBytes += flow.sentBytes();
            retransmittedBytes += flow.retransmittedBytes();
            lostPackets += flow.lostPackets();
        }
        final boolean hasRtt = rtt.getTotalCount() > 0;
        return new ControllerFigures(
            name,
            flows.size(),
            goodputBps / 1e6,
            hasRtt ? rtt.getValueAtPercentile(50) / 1e6 : Double.NaN,
            hasRtt ? rtt.getValueAtPercentile(95) / 1e6 : Double.NaN,
            sentBytes == 0 ? 0 : 100.0 * retransmittedBytes / sentBytes,
            lostPackets);
    }
}
