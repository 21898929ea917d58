package io.pacelink.perf;

import io.pacelink.perf.cc.ControllerTrace;
import io.pacelink.perf.schedule.PacedFlow;
import io.pacelink.link.LinkPacket;
import io.pacelink.transport.schedule.SchedulableFlow;
import io.pacelink.transport.wire.AckFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs every benchmark's setup and calls its benchmark methods a few thousand times, as JMH would, so that a change
 * that breaks a benchmark fails the build; the assertions check that each benchmark does the work it claims to. No
 * timing is measured here.
 */
class BenchmarkSmokeTest
{
    private static final int OPS = 20_000;

    @ParameterizedTest
    @ValueSource(strings = { "reno", "cubic", "bbr", "bbrplus", "bbr2", "bbr3" })
    void controllerTraceReplaysEveryKindOverSeveralLaps(final String controller)
    {
        final ControllerBenchmark.Recording recording = new ControllerBenchmark.Recording();
        recording.controller = controller;
        recording.record();

        final ControllerTrace trace = recording.trace;
        assertTrue(trace.ackCount() >= ControllerBenchmark.TRACE_MINIMUM_ACKS, "acks " + trace.ackCount());
        assertTrue(trace.lostCount() >= ControllerBenchmark.TRACE_MINIMUM_LOST_PACKETS, "lost " + trace.lostCount());
        // Acknowledgements every second packet: about twice as many sends as ACKs.
        assertTrue(trace.sentCount() > 3 * trace.ackCount() / 2, "sent " + trace.sentCount());
        assertTrue(trace.congestionEventCount() >= 1 && trace.congestionEventCount() <= trace.lostCount(),
            "congestion events " + trace.congestionEventCount());
        // Every ACK acknowledges at least one packet, and each packet took its serialization time at the bottleneck.
        final long minimumWindowNs = trace.ackCount() * ControllerBenchmark.TRACE_PATH.packetSizeBytes() *
            1_000_000_000L / ControllerBenchmark.TRACE_PATH.bottleneckBytesPerSecond();
        assertTrue(trace.windowNs() >= minimumWindowNs, "window " + trace.windowNs() + " ns");

        final ControllerBenchmark benchmark = new ControllerBenchmark();
        final ControllerBenchmark.Acks acks = new ControllerBenchmark.Acks();
        replayLaps(controller, recording, acks, () -> benchmark.onAck(acks));
        final ControllerBenchmark.Sends sends = new ControllerBenchmark.Sends();
        replayLaps(controller, recording, sends, () -> benchmark.onPacketSent(sends));
        final ControllerBenchmark.Losses losses = new ControllerBenchmark.Losses();
        replayLaps(controller, recording, losses, () -> benchmark.onPacketLost(losses));
        final ControllerBenchmark.Everything everything = new ControllerBenchmark.Everything();
        replayLaps(controller, recording, everything, () -> benchmark.replayTrace(everything));
    }

    @ParameterizedTest
    @CsvSource({ "rr,1", "rr,100", "rr,10000", "fq,1", "fq,100", "fq,10000", "fifo,1", "fifo,100", "fifo,10000" })
    void schedulerReleasesAFlowEveryOp(final String scheduler, final int flows)
    {
        final SchedulerBenchmark benchmark = new SchedulerBenchmark();
        benchmark.scheduler = scheduler;
        benchmark.flows = flows;
        benchmark.setUp();
        assertEquals(scheduler, benchmark.packetScheduler().name());

        for (int i = 0; i < OPS; i++)
        {
            final SchedulableFlow flow = benchmark.activateNextSend();
            assertNotNull(flow, scheduler + " released nothing at op " + i);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "rr", "fq" })
    void pacedSchedulersSendEachFlowItsRateShare(final String scheduler)
    {
        final int flows = 100;
        final int ops = 200_000;
        final SchedulerBenchmark benchmark = new SchedulerBenchmark();
        benchmark.scheduler = scheduler;
        benchmark.flows = flows;
        benchmark.setUp();

        final long[] sendsByFlow = new long[flows + 1];
        final long[] rateByFlow = new long[flows + 1];
        for (int i = 0; i < ops; i++)
        {
            final PacedFlow flow = (PacedFlow)benchmark.activateNextSend();
            sendsByFlow[(int)flow.flowId()]++;
            rateByFlow[(int)flow.flowId()] = flow.pacingRateBytesPerSecond();
        }

        // Rates spread from 0.5x to 1.5x the fair share: a scheduler that ignored them would be off by up to 50 %.
        // 10 % allows for the start (every flow begins with burst credit); over 2 million sends it is within 1 %.
        for (int id = 1; id <= flows; id++)
        {
            final double expectedShare = (double)rateByFlow[id] / SchedulerBenchmark.EGRESS_BYTES_PER_SECOND;
            final double share = (double)sendsByFlow[id] / ops;
            assertEquals(expectedShare, share, 0.1 * expectedShare, scheduler + " flow " + id);
        }
    }

