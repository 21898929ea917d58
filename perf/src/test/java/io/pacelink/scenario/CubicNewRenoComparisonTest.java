package io.pacelink.scenario;

import io.pacelink.cubic.CubicParameters;
import io.pacelink.reno.NewRenoController;
import io.pacelink.reno.NewRenoParameters;
import io.pacelink.scenario.CubicScenarios.AppLimitedWindow;
import io.pacelink.scenario.CubicScenarios.SingleLoss;
import io.pacelink.scenario.CubicScenarios.SlowStartEnd;
import io.pacelink.sim.scenario.FlowOutcome;
import io.pacelink.sim.scenario.ScenarioResult;
import io.pacelink.transport.cc.ControllerParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.pacelink.scenario.CubicScenarios.SECOND_NS;

/**
 * The NewReno column of docs/cubic.md's figures table: NewReno on the scenarios of {@link CubicAcceptanceTest}, same
 * paths, seeds and durations, plus the CUBIC figure the issue asks to report without asserting (the latecomer's time
 * with fast convergence off). It asserts nothing and takes about half a minute, so it runs only on request:
 * {@code mvn -pl perf -am test -Dtest=CubicNewRenoComparisonTest -Dpacelink.compare=true
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "pacelink.compare", matches = "true")
@Timeout(300)
class CubicNewRenoComparisonTest
{
    private static final String RENO = "reno";
    private static final double RENO_BETA = NewRenoParameters.DEFAULT_LOSS_REDUCTION;

    @Test
    void reportNewRenoOnTheCubicScenarios(@TempDir final Path traces)
    {
        final ScenarioResult curve = CubicScenarios.windowCurve(RENO, 60 * SECOND_NS, traces.resolve("1"));
        final SingleLoss loss = SingleLoss.of(CubicTrace.read(traces.resolve("1"), 0, RENO),
            curve.flow(0).controllerCounters().get(NewRenoController.SSTHRESH_COUNTER) / RENO_BETA);
        System.out.printf("reno item 1: W_max %.1f packets regained %.3f s after the loss%n",
            loss.wMaxPackets(), loss.regainAfterLossSeconds());

        System.out.printf("reno item 2: %.3f Mbit/s%n",
            CubicScenarios.renoFriendly(RENO).flow(0).goodputBitsPerSecond() / 1e6);

        for (long seed = 1; seed <= 2; seed++)
        {
            final FlowOutcome shortPath = CubicScenarios.shortLossyPath(RENO, seed).flow(0);
            final FlowOutcome longPath = CubicScenarios.longLossyPath(RENO, seed).flow(0);
            System.out.printf("reno item 3 (seed %d): 1 %% loss %.3f Mbit/s, 8 %% loss %.3f Mbit/s%n",
                seed, shortPath.goodputBitsPerSecond() / 1e6, longPath.goodputBitsPerSecond() / 1e6);
        }

        final SlowStartEnd end = SlowStartEnd.of(RENO, ControllerParameters.EMPTY, traces.resolve("4"));
        System.out.printf("reno item 4: slow start ended by %s at %.3f s with cwnd %.2f BDP; it lost %d packets%n",
            end.endedBy(), end.endNs() / 1e9, end.cwndAtEndBdp(), end.droppedPackets());

        final ScenarioResult deepBuffer = CubicScenarios.deepBuffer(
            RENO, ControllerParameters.EMPTY, 30 * SECOND_NS, traces.resolve("5"));
        System.out.printf("reno item 5: utilisation %.2f %%, flow RTT p95 %.1f ms, ping RTT p95 %.1f ms, %d packets " +
            "lost%n", 100 * deepBuffer.forward().utilisation(), deepBuffer.flow(0).rtt().p95Ns() / 1e6,
            deepBuffer.ping().p95Ns() / 1e6, deepBuffer.flow(0).lostPackets());

        reportFairness("reno item 6", RENO, ControllerParameters.EMPTY);
        reportFairness("cubic item 6, fast convergence off", "cubic",
            CubicScenarios.parameters(CubicParameters.FAST_CONVERGENCE, "false"));

        System.out.println("reno item 7: " + AppLimitedWindow.of(RENO, traces.resolve("7")));
    }

    private static void reportFairness(
        final String label, final String controller, final ControllerParameters parameters)
    {
        final ScenarioResult result = CubicScenarios.fairness(controller, parameters);
        final long halfShareNs = CubicScenarios.latecomerHalfShareNs(result);
        System.out.printf("%s: Jain over the last 60 s %.4f, latecomer at half its fair share %s%n", label,
            CubicScenarios.lastMinuteJainIndex(result),
            halfShareNs < 0 ? "never" : "after " + halfShareNs / SECOND_NS + " s");
    }
}
