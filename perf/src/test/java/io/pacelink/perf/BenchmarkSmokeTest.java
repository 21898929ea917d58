package io.pacelink.perf;

import io.pacelink.perf.cc.ControllerTrace;
import io.pacelink.link.LinkPacket;
import io.pacelink.transport.schedule.SchedulableFlow;
import io.pacelink.transport.wire.AckFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

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
    @ValueSource(strings = { "reno", "cubic", "bbr", "bbr3" })
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

        final ControllerBenchmark benchmark = new ControllerBenchmark();
        final ControllerBenchmark.Replay[] replays = {
            new ControllerBenchmark.Acks(),
            new ControllerBenchmark.Sends(),
            new ControllerBenchmark.Losses(),
            new ControllerBenchmark.Everything() };
        for (final ControllerBenchmark.Replay replay : replays)
        {
            replay.start(recording);
            final int calls = 3 * replay.replay.length() + 1;
            for (int i = 0; i < calls; i++)
            {
                final long windowBytes = switch (replay.getClass().getSimpleName())
                {
                    case "Acks" -> benchmark.onAck((ControllerBenchmark.Acks)replay);
                    case "Sends" -> benchmark.onPacketSent((ControllerBenchmark.Sends)replay);
                    case "Losses" -> benchmark.onPacketLost((ControllerBenchmark.Losses)replay);
                    default -> benchmark.replayTrace((ControllerBenchmark.Everything)replay);
                };
                assertTrue(windowBytes >= 2 * ControllerBenchmark.TRACE_PATH.packetSizeBytes(),
                    controller + " window " + windowBytes + " after " + i + " replayed events");
            }
        }
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
            // CoDel trims the standing queue towards 5 ms at 9.6 us per packet: about 520 packets.
            assertTrue(backlog > 400 && backlog < BottleneckQueueBenchmark.BACKLOG_PACKETS, "backlog " + backlog);
        }
        else
        {
            assertEquals(BottleneckQueueBenchmark.BACKLOG_PACKETS, backlog);
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

        final long largestAcked = benchmark.recovery().largestAckedPacketNumber();
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
        assertEquals(declaredLost, benchmark.recovery().lostPackets());
        assertEquals(0, benchmark.outcomes().spuriouslyLostPackets());
    }
}
