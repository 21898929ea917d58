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
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Locale;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The unsent low watermark ({@link PacelinkContext#unsentLowWatermarkBytes(int)}) in the simulator: one bulk flow,
 * the same seed with the mark off (above the send buffer), at its default and at its minimum. The simulated
 * application offers at every duty cycle of its host, as fast as the connection accepts. With the mark off its bytes
 * wait in the whole send buffer (16 MiB here, {@code FlowBuffers}); with the mark they wait at most a mark and a
 * message beyond what is in flight and lost, and the flow sends exactly the same packets at the same times: the
 * pacer never runs out of unsent bytes, so the connection is not application-limited and no rate sample is marked.
 */
@Timeout(180)
class UnsentLowWatermarkScenarioTest
{
    private static final long MS = 1_000_000L;
    private static final long DURATION_NS = 2_000 * MS;
    private static final int MESSAGE_BYTES = AppPattern.DEFAULT_MESSAGE_BYTES;
    private static final int OFF = 1 << 30;

    @ParameterizedTest
    @CsvSource({
        "cubic, 1, rate=1gbit delay=5ms queue=1bdp",
        "bbr,   1, rate=1gbit delay=5ms queue=1bdp",
        "reno,  2, rate=100mbit delay=10ms loss=0.5% queue=1bdp",
        "bbr3,  2, rate=100mbit delay=10ms loss=0.5% queue=1bdp" })
    void theMarkBoundsTheWaitingBytesAndChangesNothingOnTheWire(
        final String controller, final long seed, final String path)
    {
        final Run off = run(controller, seed, path, (context) -> context.unsentLowWatermarkBytes(OFF));
        final Run marked = run(controller, seed, path, (context) -> { });
        final String figures = figures(controller, seed, path, "off", off) + " | " +
            figures(controller, seed, path, "default", marked);
        System.out.println("UNSENT-LOWAT " + figures);

        assertTrue(
            off.mostWaitingBytes > off.mostInFlightBytes + 4 * PacelinkContext.DEFAULT_UNSENT_LOW_WATERMARK_BYTES,
            "without the mark the application fills the send buffer far beyond what is in flight: " + figures);
        assertTrue(marked.mostWaitingBytes <= marked.mostInFlightBytes + marked.mostLostBytes +
            PacelinkContext.DEFAULT_UNSENT_LOW_WATERMARK_BYTES + MESSAGE_BYTES + Integer.BYTES,
            "with it, no more than in flight, lost, the mark and one message: " + figures);
        assertEquals(off.traceHash, marked.traceHash, "the same packets at the same times: " + figures);
        assertEquals(off.appLimited, marked.appLimited, "never application-limited because of the mark: " + figures);
        assertEquals(off.deliveredBytes, marked.deliveredBytes, figures);
        assertEquals(off.lostPackets, marked.lostPackets, figures);
    }

    @ParameterizedTest
    @CsvSource({
        "cubic, 1, rate=100mbit delay=5ms queue=1bdp",
        "bbr,   1, rate=100mbit delay=5ms queue=1bdp" })
    void theSmallestMarkStillKeepsAHundredMegabitFlowBusy(final String controller, final long seed, final String path)
    {
        // 16 KiB is one simulated message: the application is back at the next duty cycle, which at 100 Mbit/s
        // sends a packet or two, so the pacer still never runs dry.
        final Run off = run(controller, seed, path, (context) -> context.unsentLowWatermarkBytes(OFF));
        final Run smallest = run(controller, seed, path,
            (context) -> context.unsentLowWatermarkBytes(PacelinkContext.MIN_UNSENT_LOW_WATERMARK_BYTES));
        final String figures = figures(controller, seed, path, "off", off) + " | " +
            figures(controller, seed, path, "16KiB", smallest);
        System.out.println("UNSENT-LOWAT " + figures);

        assertTrue(smallest.mostWaitingBytes <= smallest.mostInFlightBytes + smallest.mostLostBytes +
            PacelinkContext.MIN_UNSENT_LOW_WATERMARK_BYTES + MESSAGE_BYTES + Integer.BYTES, figures);
        assertTrue(smallest.deliveredBytes >= 0.99 * off.deliveredBytes, "goodput: " + figures);
        assertTrue(smallest.appLimited <= off.appLimited, "not application-limited: " + figures);
    }

    private static Run run(
        final String controller, final long seed, final String path, final Consumer<PacelinkContext> customizer)
    {
        final Run run = new Run();
        final ScenarioResult result = Scenario.builder()
            .seed(seed)
            .path(PathSpec.Pair.parse(path))
            .durationNs(DURATION_NS)
            .flow(FlowSpec.bulk(controller))
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
            "%s seed %d %s mark %s: most waiting %d B, in flight %d B, lost %d B; app-limited %d; delivered %d B; " +
            "lost %d packets; trace %016x",
            controller, seed, path, label, run.mostWaitingBytes, run.mostInFlightBytes, run.mostLostBytes,
            run.appLimited, run.deliveredBytes, run.lostPackets, run.traceHash);
    }

    /**
     * One run's figures, sampled every millisecond of simulated time.
     */
    private static final class Run
    {
        long mostWaitingBytes;
        long mostInFlightBytes;
        long mostLostBytes;
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
            // Stream bytes offered and not yet acknowledged: in flight, lost and waiting to go again, or unsent.
            final long offered = stats.applicationBytesOffered() + (long)Integer.BYTES * stats.messagesOffered();
            mostWaitingBytes = Math.max(mostWaitingBytes, offered - stats.streamBytesAcked());
            mostInFlightBytes = Math.max(mostInFlightBytes, stats.bytesInFlight());
            mostLostBytes = Math.max(mostLostBytes, stats.bytesLost());
            appLimited = stats.appLimited();
        }
    }
}
