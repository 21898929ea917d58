package io.pacelink.it;

import io.pacelink.fq.FqConfig;
import io.pacelink.fq.FqScheduler;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ThreadingMode;
import io.pacelink.transport.agent.EndpointAgent;
import io.pacelink.transport.cc.ControllerParameters;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Departure jitter of the sender's pacer on real loopback sockets with the low-latency profile: one connection
 * paced at 100 Mbit/s or 1 Gbit/s by {@code fq.maxRate} (the controller's own rate is far higher on loopback), its
 * endpoint's agent busy-spinning on its own thread. The fq scheduler records, for every release of a throttled
 * flow, how late the agent released it against the intended release time. The receiver runs on the test thread
 * (INVOKER), so two threads spin in all (the machine may have only two cores).
 * <p>
 * Correctness only: the figures depend on the machine and go to standard output (docs/fq.md quotes them).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoopbackPacingJitterTest
{
    private static final long RUN_NS = TimeUnit.SECONDS.toNanos(2);
    /**
     * A run goes on past {@link #RUN_NS}, up to this long, until the flow was throttled this often: on a machine loaded
     * beyond its cores the sender often cannot reach its pacing rate, and 2 s then held 79 paced releases beside six
     * builds. The count of paced releases, not the wall clock, is what the test needs.
     */
    private static final long MAX_RUN_NS = TimeUnit.SECONDS.toNanos(20);
    private static final long MIN_THROTTLES = 1_500;
    private static final String THROTTLED_LABEL = "scheduler fq: throttled";
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);
    private static final int MESSAGE_BYTES = 16 * 1024;

    @ParameterizedTest
    @ValueSource(longs = { 100_000_000L, 1_000_000_000L })
    void pacedConnectionIsReleasedCloseToItsIntendedTimes(final long bitsPerSecond)
    {
        final long bytesPerSecond = bitsPerSecond / 8;
        final Endpoint receiver = Endpoint.launch(new PacelinkContext().threadingMode(ThreadingMode.INVOKER));
        final Endpoint sender = Endpoint.launch(new PacelinkContext()
            .lowLatencyProfile()
            .acceptConnections(false)
            .packetScheduler(FqScheduler.NAME)
            .schedulerParameters(ControllerParameters.of(Map.of(FqConfig.MAX_RATE, Long.toString(bytesPerSecond)))));
        final FqScheduler<?> scheduler = (FqScheduler<?>)((EndpointAgent)sender.agent()).core().scheduler();
        final long[] deliveredBytes = { 0 };
        final MessageHandler counter = (buffer, offset, length) -> deliveredBytes[0] += length;
        final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_BYTES]);
        long elapsedNs = 0;
        try
        {
            final Connection out = sender.connect(receiver.localAddress());
            Connection in = null;
            final long connectDeadlineNs = System.nanoTime() + CONNECT_TIMEOUT_NS;
            while (null == in || ConnectionState.CONNECTING == out.state())
            {
                receiver.invoke();
                in = null == in ? receiver.accept() : in;
                assertTrue(System.nanoTime() < connectDeadlineNs, "connect timed out");
            }

            final int throttledId = counterId(sender, THROTTLED_LABEL);
            final long startNs = System.nanoTime();
            while ((elapsedNs = System.nanoTime() - startNs) < RUN_NS ||
                (sender.countersReader().getCounterValue(throttledId) < MIN_THROTTLES && elapsedNs < MAX_RUN_NS))
            {
                out.offer(message, 0, MESSAGE_BYTES);
                receiver.invoke();
                in.poll(counter, Integer.MAX_VALUE);
            }
        }
        finally
        {
            // Nothing invokes the receiver while the sender closes, so a graceful close would wait in vain: abort.
            sender.closeNow();
            receiver.closeNow();
        }

        // The sender's agent thread has stopped (close joins it): its histogram may be read here.
        final Histogram latenessNs = scheduler.releaseLatenessHistogram();
        final double goodputBitsPerSecond = deliveredBytes[0] * 8e9 / elapsedNs;
        System.out.printf("loopback pacing at %d Mbit/s (low-latency profile): %d paced releases, " +
            "lateness p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us; goodput %.1f Mbit/s%n",
            bitsPerSecond / 1_000_000, latenessNs.getTotalCount(),
            latenessNs.getValueAtPercentile(50) / 1e3, latenessNs.getValueAtPercentile(99) / 1e3,
            latenessNs.getValueAtPercentile(99.9) / 1e3, latenessNs.getMaxValue() / 1e3, goodputBitsPerSecond / 1e6);
        assertTrue(latenessNs.getTotalCount() > 1000, "paced releases " + latenessNs.getTotalCount());
        assertTrue(goodputBitsPerSecond <= bitsPerSecond * 1.05, "paced at most at the cap: " + goodputBitsPerSecond);
        assertTrue(deliveredBytes[0] > 0);
    }

    private static int counterId(final Endpoint endpoint, final String label)
    {
        final int[] found = {-1};
        endpoint.countersReader().forEach((id, typeId, key, counterLabel) ->
        {
            if (counterLabel.equals(label))
            {
                found[0] = id;
            }
        });
        assertTrue(found[0] >= 0, "no counter '" + label + "'");
        return found[0];
    }
}
