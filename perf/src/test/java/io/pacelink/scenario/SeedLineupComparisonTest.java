package io.pacelink.scenario;

import io.pacelink.link.PathSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.pacelink.scenario.BbrScenarios.LOSSY_LONG_PATH;
import static io.pacelink.scenario.BbrScenarios.LOSSY_LONG_REVERSE;
import static io.pacelink.scenario.BbrScenarios.SECOND;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 18: the measurement this project was started from, reproduced in the simulator. Six controllers download
 * 100 MB (10⁸ bytes) each over the lossy long path (100 Mbit/s, 150 ± 15 ms RTT, 8 % random loss, a one-BDP queue),
 * seeds 1 to 5. It prints each download's time and mean goodput and the goodput over each tenth of the download
 * (where the seed saw BBRplus fall, at 50 to 60 %); docs/bbr.md tabulates the figures. The goodput-over-time chart
 * beside them comes from the report's {@code lineup} suite, the same path and controllers. About two minutes of
 * simulation on a shared two-core machine, so it runs only on request:
 * {@code mvn -B -pl perf -am test -Dtest=SeedLineupComparisonTest -Dpacelink.lineup=true
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "pacelink.lineup", matches = "true")
@Timeout(1800)
class SeedLineupComparisonTest
{
    private static final List<String> CONTROLLERS = List.of("bbr", "bbrplus", "bbr2", "bbr3", "cubic", "reno");
    private static final long SIZE_BYTES = 100_000_000L;
    private static final int SEEDS = 5;
    private static final long MAX_DURATION_NS = 7_200 * SECOND;
    private static final int SLICES = 10;

    @Test
    void downloadHundredMegabytesWithEachController()
    {
        final PathSpec.Pair path = PathSpec.Pair.parse(LOSSY_LONG_PATH, LOSSY_LONG_REVERSE);
        final Map<String, List<LineupTransfer>> transfers = new LinkedHashMap<>();
        for (final String controller : CONTROLLERS)
        {
            final List<LineupTransfer> runs = new ArrayList<>();
            for (long seed = 1; seed <= SEEDS; seed++)
            {
                final LineupTransfer transfer = LineupTransfer.run(controller, seed, path, SIZE_BYTES, MAX_DURATION_NS);
                System.out.println("LINEUP " + transfer + slices(transfer) + "; long-term (policer) mode engaged " +
                    transfer.controllerCounter("lt-bw-engagements") + " times");
                runs.add(transfer);
            }
            transfers.put(controller, runs);
        }

        System.out.println("LINEUP controller | seconds to 100 MB, seeds 1-5 | mean goodput Mbit/s, median (min-max)");
        for (final Map.Entry<String, List<LineupTransfer>> entry : transfers.entrySet())
        {
            final double[] goodputs = entry.getValue().stream()
                .mapToDouble((t) -> t.meanGoodputBitsPerSecond() / 1e6).sorted().toArray();
            final StringBuilder seconds = new StringBuilder();
            for (final LineupTransfer transfer : entry.getValue())
            {
                seconds.append(String.format(Locale.ROOT, " %.1f", transfer.completionSeconds()));
            }
            System.out.printf(Locale.ROOT, "LINEUP %s |%s | %.3f (%.3f-%.3f)%n", entry.getKey(), seconds,
                goodputs[goodputs.length / 2], goodputs[0], goodputs[goodputs.length - 1]);
        }

        for (final List<LineupTransfer> runs : transfers.values())
        {
            runs.forEach((t) -> assertTrue(t.isComplete(), t + " did not complete"));
        }
    }

    private static String slices(final LineupTransfer transfer)
    {
        final double[] slices = new double[SLICES];
        for (int i = 0; i < SLICES; i++)
        {
            slices[i] = transfer.sliceGoodputBitsPerSecond(i / (double)SLICES, (i + 1) / (double)SLICES) / 1e6;
        }
        return "; Mbit/s per tenth " + Arrays.toString(Arrays.stream(slices)
            .mapToObj((v) -> String.format(Locale.ROOT, "%.2f", v)).toArray());
    }
}
