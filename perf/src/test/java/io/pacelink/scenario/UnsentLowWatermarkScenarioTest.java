package io.pacelink.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.scenario.AppPattern;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.PacelinkContext;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The unsent low watermark ({@link PacelinkContext#unsentLowWatermarkBytes(int)}) in the simulator: one bulk flow,
 * the same seed with the mark off (its default, above the send buffer) and at 1 MiB or at its minimum. The simulated
 * application offers at every duty cycle of its host, as fast as the connection accepts. With the mark off its bytes
 * wait in the whole send buffer (16 MiB and more on these paths, {@code FlowBuffers}); with the mark, at most a mark
 * and a message beyond what is in flight, and the flow sends exactly the same packets at the same times: the pacer
 * never runs out of unsent bytes, so the connection is no more often application-limited and no rate sample is
 * marked differently (the trace hash covers every sample of cwnd, pacing rate, delivery rate and RTT).
 * <p>
 * The waiting bytes are read from the sender's statistics as stream bytes offered and not yet acknowledged; once a
 * packet is lost that also counts the bytes acknowledged above the hole, so the bound on them is checked up to the
 * first loss (slow start, when the window grows fastest and the mark is most likely to hold the pacer back) and
 * the whole run is compared on the wire.
 */
@Timeout(180)
class UnsentLowWatermarkScenarioTest
{
    private static final long MS = 1_000_000L;
    private static final long DURATION_NS = 2_000 * MS;
    private static final int MESSAGE_RECORD_BYTES = AppPattern.DEFAULT_MESSAGE_BYTES + Integer.BYTES;
    private static final int OFF = PacelinkContext.DEFAULT_UNSENT_LOW_WATERMARK_BYTES;
    private static final int ONE_MEBIBYTE = 1 << 20;

    /**
     * @return controller, seed and path of the bulk flows both the one-mebibyte mark and the simulator's own are
     * tried on: two controllers on a clean 1 Gbit/s path, two on a lossy 500 Mbit/s one.
     */
    static Stream<Arguments> bulkPaths()
    {
        return Stream.of(
            Arguments.of("cubic", 1L, "rate=1gbit delay=5ms queue=1bdp"),
            Arguments.of("bbr", 1L, "rate=1gbit delay=5ms queue=1bdp"),
            Arguments.of("reno", 2L, "rate=500mbit delay=20ms loss=0.1% queue=1bdp"),
            Arguments.of("bbr3", 2L, "rate=500mbit delay=20ms loss=0.1% queue=1bdp"));
    }

    @ParameterizedTest
    @MethodSource("bulkPaths")
    void aOneMebibyteMarkBoundsTheWaitingBytesAndChangesNothingOnTheWire(
        final String controller, final long seed, final String path)
    {
        assertBoundedAndUnchanged(controller, seed, path, ONE_MEBIBYTE);
    }

    @ParameterizedTest
    @CsvSource({
        "cubic, 1, rate=100mbit delay=5ms queue=1bdp",
        "bbr,   1, rate=100mbit delay=5ms queue=1bdp",
        "cubic, 1, rate=1gbit delay=5ms queue=1bdp" })
    void theSmallestMarkStillKeepsTheFlowBusy(final String controller, final long seed, final String path)
    {
        // 16 KiB is one simulated message and its prefix, eleven full packets: the simulated application is back at
        // the host's next duty cycle, and no cycle sends that much here, so the pacer still never runs dry.
        assertBoundedAndUnchanged(controller, seed, path, PacelinkContext.MIN_UNSENT_LOW_WATERMARK_BYTES);
    }

    @ParameterizedTest
    @MethodSource("bulkPaths")
    void aSimulatedBulkSenderIsHeldToTwoDutyCyclesOfSendsAndSendsTheSamePackets(
        final String controller, final long seed, final String path)
    {
        // The simulator's own mark, when no customizer sets one: what two duty cycles send at most (the answer
        // service's and the send phase's batch limit of datagrams each). Its application counts, for the endpoint's
        // second pass after it, what it would have offered into the whole buffer, so nothing on the wire changes.
        final PacelinkContext defaults = new PacelinkContext();
        final int markBytes = 2 * defaults.sendBatchLimit() * defaults.maxDatagramSizeBytes();
        final Run off = run(controller, seed, path, FlowSpec.bulk(controller),
            (context) -> context.unsentLowWatermarkBytes(OFF));
        final Run held = run(controller, seed, path, FlowSpec.bulk(controller), (context) -> { });
        final String figures = figures(controller, seed, path, "off", off) + " | " +
            figures(controller, seed, path, "the simulator's", held);
        System.out.println("UNSENT-LOWAT " + figures);

        assertTrue(off.mostWaitingBeforeLossBytes > off.mostInFlightBeforeLossBytes + 4L * markBytes, figures);
        assertTrue(held.mostWaitingBeforeLossBytes <=
            held.mostInFlightBeforeLossBytes + markBytes + MESSAGE_RECORD_BYTES, figures);
        assertEquals(off.traceHash, held.traceHash, "the same packets at the same times: " + figures);
        assertEquals(off.appLimited, held.appLimited, figures);
        assertEquals(off.deliveredBytes, held.deliveredBytes, figures);
        assertEquals(off.lostPackets, held.lostPackets, figures);
    }

    @ParameterizedTest
    @CsvSource({ "cubic, 1, rate=1gbit delay=5ms queue=1bdp" })
    void aSenderThatStopsBeforeTheEndKeepsItsWholeBuffer(final String controller, final long seed, final String path)
    {
        // It stops offering at 1.5 s and its connection sends what waits until the run ends: the whole buffer, as
        // without the simulator's mark.
        final FlowSpec stopping = FlowSpec.bulk(controller).during(0, DURATION_NS * 3 / 4);
        final Run off = run(controller, seed, path, stopping, (context) -> context.unsentLowWatermarkBytes(OFF));
        final Run unset = run(controller, seed, path, stopping, (context) -> { });
        final String figures = figures(controller, seed, path, "off", off) + " | " +
            figures(controller, seed, path, "unset", unset);

        assertTrue(unset.mostWaitingBeforeLossBytes > unset.mostInFlightBeforeLossBytes + (4 << 20), figures);
        assertEquals(off.mostWaitingBytes, unset.mostWaitingBytes, figures);
        assertEquals(off.traceHash, unset.traceHash, figures);
    }

    private static void assertBoundedAndUnchanged(
        final String controller, final long seed, final String path, final int markBytes)
    {
        final Run off = run(controller, seed, path, (context) -> context.unsentLowWatermarkBytes(OFF));
        final Run marked = run(controller, seed, path, (context) -> context.unsentLowWatermarkBytes(markBytes));
        final String figures = figures(controller, seed, path, "off", off) + " | " +
            figures(controller, seed, path, Integer.toString(markBytes), marked);
        System.out.println("UNSENT-LOWAT " + figures);

        assertTrue(off.mostWaitingBeforeLossBytes > off.mostInFlightBeforeLossBytes + 4L * markBytes,
            "without the mark the application fills the send buffer far beyond what is in flight: " + figures);
        assertTrue(marked.mostWaitingBeforeLossBytes <=
            marked.mostInFlightBeforeLossBytes + markBytes + MESSAGE_RECORD_BYTES,
            "with it, no more than in flight, the mark and one message: " + figures);
        assertTrue(marked.mostWaitingBytes < off.mostWaitingBytes, figures);
        assertEquals(off.traceHash, marked.traceHash, "the same packets at the same times: " + figures);
        assertEquals(off.appLimited, marked.appLimited, "never application-limited because of the mark: " + figures);
        assertEquals(off.deliveredBytes, marked.deliveredBytes, figures);
        assertEquals(off.lostPackets, marked.lostPackets, figures);
    }

    private static Run run(
        final String controller, final long seed, final String path, final Consumer<PacelinkContext> customizer)
    {
        return run(controller, seed, path, FlowSpec.bulk(controller), customizer);
    }

    private static Run run(
        final String controller,
        final long seed,
        final String path,
        final FlowSpec flow,
        final Consumer<PacelinkContext> customizer)
    {
        final Run run = new Run();
        final ScenarioResult result = Scenario.builder()
            .seed(seed)
            .path(PathSpec.Pair.parse(path))
            .durationNs(DURATION_NS)
            .flow(flow)
            .contextCustomizer(customizer)
            .progress(MS, (flowIndex, nowNs, deliveredBytes, stats) -> run.sample(stats))
            .build()
            .run();
        run.traceHash = result.traceHash();
        run.deliveredBytes = result.flow(0).deliveredBytes();
        run.lostPackets = result.flow(0).lostPackets();
        return run;
    }

    private static String figures(
        final String controller, final long seed, final String path, final String label, final Run run)
    {
        return String.format(Locale.ROOT,
            "%s seed %d %s mark %s: most waiting %d B (before the first loss %d B, in flight then %d B); " +
            "app-limited %d; delivered %d B; lost %d packets; trace %016x",
            controller, seed, path, label, run.mostWaitingBytes, run.mostWaitingBeforeLossBytes,
            run.mostInFlightBeforeLossBytes, run.appLimited, run.deliveredBytes, run.lostPackets, run.traceHash);
    }

    /**
     * One run's figures, sampled every millisecond of simulated time.
     */
    private static final class Run
    {
        long mostWaitingBytes;
        long mostWaitingBeforeLossBytes;
        long mostInFlightBeforeLossBytes;
        long appLimited;
        long deliveredBytes;
        long lostPackets;
        long traceHash;

        void sample(final ConnectionStats stats)
        {
            if (null == stats)
            {
                return;
            }
            // Stream bytes offered and not yet acknowledged: in flight, unsent, and once a packet is lost, lost or
            // acknowledged above the hole.
            final long offered = stats.applicationBytesOffered() + (long)Integer.BYTES * stats.messagesOffered();
            final long waitingBytes = offered - stats.streamBytesAcked();
            mostWaitingBytes = Math.max(mostWaitingBytes, waitingBytes);
            if (0 == stats.packetsLost())
            {
                mostWaitingBeforeLossBytes = Math.max(mostWaitingBeforeLossBytes, waitingBytes);
                mostInFlightBeforeLossBytes = Math.max(mostInFlightBeforeLossBytes, stats.bytesInFlight());
            }
            appLimited = stats.appLimited();
        }
    }
}
