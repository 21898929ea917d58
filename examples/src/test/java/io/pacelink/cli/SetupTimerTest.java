package io.pacelink.cli;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.RunWatcher;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run's set-up told from its events: the scenario tells its watcher once, before the first event, and the timer
 * keeps that moment.
 */
class SetupTimerTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);

    private static Scenario scenario()
    {
        return Scenario.builder()
            .seed(1)
            .path(PathSpec.Pair.parse("rate=100mbit delay=5ms queue=100p", "delay=5ms"))
            .durationNs(2 * SECOND_NS)
            .flow(FlowSpec.bulk("reno"))
            .build();
    }

    @Test
    void aWatcherIsToldOnceThatTheSetUpIsDoneBeforeTheFirstEvent()
    {
        final List<String> calls = new ArrayList<>();
        scenario().run(new RunWatcher()
        {
            public boolean keepRunning(final long nowNs, final long eventsFired)
            {
                calls.add("look");
                return true;
            }

            public void beforeFirstEvent()
            {
                calls.add("first event");
            }
        });

        assertEquals("first event", calls.get(0));
        assertEquals(1, Collections.frequency(calls, "first event"));
        assertTrue(calls.size() > 1, "the run was looked at after it (every 16,384 events): " + calls.size());
    }

    @Test
    void theSetUpIsPartOfTheRunsWallTime()
    {
        final SetupTimer timer = new SetupTimer();
        assertEquals(0, timer.setupWallNs(), "none before the first event");
        scenario().run(timer);
        final long setupNs = timer.setupWallNs();
        assertTrue(setupNs > 0 && setupNs < timer.elapsedWallNs(), setupNs + " of " + timer.elapsedWallNs() + " ns");
    }
}
