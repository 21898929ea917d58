package io.pacelink.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.results.Fairness;
import io.pacelink.sim.scenario.AppPattern;
import io.pacelink.sim.scenario.FlowOutcome;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.ControllerParameters;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 6 in the simulator (fixed seeds): the sender's {@code fq} scheduler (pacing precision, fairness between the
 * connections of one endpoint, new-flow priority), the fair bottleneck queues (the ten-iperfs experiment over
 * {@code fq_codel}) and BBR with and without fq. Each test prints the figures docs/fq.md reports.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FqAcceptanceTest
{
    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;
    private static final long SEED = 6;

    /**
     * 50 Mbit/s.
     */
    private static final long FIXED_RATE_BYTES_PER_SECOND = 6_250_000L;
    private static final String FIXED_RATE = "fixed-50mbit";

    /**
     * sch_fq's quantum (2 x 1514 B) at 100 Mbit/s: 3028 B * 8 / 100 Mbit/s.
     */
    private static final long QUANTUM_SERIALIZATION_AT_100_MBIT_NS = 242_240L;

    @Test
    void pacedConnectionLeavesLengthOverRateApartExactlyIncludingAfterIdle()
    {
        // Item 1: one connection per sender, each paced at 50 Mbit/s by a fixed-rate test controller, over a
        // 1 Gbit/s link, with the default scheduler (fq): a bulk one, one idle ~7 ms between 16 KiB messages (every
        // 10 ms) and one idle ~97 ms between messages (every 100 ms: longer than fq's 40 ms refill delay).
        final int messageBytes = AppPattern.DEFAULT_MESSAGE_BYTES;
        final long[] messageIntervalsNs = { 0, 10 * MS, 100 * MS };
        final int[] minimumMessagesAfterIdle = { 0, 250, 25 };
        final DataDepartures[] captures = new DataDepartures[messageIntervalsNs.length];
        final Scenario.Builder builder = Scenario.builder()
            .seed(SEED)
            .registry(CongestionControlRegistry.of(
                new FixedRateControllerFactory(FIXED_RATE, FIXED_RATE_BYTES_PER_SECOND)))
            .path(PathSpec.Pair.parse("rate=1gbit delay=10ms queue=1000p", "delay=10ms"))
            .durationNs(3 * SECOND)
            .departures((flowIndex, buffer, offset, length, nowNs) ->
                captures[flowIndex].onDeparture(flowIndex, buffer, offset, length, nowNs));
        for (int i = 0; i < messageIntervalsNs.length; i++)
        {
            captures[i] = new DataDepartures(i, messageBytes);
            final AppPattern pattern = 0 == messageIntervalsNs[i] ?
                AppPattern.bulk() : AppPattern.rateLimited(messageBytes * SECOND / messageIntervalsNs[i]);
            builder.flow(FlowSpec.bulk(FIXED_RATE).with(pattern));
        }

        final ScenarioResult result = builder.build().run();

        for (int i = 0; i < captures.length; i++)
        {
            final PacingCheck check = checkPacing(captures[i], messageBytes, messageIntervalsNs[i]);
            System.out.printf("item 1: flow %d (messages every %d ms): %d gaps paced back to back, max deviation " +
                "%.4f %% of len/rate; %d messages after idle, each left at its offer time; initial burst %d B%n",
                i, messageIntervalsNs[i] / MS, check.pacedGaps(), check.maxDeviationPercent(),
                check.resumedAfterIdle(), check.initialBurstBytes());
            assertTrue(check.maxDeviationPercent() <= 1.0, "within 1 %: " + check.maxDeviationPercent());
            assertEquals(0, check.maxDeviationNs(), "exact in virtual time");
            assertTrue(check.initialBurstBytes() <= 10 * 1514 + 1472, "initial quantum " + check.initialBurstBytes());
            assertTrue(check.pacedGaps() > 300, "paced gaps " + check.pacedGaps());
            assertTrue(check.resumedAfterIdle() >= minimumMessagesAfterIdle[i],
                "messages after idle " + check.resumedAfterIdle());
        }
        final double bulkBitsPerSecond = result.flow(0).sentBytes() * 8.0 * SECOND /
            (captures[0].departureNs.getLong(captures[0].size() - 1) - captures[0].departureNs.getLong(0));
        assertEquals(FIXED_RATE_BYTES_PER_SECOND * 8.0, bulkBitsPerSecond, FIXED_RATE_BYTES_PER_SECOND * 8 * 0.01);
    }

    @Test
    void tenConnectionsOfOneEndpointShareFairlyUnderFq()
    {
        // Item 2: 10 bulk connections on one endpoint (one socket, one fq scheduler), 60 s.
        final ScenarioResult result = tenBulkOnOneEndpoint("fq", "bbr", 60 * SECOND);

        final double jain = result.jainIndex();
        System.out.printf("item 2: fq, 10 x bbr on one endpoint: Jain %.4f, utilisation %.3f%n",
            jain, result.forward().utilisation());
        assertTrue(jain >= 0.99, "Jain " + jain);
        assertTrue(result.forward().utilisation() > 0.95, "utilisation " + result.forward().utilisation());
    }

    @Test
    void requestOfASparseFlowWaitsAtTheSenderNoLongerThanOneQuantumTakesToSerialize()
    {
        // Item 3: a request/response flow (100 B every 10 ms) on the same endpoint as 10 bulk connections; the wait
        // is from the request's offer (its send time, stamped in the request) to its packet leaving the sender.
        final DataDepartures requests = new DataDepartures(10, 100);
        final Scenario.Builder builder = Scenario.builder()
            .seed(SEED)
            .path(PathSpec.Pair.parse("rate=100mbit delay=20ms queue=2bdp", "delay=20ms"))
            .durationNs(20 * SECOND)
            .departures(requests);
        for (int i = 0; i < 10; i++)
        {
            builder.flow(FlowSpec.bulk("bbr").inSenderGroup(0));
        }
        builder.flow(FlowSpec.bulk("bbr").inSenderGroup(0).with(AppPattern.requestResponse(100, 100, 10 * MS)));

        final ScenarioResult result = builder.build().run();

        final Histogram waitNs = new Histogram(3);
        for (int i = 0; i < requests.size(); i++)
        {
            final long offeredAtNs = requests.messageStamps.getLong(i);
            assertTrue(offeredAtNs >= 0, "every request starts its own packet");
            waitNs.recordValue(requests.departureNs.getLong(i) - offeredAtNs);
        }
        System.out.printf("item 3: fq, request wait at the sender over %d requests: p50 %d ns, p99 %d ns, max %d ns; " +
            "response time %s%n", waitNs.getTotalCount(), waitNs.getValueAtPercentile(50),
            waitNs.getValueAtPercentile(99), waitNs.getMaxValue(), result.flow(10).responseTime());
        assertTrue(waitNs.getTotalCount() > 1900, "requests " + waitNs.getTotalCount());
        assertTrue(waitNs.getMaxValue() <= QUANTUM_SERIALIZATION_AT_100_MBIT_NS, "max wait " + waitNs.getMaxValue());
    }

    @Test
    void tenIperfsOverFqCodelWithSmallQuantumShareFairlyAndTheLatecomerGetsItsShare()
    {
        // Item 4: 4 Mbit/s, 1 ms each way, 120 packets; 10 bulk flows for 60 s, a latecomer from 5 s to 55 s. Reported
        // beside it: the default 1514-byte quantum (a sparse flow waits behind a whole round) and a drop-tail FIFO
        // (the ping sits behind the full queue: 120 x 1472 B at 4 Mbit/s = 353 ms).
        final TenIperfs smallQuantum = TenIperfs.of(tenIperfs("qdisc=fq_codel quantum=300", "cubic"));
        final TenIperfs fullQuantum = TenIperfs.of(tenIperfs("qdisc=fq_codel", "cubic"));
        final TenIperfs dropTail = TenIperfs.of(tenIperfs("qdisc=fifo", "cubic"));

        System.out.println("item 4: fq_codel quantum=300, cubic: " + smallQuantum);
        System.out.println("item 4: fq_codel quantum=1514, cubic: " + fullQuantum);
        System.out.println("item 4: fifo, cubic: " + dropTail);
        assertTrue(smallQuantum.jain() >= 0.99, "Jain " + smallQuantum);
        assertEquals(1.0, smallQuantum.latecomerShareOfFair(), 0.10, "latecomer / fair share " + smallQuantum);
        assertTrue(fullQuantum.pingP99Ns() > smallQuantum.pingP99Ns(), fullQuantum + " vs " + smallQuantum);
        assertTrue(dropTail.pingP50Ns() > 200 * MS, "drop-tail ping " + dropTail);
        assertTrue(dropTail.pingP50Ns() > 10 * fullQuantum.pingP50Ns(), dropTail + " vs " + fullQuantum);
    }

    /**
     * Issue 6 item 4's ping bound as issue 9 settled it, fq_codel staying faithful to Linux: ping p50 at most 5 ms and
     * p99 at most 15 ms (measured with cubic: p50 3.99 ms, p99 14.41 ms, max 31.57 ms; the first bound of
     * 10 ms is not met by fq_codel's DRR as specified, RFC 8290 section 4.2 and Linux sch_fq_codel: a served probe's
     * queue makes one pass through old_flows before it is unlisted, and a pass lasts as many 1472-byte packets, 2.94
     * ms each, as the bulk flows with credit send in it, 1 to 9, so about a quarter of the probes wait for a pass).
     * For scale, Linux sch_fq on the same experiment measured a ping p99 of about 28 ms. Jain and the latecomer's
     * share are asserted by the test above.
     */
    @Test
    void tenIperfsOverFqCodelWithSmallQuantumKeepPingP50UnderFiveAndP99UnderFifteenMilliseconds()
    {
        final ScenarioResult result = tenIperfs("qdisc=fq_codel quantum=300", "cubic");

        assertTrue(result.ping().p50Ns() <= 5 * MS, "ping " + result.ping());
        assertTrue(result.ping().p99Ns() <= 15 * MS, "ping " + result.ping());
    }

    @Test
    void bbrOverFqGetsMoreGoodputWithFewerLossesThanOverFifo()
    {
        // Item 5: one bbr flow on rate=1gbit delay=10ms queue=100p, paced by fq versus sent unpaced by fifo.
        final FlowOutcome overFq = oneBbrFlow("fq");
        final FlowOutcome overFifo = oneBbrFlow("fifo");

        System.out.printf("item 5: bbr over fq: %.1f Mbit/s, %d lost; over fifo: %.1f Mbit/s, %d lost%n",
            overFq.goodputBitsPerSecond() / 1e6, overFq.lostPackets(),
            overFifo.goodputBitsPerSecond() / 1e6, overFifo.lostPackets());
        assertTrue(overFq.goodputBitsPerSecond() > overFifo.goodputBitsPerSecond());
        assertTrue(overFq.lostPackets() < overFifo.lostPackets());
    }

    private static ScenarioResult tenBulkOnOneEndpoint(final String scheduler, final String congestionControl,
        final long durationNs)
    {
        final Scenario.Builder builder = Scenario.builder()
            .seed(SEED)
            .path(PathSpec.Pair.parse("rate=100mbit delay=20ms queue=2bdp", "delay=20ms"))
            .durationNs(durationNs)
            .scheduler(scheduler, ControllerParameters.EMPTY);
        for (int i = 0; i < 10; i++)
        {
            builder.flow(FlowSpec.bulk(congestionControl).inSenderGroup(0));
        }
        return builder.build().run();
    }

    private static ScenarioResult tenIperfs(final String bottleneckQueue, final String congestionControl)
    {
        final Scenario.Builder builder = Scenario.builder()
            .seed(SEED)
            .path(PathSpec.Pair.parse("rate=4mbit delay=1ms queue=120p " + bottleneckQueue, "delay=1ms"))
            .durationNs(60 * SECOND)
            .pingIntervalNs(10 * MS);
        for (int i = 0; i < 10; i++)
        {
            builder.flow(FlowSpec.bulk(congestionControl));
        }
        builder.flow(FlowSpec.bulk(congestionControl).during(5 * SECOND, 55 * SECOND));
        return builder.build().run();
    }

    private static FlowOutcome oneBbrFlow(final String scheduler)
    {
        return Scenario.builder()
            .seed(SEED)
            .path(PathSpec.Pair.parse("rate=1gbit delay=10ms queue=100p", "delay=10ms"))
            .durationNs(10 * SECOND)
            .scheduler(scheduler, ControllerParameters.EMPTY)
            .flow(FlowSpec.bulk("bbr"))
            .build()
            .run()
            .flow(0);
    }

    /**
     * Walks one flow's data departures: after the initial unpaced burst, every packet whose data was waiting must
     * leave exactly {@code len / rate} after the previous one, never earlier; a message offered while the flow was
     * idle must leave at its offer time (pacing resumes at once, and idle earned no burst).
     */
    private static PacingCheck checkPacing(
        final DataDepartures capture, final int messageBytes, final long messageIntervalNs)
    {
        final long messageFrameBytes = messageBytes + 4;
        final long firstNs = capture.departureNs.getLong(0);
        // A rate-limited sender offers its first message one interval after its connection is established, and
        // that message leaves at once: the offer times are counted from it.
        final long firstOfferNs = firstNs - messageIntervalNs;
        int first = 0;
        long initialBurstBytes = 0;
        while (first < capture.size() && capture.departureNs.getLong(first) == firstNs)
        {
            initialBurstBytes += capture.datagramBytes.getLong(first);
            first++;
        }

        int pacedGaps = 0;
        int resumedAfterIdle = 0;
        double maxDeviationPercent = 0;
        long maxDeviationNs = 0;
        for (int i = Math.max(1, first); i < capture.size(); i++)
        {
            final long gapNs = capture.departureNs.getLong(i) - capture.departureNs.getLong(i - 1);
            final long pacedGapNs = capture.datagramBytes.getLong(i - 1) * SECOND / FIXED_RATE_BYTES_PER_SECOND;
            final long streamOffset = capture.streamOffsets.getLong(i);
            final long offeredAtNs = 0 == messageIntervalNs || 0 != streamOffset % messageFrameBytes ? Long.MIN_VALUE :
                firstOfferNs + (streamOffset / messageFrameBytes + 1) * messageIntervalNs;
            assertTrue(gapNs >= pacedGapNs, "packet " + i + " early: gap " + gapNs + " < " + pacedGapNs);
            if (offeredAtNs > capture.departureNs.getLong(i - 1))
            {
                // Offered while the flow was idle: it leaves the moment it is offered.
                assertEquals(offeredAtNs, capture.departureNs.getLong(i), "message after idle, packet " + i);
                resumedAfterIdle++;
            }
            else
            {
                maxDeviationPercent = Math.max(maxDeviationPercent, 100.0 * (gapNs - pacedGapNs) / pacedGapNs);
                maxDeviationNs = Math.max(maxDeviationNs, gapNs - pacedGapNs);
                pacedGaps++;
            }
        }
        return new PacingCheck(pacedGaps, resumedAfterIdle, maxDeviationPercent, maxDeviationNs, initialBurstBytes);
    }

    private record PacingCheck(
        int pacedGaps, int resumedAfterIdle, double maxDeviationPercent, long maxDeviationNs, long initialBurstBytes)
    {
    }

    /**
     * The ten-iperfs figures: Jain over the 10 flows (whole run), the latecomer's goodput over its 5-55 s window as
     * a fraction of the fair share (total goodput of all 11 flows over that window / 11), and the ping RTT.
     */
    private record TenIperfs(double jain, double latecomerShareOfFair, long pingP50Ns, long pingP99Ns, long pingMaxNs)
    {
        static TenIperfs of(final ScenarioResult result)
        {
            final double[] goodputs = new double[10];
            for (int i = 0; i < goodputs.length; i++)
            {
                goodputs[i] = result.flow(i).goodputBitsPerSecond();
            }
            double totalBitsPerSecond = 0;
            for (int i = 0; i <= 10; i++)
            {
                totalBitsPerSecond += result.flow(i).goodputBitsPerSecond(5 * SECOND, 55 * SECOND);
            }
            final double latecomer = result.flow(10).goodputBitsPerSecond(5 * SECOND, 55 * SECOND);
            return new TenIperfs(Fairness.jainIndex(goodputs), latecomer / (totalBitsPerSecond / 11),
                result.ping().p50Ns(), result.ping().p99Ns(), result.ping().maxNs());
        }

        public String toString()
        {
            return String.format(
                "Jain(10) %.4f, latecomer %.3f of fair share, ping p50 %.2f ms p99 %.2f ms max %.2f ms",
                jain, latecomerShareOfFair, pingP50Ns / 1e6, pingP99Ns / 1e6, pingMaxNs / 1e6);
        }
    }
}
