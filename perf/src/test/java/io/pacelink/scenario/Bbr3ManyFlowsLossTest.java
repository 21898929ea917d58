package io.pacelink.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.scenario.FlowOutcome;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import io.pacelink.transport.cc.ControllerParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.pacelink.scenario.BbrScenarios.SECOND;
import static io.pacelink.scenario.BbrScenarios.figure;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BBRv3 with 50 flows on 100 Mbit/s, 20 ms, one BDP of buffer: each flow's share of the BDP is about 7 packets, and the
 * draft's ProbeBW_UP, which ends on a bandwidth plateau (three rounds without 25 % growth, {@code BBRIsTimeToGoDown})
 * or on loss above LossThresh, runs on until a loss ends it, every Reno-coexistence interval (about as many rounds as
 * the flow has packets in its BDP). The run's loss is that rule's: the same run with only the UP exit swapped for
 * BBRv2 alpha's (one min_rtt once inflight reached 1.25 BDP, {@code bbr3.probeUpEndedByInflight}) loses under 3 %.
 * Both figures are gates: the first stays at the faithful algorithm's, the second proves which rule it is
 * (docs/bbr.md, "BBRv3 with many flows").
 */
@Timeout(300)
class Bbr3ManyFlowsLossTest
{
    private static final String PATH = "rate=100mbit delay=20ms queue=1bdp";
    private static final int FLOWS = 50;
    private static final long DURATION_NS = 30 * SECOND;

    @Test
    void theDraftsProbeUpExitCostsTheLossAndV2sExitKeepsItUnderThreePercent()
    {
        final double draftLoss = lossRatio(run(ControllerParameters.EMPTY));
        final double v2ExitLoss = lossRatio(run(ControllerParameters.parse("bbr3.probeUpEndedByInflight=true")));
        figure(3, "bbr3", 1, "loss_50_flows_percent", 100 * draftLoss);
        figure(3, "bbr3", 1, "loss_50_flows_v2_up_exit_percent", 100 * v2ExitLoss);

        // Measured 5.85 %: the faithful figure, gated against a regression.
        assertTrue(draftLoss <= 0.07, "draft ProbeBW_UP exit: loss " + draftLoss);
        // Measured 1.89 %, of which the start-up of 50 flows is most: the rule named above is the difference.
        assertTrue(v2ExitLoss <= 0.03, "v2 ProbeBW_UP exit: loss " + v2ExitLoss);
        assertTrue(draftLoss >= 2 * v2ExitLoss, "the UP exit explains the loss: " + draftLoss + " vs " + v2ExitLoss);
    }

    private static ScenarioResult run(final ControllerParameters parameters)
    {
        final Scenario.Builder builder = Scenario.builder()
            .seed(1)
            .path(PathSpec.Pair.parse(PATH))
            .durationNs(DURATION_NS);
        for (int i = 0; i < FLOWS; i++)
        {
            builder.flow(FlowSpec.bulk("bbr3").with(parameters));
        }
        final ScenarioResult result = builder.build().run();
        assertTrue(result.failedFlows().isEmpty(), "no connection closed: " + result.failedFlows());
        assertTrue(result.forward().utilisation() >= 0.95, "utilisation " + result.forward().utilisation());
        return result;
    }

    private static double lossRatio(final ScenarioResult result)
    {
        long sent = 0;
        long lost = 0;
        for (final FlowOutcome flow : result.flows())
        {
            sent += flow.packetsSent();
            lost += flow.lostPackets();
        }
        return lost / (double)sent;
    }
}