    @ParameterizedTest
    @CsvSource({
        "fifo,1", "fifo,100", "fifo,10000", "fq,1", "fq,100", "fq,10000",
        "fq_codel,1", "fq_codel,100", "fq_codel,10000", "sfq,1", "sfq,100", "sfq,10000" })
    void bottleneckQueueKeepsItsBacklogWithPooledPackets(final String qdisc, final int flows)
    {
        final BottleneckQueueBenchmark benchmark = new BottleneckQueueBenchmark();
        benchmark.qdisc = qdisc;
        benchmark.flows = flows;
        benchmark.setUp();

        for (int i = 0; i < OPS; i++)
        {
            final LinkPacket departed = benchmark.enqueueDequeue();
            assertNotNull(departed, qdisc + " was empty at op " + i);
        }

        final int backlog = benchmark.queue().packetCount();
        if ("fq_codel".equals(qdisc))
        {
            // 1000 packets at 9.6 us each stand 9.6 ms, above CoDel's 5 ms target: it has started dropping.
            assertTrue(backlog > 0 && backlog < BottleneckQueueBenchmark.BACKLOG_PACKETS, "backlog " + backlog);
            assertEquals(BottleneckQueueBenchmark.BACKLOG_PACKETS - backlog, benchmark.queue().droppedPackets());
        }
        else
        {
            assertEquals(BottleneckQueueBenchmark.BACKLOG_PACKETS, backlog);
            assertEquals(0, benchmark.queue().droppedPackets());
        }
        // One packet beyond the backlog is out of the pool at a time: nothing leaks, nothing is allocated per op.
        assertTrue(benchmark.pool().allocatedPackets() <= BottleneckQueueBenchmark.BACKLOG_PACKETS + 1,
            "allocated " + benchmark.pool().allocatedPackets());
    }

    @Test
    void wireBuildsFullPacketsDecodesThemAndWritesCappedAcks()
    {
        final WireBenchmark benchmark = new WireBenchmark();
        benchmark.setUp();

        for (int i = 0; i < OPS; i++)
        {
            assertEquals(WireBenchmark.MAX_DATAGRAM_BYTES, benchmark.buildDataPacket());
            benchmark.decodeDataPacket();
            assertTrue(benchmark.receiveAndWriteAck() > 0);
        }

        final PacketDecoder decoder = new PacketDecoder();
        for (int i = 0; i < WireBenchmark.DECODED_PACKETS; i++)
        {
            final int offset = i * WireBenchmark.MAX_DATAGRAM_BYTES;
            assertEquals(
                PacketDecoder.OK, decoder.validate(benchmark.decodeBuffer(), offset, benchmark.decodeLength(i)));
            assertEquals(2, decoder.frameCount(), "ACK and DATA");
            assertEquals(WireBenchmark.MAX_DATAGRAM_BYTES, benchmark.decodeLength(i));
        }

        // Lost numbers never arrive: the tracker sits at its cap and every ACK carries all of its ranges.
        assertEquals(32, benchmark.tracker().rangeCount());
        assertEquals(AckFrameFlyweight.frameLength(31), benchmark.receiveAndWriteAck());
    }

    /**
     * Replay three laps and a bit (so the replay wraps around), checking the window stays a real window.
     */
    private static void replayLaps(
        final String controller,
        final ControllerBenchmark.Recording recording,
        final ControllerBenchmark.Replay replay,
        final LongSupplier benchmarkMethod)
    {
        replay.start(recording);
        final int calls = 3 * replay.replay.length() + 1;
        for (int i = 0; i < calls; i++)
        {
            final long windowBytes = benchmarkMethod.getAsLong();
            assertTrue(windowBytes >= 2 * ControllerBenchmark.TRACE_PATH.packetSizeBytes(),
                controller + " " + replay.getClass().getSimpleName() + " window " + windowBytes + " after " + i);
        }
    }

    @Test
    void lossRecoveryAcknowledgesAndDeclaresLostExactlyThePeriodicLosses()
    {
        final LossRecoveryBenchmark benchmark = new LossRecoveryBenchmark();
        benchmark.controller = "reno";
        benchmark.setUp();

        for (int i = 0; i < OPS; i++)
        {
            assertTrue(benchmark.sendAndAck() >= 0);
        }

        final long largestAcked = benchmark.lossRecovery().largestAckedPacketNumber();
        long lostUpToLargest = 0;
        long declaredLost = 0;
        for (long pn = 0; pn <= largestAcked; pn++)
        {
            if (LossRecoveryBenchmark.LOSS_PERIOD - 1 == pn % LossRecoveryBenchmark.LOSS_PERIOD)
            {
                lostUpToLargest++;
                // RFC 9002 packet threshold: lost once three later packets are acknowledged.
                declaredLost += pn + 3 <= largestAcked ? 1 : 0;
            }
        }
        final long lastAckedNumber = OPS - 1;
        final boolean lastIsLost =
            LossRecoveryBenchmark.LOSS_PERIOD - 1 == lastAckedNumber % LossRecoveryBenchmark.LOSS_PERIOD;
        assertEquals(lastIsLost ? lastAckedNumber - 1 : lastAckedNumber, largestAcked);
        assertEquals(largestAcked + 1 - lostUpToLargest, benchmark.outcomes().ackedPackets());
        assertEquals(declaredLost, benchmark.outcomes().lostPackets());
        assertEquals(declaredLost, benchmark.lossRecovery().lostPackets());
        assertEquals(0, benchmark.outcomes().spuriouslyLostPackets());
    }

    @ParameterizedTest
    @CsvSource({ "64,AESGCM", "1200,AESGCM", "64,ChaChaPoly", "1200,ChaChaPoly" })
    void packetProtectionSealsAndOpensEveryPacket(final int payload, final String aead) throws Exception
    {
        final PacketProtectionBenchmark benchmark = new PacketProtectionBenchmark();
        benchmark.payload = payload;
        benchmark.aead = aead;
        benchmark.setUp();
        for (int i = 0; i < 1_000; i++)
        {
            assertEquals(20 + payload + 16, benchmark.seal());
            assertEquals(20 + payload, benchmark.open());
            assertEquals(20 + payload + 4, benchmark.crcSeal());
            assertTrue(benchmark.crcCheck());
            assertEquals(20 + payload + 16, benchmark.sealIntoBatch());
            assertEquals(20 + payload + 16, benchmark.sealInPlaceDirect());
        }
        assertEquals(0, benchmark.authenticationFailures());
    }
}
