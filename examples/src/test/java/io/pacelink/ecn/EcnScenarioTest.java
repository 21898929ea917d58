package io.pacelink.ecn;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.scenario.EcnOutcome;
import io.pacelink.sim.scenario.FlowOutcome;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ECN end to end in the simulator, through the real endpoints (fixed seeds): hosts whose ports carry the ECN field,
 * a queue that marks, ECN validation at the sender, the receiver's counts in its ACK frames, and the controllers'
 * answer; and paths that bleach or remark the field, where validation turns ECN off and the transfer goes on.
 */
class EcnScenarioTest
{
    private static final long SECOND = 1_000_000_000L;
    private static final String PATH = "rate=10mbit delay=5ms queue=100p qdisc=fq_codel";

    @Test
    void renoAndCubicAnswerFqCodelsMarksWithoutLosingOrRetransmitting()
    {
        final ScenarioResult result = run(PATH, true, "reno", "cubic");

        long ceReceived = 0;
        for (final FlowOutcome flow : result.flows())
        {
            final EcnOutcome ecn = flow.ecn();
            assertTrue(ecn.isCapable(), flow.congestionControl() + ": " + ecn);
            assertTrue(ecn.ceReported() > 0, flow.congestionControl() + ": " + ecn);
            // CoDel marks sparsely (one mark, then the next after interval / sqrt(count), 100 ms at first): most
            // marks fall in different round trips here, so each may draw its own reduction, never more than one.
            assertTrue(ecn.ceReactions() > 0 && ecn.ceReactions() <= ecn.ceReported(),
                flow.congestionControl() + ": " + ecn);
            // The sender believes exactly what the receiver counted (no reordering here).
            assertEquals(ecn.ceReceived(), ecn.ceReported(), flow.congestionControl() + ": " + ecn);
            assertEquals(0, flow.lostPackets(), flow.congestionControl() + " lost");
            assertEquals(0, flow.retransmittedPackets(), flow.congestionControl() + " retransmitted");
            ceReceived += ecn.ceReceived();
        }
        assertEquals(0, result.forward().queueDropPackets(), "marks replace drops");
        // Every packet the queue marked arrived, and was counted once, at one of the receivers.
        assertEquals(result.forward().queueMarkPackets(), ceReceived);
        assertTrue(result.forward().utilisation() > 0.9, "utilisation " + result.forward().utilisation());
    }

    @Test
    void stepMarkingMarksManyPacketsARoundTripAndDrawsOneReductionPerRoundTrip()
    {
        // ce_threshold marks every ECN-capable packet that waited longer than 1 ms (Linux's step marking, RFC 9332
        // section 4.2): whole runs of a round trip's packets are marked, and RFC 9002 section 7.1 lets each round trip
        // reduce once (a CE report about a packet sent before the current recovery period began is already answered).
        // One flow a run: its ten test packets meet an empty queue. A flow joining a queue that already stands above
        // the threshold sees all ten marked and falls back to not-ECT (EcnValidation.ALL_CE; docs/ecn.md).
        for (final String controller : new String[]{"reno", "cubic"})
        {
            final ScenarioResult result = run(PATH + " ce_threshold=1ms", true, controller);
            final FlowOutcome flow = result.flows().get(0);
            final EcnOutcome ecn = flow.ecn();
            assertTrue(ecn.isCapable(), flow.congestionControl() + ": " + ecn);
            assertTrue(ecn.ceReactions() > 0, flow.congestionControl() + ": " + ecn);
            assertTrue(2 * ecn.ceReactions() < ecn.ceReported(), flow.congestionControl() + ": " + ecn);
            assertEquals(0, flow.retransmittedPackets(), flow.congestionControl() + " retransmitted");
            assertEquals(0, result.forward().queueDropPackets(), "marks replace drops");
        }
    }

    @Test
    void withoutEcnTheSameQueueDropsAndTheSendersRetransmit()
    {
        final ScenarioResult result = run(PATH, false, "reno", "cubic");

        assertEquals(0, result.forward().queueMarkPackets());
        assertTrue(result.forward().queueDropPackets() > 0);
        for (final FlowOutcome flow : result.flows())
        {
            assertEquals("DISABLED", flow.ecn().state());
            assertEquals(0, flow.ecn().markedSent());
            assertTrue(flow.retransmittedPackets() > 0, flow.congestionControl());
        }
    }

    @Test
    void aBleachingPathDisablesEcnAndTheTransferGoesOn()
    {
        assertValidationFailsAndFlowKeepsTheLink("ecn_rewrite=not-ect", "BLEACHED");
    }

    @Test
    void aPathThatRemarksToEct1DisablesEcnAndTheTransferGoesOn()
    {
        assertValidationFailsAndFlowKeepsTheLink("ecn_rewrite=ect1", "REMARKED");
    }

    @Test
    void aPathThatMarksEveryPacketCeDisablesEcnAndTheTransferGoesOn()
    {
        assertValidationFailsAndFlowKeepsTheLink("ecn_rewrite=ce", "ALL_CE");
    }

    private static void assertValidationFailsAndFlowKeepsTheLink(final String middlebox, final String failure)
    {
        final ScenarioResult result = run(PATH + " " + middlebox, true, "cubic");

        final FlowOutcome flow = result.flows().get(0);
        assertEquals("FAILED", flow.ecn().state(), flow.ecn().toString());
        assertEquals(failure, flow.ecn().failure(), flow.ecn().toString());
        // Until the test's packets are all answered a CE report is a congestion signal like any other (RFC 9002
        // Appendix B.7): at most the one reduction drawn before validation failed, none after it.
        assertTrue(flow.ecn().ceReactions() <= 1, "marks of a failed path start nothing: " + flow.ecn());
        // Only the test's packets went out marked; the flow then carries on not-ECT, losing to the queue as without
        // ECN, and keeps the link busy.
        assertTrue(flow.ecn().markedSent() <= 10, flow.ecn().toString());
        assertTrue(result.forward().queueDropPackets() > 0);
        assertTrue(result.forward().utilisation() > 0.9, "utilisation " + result.forward().utilisation());
        assertTrue(flow.deliveredBytes() > 0.85 * 10e6 / 8 * 8, "delivered " + flow.deliveredBytes());
    }

    private static ScenarioResult run(final String forward, final boolean ecn, final String... controllers)
    {
        final Scenario.Builder builder = Scenario.builder()
            .seed(1)
            .path(PathSpec.Pair.parse(forward, "delay=5ms"))
            .durationNs(8 * SECOND)
            .ecn(ecn);
        for (final String controller : controllers)
        {
            builder.flow(FlowSpec.bulk(controller));
        }
        return builder.build().run();
    }
}
