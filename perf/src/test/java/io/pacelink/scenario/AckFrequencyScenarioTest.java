package io.pacelink.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.scenario.AckRuns.Run;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import io.pacelink.transport.PacelinkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Locale;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ACK frequency negotiated per path (draft-ietf-quic-ack-frequency; docs/architecture.md, "ACK policy"), in the
 * simulator: the same seed with the extension on at both ends (the default) and off at both ends, compared by ACK
 * datagrams per data packet, goodput, losses declared against packets the path dropped, and for BBR its bandwidth
 * estimate. On a path whose quarter RTT is above the 1 ms max ACK delay, the sender asks for one ACK per 10 packets
 * or per quarter RTT and gets far fewer ACKs; where the quarter RTT is below it (a LAN), nothing is asked and little
 * changes; with an endpoint of an earlier build at either end, nothing is asked.
 */
@Timeout(180)
class AckFrequencyScenarioTest
{
    private static final long SECOND = 1_000_000_000L;
    private static final long DURATION_NS = 5 * SECOND;
    private static final long MODEL_FROM_NS = 2 * SECOND;

    @ParameterizedTest
    @CsvSource({
        "bbr,   1, rate=50mbit delay=20ms queue=1bdp",
        "cubic, 1, rate=50mbit delay=20ms queue=1bdp",
        "bbr,   2, rate=100mbit delay=20ms loss=1% queue=1bdp",
        "cubic, 2, rate=100mbit delay=20ms loss=0.5% queue=1bdp" })
    void aLongerPathGetsFewerAcksWithTheSameGoodputLossDetectionAndModel(
        final String controller, final long seed, final String path)
    {
        final Run negotiated = run(controller, seed, path, (context) -> context.ackFrequency(true));
        final Run off = run(controller, seed, path, (context) -> context.ackFrequency(false));
        final String figures = figures(controller, seed, path, negotiated, off);
        System.out.println("ACK-FREQUENCY " + figures);

        assertTrue(negotiated.acksPerPacket() < 0.6 * off.acksPerPacket(), "far fewer ACKs: " + figures);
        assertTrue(negotiated.acksPerPacket() >= 0.09, "at least one ACK per 10 packets and a bit: " + figures);
        assertTrue(negotiated.goodputBitsPerSecond() >= 0.95 * off.goodputBitsPerSecond(), "goodput: " + figures);
        assertTrue(negotiated.missedLosses() <= off.missedLosses() + 10,
            "every packet the path dropped declared lost: " + figures);
        assertTrue(negotiated.spuriousLosses() <= off.spuriousLosses() + 0.01 * negotiated.droppedPackets() + 3,
            "no more spurious losses: " + figures);
        if (controller.startsWith("bbr"))
        {
            final double bandwidthRatio = negotiated.meanBandwidthBytesPerSecond() / off.meanBandwidthBytesPerSecond();
            assertTrue(Math.abs(bandwidthRatio - 1) < 0.05, "the bandwidth estimate within 5 %: " + figures);
        }
    }

    @ParameterizedTest
    @CsvSource({
        "bbr,   3, rate=100mbit delay=1ms queue=1bdp",
        "cubic, 3, rate=100mbit delay=1ms queue=1bdp" })
    void aPathWhoseQuarterRttIsBelowTheMaxAckDelayIsNotAskedForFewerAcks(
        final String controller, final long seed, final String path)
    {
        // RTT 2 ms: a quarter is 0.5 ms, below the peer's 1 ms max ACK delay, so no ACK_FREQUENCY frame goes.
        final Run negotiated = run(controller, seed, path, (context) -> context.ackFrequency(true));
        final Run off = run(controller, seed, path, (context) -> context.ackFrequency(false));
        final String figures = figures(controller, seed, path, negotiated, off);
        System.out.println("ACK-FREQUENCY " + figures);

        assertTrue(Math.abs(negotiated.acksPerPacket() / off.acksPerPacket() - 1) < 0.05, "as many ACKs: " + figures);
        assertTrue(Math.abs(negotiated.goodputBitsPerSecond() / off.goodputBitsPerSecond() - 1) < 0.02,
            "the same goodput: " + figures);
    }

    @Test
    void anEndpointOfAnEarlierBuildAtEitherEndKeepsTodaysAcks()
    {
        final String path = "rate=50mbit delay=20ms queue=1bdp";
        // The server (the receiver) does not offer the extension: the client's hello carries its MIN_ACK_DELAY frame
        // in padding it sends anyway, the server skips it and announces nothing, so nothing changes on the wire.
        final ScenarioResult bothOff = scenario("cubic", 4, path, (context) -> context.ackFrequency(false)).run();
        final ScenarioResult oldServer = scenario("cubic", 4, path,
            (context) -> context.ackFrequency(!context.acceptConnections())).run();
        assertEquals(bothOff.traceHash(), oldServer.traceHash(), "an old receiver: the same run");
        assertEquals(bothOff.flow(0).deliveredBytes(), oldServer.flow(0).deliveredBytes());

        // The client (the sender) does not: the server announces its min ACK delay, the client never asks.
        final Run oldClient =
            run("cubic", 4, path, (context) -> context.ackFrequency(context.acceptConnections()));
        final Run off = run("cubic", 4, path, (context) -> context.ackFrequency(false));
        final String figures = figures("cubic", 4, path, oldClient, off);
        assertTrue(Math.abs(oldClient.acksPerPacket() / off.acksPerPacket() - 1) < 0.02, "as many ACKs: " + figures);
    }

    @Test
    void theExtensionIsOnByDefault()
    {
        final String path = "rate=50mbit delay=20ms queue=1bdp";
        final ScenarioResult byDefault = scenario("cubic", 5, path, (context) -> { }).run();
        final ScenarioResult on = scenario("cubic", 5, path, (context) -> context.ackFrequency(true)).run();
        final ScenarioResult off = scenario("cubic", 5, path, (context) -> context.ackFrequency(false)).run();
        assertEquals(on.traceHash(), byDefault.traceHash(), "default contexts negotiate it");
        assertNotEquals(off.traceHash(), byDefault.traceHash(), "and it changes the run");
    }

    private static String figures(
        final String controller, final long seed, final String path, final Run negotiated, final Run off)
    {
        return String.format(Locale.ROOT, "%s seed %d %s%n  negotiated: %s%n  off:        %s",
            controller, seed, path, negotiated, off);
    }

    private static Scenario scenario(
        final String controller, final long seed, final String path, final Consumer<PacelinkContext> customizer)
    {
        return Scenario.builder()
            .seed(seed)
            .path(PathSpec.Pair.parse(path))
            .durationNs(DURATION_NS)
            .flow(FlowSpec.bulk(controller))
            .contextCustomizer(customizer)
            .build();
    }

    private static Run run(
        final String controller, final long seed, final String path, final Consumer<PacelinkContext> customizer)
    {
        return AckRuns.run(controller, seed, path, DURATION_NS, MODEL_FROM_NS, customizer);
    }
}
