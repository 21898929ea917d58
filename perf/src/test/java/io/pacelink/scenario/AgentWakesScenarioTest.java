package io.pacelink.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.scenario.AgentWakes;
import io.pacelink.sim.scenario.AppPattern;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulator's two models of when an endpoint's duty cycle runs ({@link AgentWakes}): the same transfer, far fewer
 * events with the real agent's coalesced wakes, each model deterministic, and the default the exact one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AgentWakesScenarioTest
{
    private static final long MS = 1_000_000L;

    private static Scenario.Builder bulk(final String path)
    {
        return Scenario.builder()
            .seed(3)
            .path(PathSpec.Pair.parse(path, "delay=5ms"))
            .durationNs(TimeUnit.SECONDS.toNanos(3))
            .flow(FlowSpec.bulk("cubic"));
    }

    @Test
    void coalescedWakesMoveTheSameBulkTransferWithFarFewerEvents()
    {
        final String path = "rate=500mbit delay=5ms queue=1bdp";
        final ScenarioResult byDefault = bulk(path).build().run();
        final ScenarioResult exact = bulk(path).agentWakes(AgentWakes.EXACT).build().run();
        final ScenarioResult coalesced = bulk(path).agentWakes(AgentWakes.COALESCED).build().run();
        final ScenarioResult coalescedAgain = bulk(path).agentWakes(AgentWakes.COALESCED).build().run();

        assertEquals(exact.traceHash(), byDefault.traceHash(), "exact is the default");
        assertEquals(coalesced.traceHash(), coalescedAgain.traceHash(), "deterministic");
        assertEquals(coalesced.eventsFired(), coalescedAgain.eventsFired());
        assertNotEquals(exact.traceHash(), coalesced.traceHash());

        // At 500 Mbit/s the exact model runs the sender once per paced packet and the receiver once per arrival;
        // coalesced, the sender releases a quantum's packets per wake and the receiver reads about eight per wake,
        // so what is left is mostly the links' one event per delivery.
        final double exactPerPacket = exact.eventsFired() / (double)exact.flow(0).packetsSent();
        final double coalescedPerPacket = coalesced.eventsFired() / (double)coalesced.flow(0).packetsSent();
        assertTrue(exactPerPacket > 2.5, "exact: " + exactPerPacket + " events per data packet");
        assertTrue(coalescedPerPacket < 1.5, "coalesced: " + coalescedPerPacket + " events per data packet");

        final double exactGoodput = exact.flow(0).goodputBitsPerSecond();
        final double coalescedGoodput = coalesced.flow(0).goodputBitsPerSecond();
        assertEquals(exactGoodput, coalescedGoodput, exactGoodput * 0.02, "the same transfer within 2 %");
        assertTrue(coalesced.forward().utilisation() > 0.95, "utilisation " + coalesced.forward().utilisation());
        // The path's 10 ms round trip is a floor in both, and coalesced wakes add at most two interrupt delays and
        // a hold of arrivals (each held ACK is timed from when it arrived) to the shortest sample.
        final long coalescedMinRttNs = coalesced.flow(0).rtt().minNs();
        assertTrue(exact.flow(0).rtt().minNs() >= 10 * MS, "min RTT " + exact.flow(0).rtt().minNs());
        assertTrue(coalescedMinRttNs >= 10 * MS && coalescedMinRttNs < 11 * MS, "min RTT " + coalescedMinRttNs);
    }

    /**
     * The real agent's pacer releases ahead of its schedule ({@code Scenario.Builder.releaseAhead}): at BBR's
     * PROBE_RTT its four packets leave together, their one ACK empties the flight, and the next four restart the
     * rate sample's clock at their send, the processing time of that ACK, which coalesced wakes read 50 µs after it
     * arrived. Against a floor of min_rtt, on the processing time, every such sample was too short: BBR counted no
     * round and stayed in PROBE_RTT from its tenth second on (seed 2: 647.6 Mbit/s over 15 s, PROBE_RTT at the
     * end). The floor on the samples' own clock lets it leave after its 200 ms, as with the exact model.
     */
    @Test
    void bbrLeavesProbeRttAt1GbitWithThePacerReleasingAheadUnderCoalescedWakes()
    {
        final ScenarioResult result = Scenario.builder()
            .seed(2)
            .path(PathSpec.Pair.parse("rate=1gbit delay=5ms queue=1bdp", "rate=1gbit delay=5ms queue=1bdp"))
            .durationNs(TimeUnit.SECONDS.toNanos(11))
            .flow(FlowSpec.bulk("bbr"))
            .agentWakes(AgentWakes.COALESCED)
            .releaseAhead(true)
            .build()
            .run();
        final Long probeBwState = 2L;
        assertEquals(probeBwState, result.flow(0).controllerCounters().get("bbr-state"),
            "PROBE_RTT, entered at about 10.1 s, lasts 200 ms and a round; then PROBE_BW again");
        assertTrue(result.forward().utilisation() > 0.95, "utilisation " + result.forward().utilisation());
    }

    @Test
    void coalescedWakesLeaveARequestResponseExchangeItsTimesWithinTheInterruptDelays()
    {
        // A request every 10 ms answered at once: no stream to hold, and no pacing backlog, so each request and each
        // response waits only for the receiving card's interrupt delay, once at each end.
        final Scenario.Builder builder = Scenario.builder()
            .seed(1)
            .path(PathSpec.Pair.parse("rate=100mbit delay=10ms", "delay=10ms"))
            .durationNs(TimeUnit.SECONDS.toNanos(2))
            .flow(FlowSpec.bulk("cubic").with(AppPattern.requestResponse(200, 200, 10 * MS)));
        final ScenarioResult exact = builder.agentWakes(AgentWakes.EXACT).build().run();
        final ScenarioResult coalesced = builder.agentWakes(AgentWakes.COALESCED).build().run();

        final long exactP50Ns = exact.flow(0).responseTime().p50Ns();
        final long coalescedP50Ns = coalesced.flow(0).responseTime().p50Ns();
        assertTrue(exactP50Ns >= 20 * MS, "exact p50 " + exactP50Ns);
        assertTrue(coalescedP50Ns >= exactP50Ns + 2 * AgentWakes.INTERRUPT_DELAY_NS - 100_000,
            "coalesced p50 " + coalescedP50Ns + " against exact " + exactP50Ns);
        assertTrue(coalescedP50Ns <= exactP50Ns + 2 * AgentWakes.INTERRUPT_DELAY_NS + 100_000,
            "coalesced p50 " + coalescedP50Ns + " against exact " + exactP50Ns);
        assertEquals(exact.flow(0).responseTime().count(), coalesced.flow(0).responseTime().count(), 2);
    }
}
