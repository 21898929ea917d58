package io.pacelink.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RunMatrixTest
{
    @Test
    void crossedScenariosRunPerControllerAndSeedFixedOnesOncePerSeed()
    {
        final Suite quick = SuiteLoader.load("quick");

        final RunMatrix matrix = RunMatrix.of(quick, List.of("bbr", "cubic"), 2);

        // Three crossed scenarios x 2 controllers x 2 seeds, and bbr-vs-cubic x 2 seeds.
        assertEquals(14, matrix.runs().size());
        assertEquals(List.of(), matrix.skipped());
        final RunSpec first = matrix.runs().get(0);
        assertEquals("lossy-long-path bbr seed 1", first.describe());
        assertEquals(List.of("bbr"), first.flowControllers());
        final RunSpec fairQueue = matrix.runs().get(8);
        assertEquals("fair-queue-with-ping bbr seed 1", fairQueue.describe());
        assertEquals(List.of("bbr", "bbr", "bbr", "bbr"), fairQueue.flowControllers());
        final RunSpec mixed = matrix.runs().get(12);
        assertEquals("bbr-vs-cubic bbr vs cubic seed 1", mixed.describe());
        assertEquals(List.of("bbr", "cubic"), mixed.flowControllers());
        for (int i = 0; i < matrix.runs().size(); i++)
        {
            assertEquals(i, matrix.runs().get(i).index());
        }
    }

    @Test
    void scenariosWhoseControllersAreNotSelectedAreSkippedAndSaySo()
    {
        final RunMatrix matrix = RunMatrix.of(SuiteLoader.load("quick"), List.of("reno"), 1);

        assertEquals(3, matrix.runs().size());
        assertEquals(List.of("bbr-vs-cubic: its flows use [bbr, cubic], not all of which are among [reno]"),
            matrix.skipped());
    }
}
