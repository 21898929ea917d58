package io.pacelink.transport.stream;

import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.MessagePartHandler;
import io.pacelink.transport.memory.BudgetedSegments;
import io.pacelink.transport.memory.MemoryBudget;
import io.pacelink.transport.memory.SegmentPool;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static io.pacelink.transport.stream.SendLog.LENGTH_PREFIX_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReceiveLogTest
{
    private static final int CAPACITY = 256;
    private static final int MAX_MESSAGE = CAPACITY - LENGTH_PREFIX_BYTES;
    /**
     * The segments of both logs in {@link #transferThroughBothLogs}: small, so records start at every index of one.
     */
    private static final int TRANSFER_SEGMENT_BYTES = 64;

    private final RecordingHandler handler = new RecordingHandler();

    @Test
    void shouldDeliverContiguousMessagesAcrossTheWrap()
    {
        final ReceiveLog log = new ReceiveLog(CAPACITY, MAX_MESSAGE);
        final int[] lengths = { 0, 1, CAPACITY / 2, MAX_MESSAGE, 7, 1, 0, MAX_MESSAGE, CAPACITY / 2, 13, 1, 1, 2,
            MAX_MESSAGE, 0, 0, 0, 3, CAPACITY / 2, CAPACITY / 2 - 5, MAX_MESSAGE, 1, 0, 77, MAX_MESSAGE };
        final UnsafeBuffer stream = StreamBytes.framedStream(lengths);

        int position = 0;
        int wrappedMessages = 0;
        for (int sequence = 0; sequence < lengths.length; sequence++)
        {
            final int recordLength = LENGTH_PREFIX_BYTES + lengths[sequence];
            // Deliver each record in two frames so the message completes only with the second.
            final int firstPart = recordLength / 2;
            assertEquals(firstPart, log.onData(position, stream, position, firstPart, false));
            assertEquals(0, log.poll(handler, 10));
            assertEquals(recordLength - firstPart,
                log.onData(position + firstPart, stream, position + firstPart, recordLength - firstPart, false));
            position += recordLength;

            assertEquals(1, log.poll(handler, 10), "message " + sequence);
            assertEquals(lengths[sequence], handler.lastLength);
            assertTrue(handler.lastMatches(sequence), "bytes of message " + sequence);
            wrappedMessages += handler.lastWasScratch ? 1 : 0;
            assertEquals(position, log.consumedHead());
        }

        assertTrue(wrappedMessages >= 5, "some messages wrapped and went through the scratch buffer");
        assertEquals(ReceiveLog.NO_ERROR, log.protocolError());
    }

    @Test
    void segmentsAreTakenAsDataArrivesAndGivenBackOnceConsumed()
    {
        // Three segments, and the first four range slots (allocated for the out-of-order data).
        final MemoryBudget budget = new MemoryBudget(3 * 64 + 4 * RangeSet.BYTES_PER_RANGE);
        final SegmentPool pool = new SegmentPool(budget, 64, 64);
        final ReceiveLog log = new ReceiveLog(CAPACITY, MAX_MESSAGE, 100, pool);
        final UnsafeBuffer stream = StreamBytes.framedStream(100, 100, 100);
        assertEquals(0, budget.committedBytes());

        // Out of order, far ahead: only the segment holding it is committed.
        assertEquals(10, log.onData(200, stream, 200, 10, false));
        assertEquals(64, log.committedBytes());
        assertEquals(4 * RangeSet.BYTES_PER_RANGE, log.gapMemoryBytes());
        assertEquals(ReceiveLog.MEMORY_REFUSED, log.onData(0, stream, 0, 200, false),
            "three more segments do not fit in the budget");
        assertEquals(ReceiveLog.NO_ERROR, log.protocolError(), "not the peer's fault");

        assertEquals(LENGTH_PREFIX_BYTES + 100, log.onData(0, stream, 0, LENGTH_PREFIX_BYTES + 100, false));
        assertEquals(1, log.poll(handler, 10));
        log.releaseConsumed();
        assertEquals(1, pool.freeSegments(), "the segment wholly consumed went back to the pool");

        log.releaseMemory();
        assertEquals(64, budget.committedBytes(), "only the pooled segment stays charged: the ranges are credited");
        assertEquals(0, log.committedBytes());
        assertEquals(0, log.gapMemoryBytes());
    }

    @Test
    void smallMessagesConsumedAsTheyArriveCycleThroughTwoSegmentsWithoutACreditRefresh()
    {
        // The default shape: 32 MiB of window in 64-KiB segments from the endpoint's pool. Nothing calls
        // releaseConsumed() from outside (the credit refresh runs only with the connection's timers): the log gives
        // back what the application consumed when the data reaches a new segment, so 7.2 MB of 36-byte records do
        // not take a pool segment for every segment's worth of stream.
        final int segmentBytes = 64 * 1024;
        final MemoryBudget budget = new MemoryBudget(1L << 30);
        final ReceiveLog log = new ReceiveLog(32 << 20, 1024, 1024, new SegmentPool(budget, segmentBytes, 16L << 20));
        final UnsafeBuffer record = new UnsafeBuffer(new byte[LENGTH_PREFIX_BYTES + 32]);
        record.putInt(0, 32, ByteOrder.LITTLE_ENDIAN);

        long position = 0;
        long mostCommittedBytes = 0;
        for (int sequence = 0; sequence < 200_000; sequence++)
        {
            StreamBytes.fillPayload(record, LENGTH_PREFIX_BYTES, sequence, 32);
            assertEquals(record.capacity(), log.onData(position, record, 0, record.capacity(), false));
            position += record.capacity();
            assertEquals(1, log.poll(handler, 10));
            assertTrue(handler.lastMatches(sequence), "message " + sequence);
            mostCommittedBytes = Math.max(mostCommittedBytes, budget.committedBytes());
        }

        assertTrue(position > 100L * segmentBytes);
        assertEquals(2L * segmentBytes, mostCommittedBytes, "the segment consumed to and the one the data entered");
    }

    @Test
    void oneByteFragmentsAreClosedByMemoryAtAnEighthOfTheWindow()
    {
        final int capacity = 64 * 1024;
        final ReceiveLog log = new ReceiveLog(capacity, 1024);
        final int maxGaps = (int)(ReceiveLog.maxGapMemoryBytes(capacity) / RangeSet.BYTES_PER_RANGE);
        assertEquals(capacity / 8 / 25, maxGaps, "an eighth of the window at 25 bytes a range: 327 ranges");
        assertEquals(maxGaps, log.maxGaps());

        // Descending, so every fragment is a new range (the worst order for a sorted structure too).
        final UnsafeBuffer stream = new UnsafeBuffer(new byte[capacity]);
        final long top = capacity - 2;
        for (int i = 0; i < maxGaps; i++)
        {
            assertEquals(1, log.onData(top - 2L * i, stream, 0, 1, false), "fragment " + i);
        }
        assertEquals(maxGaps, log.gapCount());
        assertTrue(log.gapMemoryBytes() <= ReceiveLog.maxGapMemoryBytes(capacity), log.gapMemoryBytes() + " bytes");
        assertEquals(ReceiveLog.REASSEMBLY_LIMIT_ERROR, log.onData(top - 2L * maxGaps, stream, 0, 1, false));
        assertEquals(ReceiveLog.REASSEMBLY_LIMIT_ERROR, log.protocolError(), "sticky");
    }

    @Test
    void aWindowWithEveryOtherPacketLostIsFarBelowTheLimit()
    {
        // The other side of the limit: full-size packets, every other one lost over a whole 16 MiB window (the
        // worst a lossy path does to a legitimate sender), then the retransmissions fill the gaps in any order.
        final int capacity = 16 * 1024 * 1024;
        final int payload = 1_200;
        final ReceiveLog log = new ReceiveLog(capacity, 1 << 20);
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[payload]);
        packet.putInt(0, payload - LENGTH_PREFIX_BYTES, ByteOrder.LITTLE_ENDIAN);
        final int packets = capacity / payload;
        for (int i = 1; i < packets; i += 2)
        {
            assertEquals(payload, log.onData((long)i * payload, packet, 0, payload, false), "packet " + i);
        }
        assertEquals(packets / 2, log.gapCount(), "thousands of gaps");
        assertTrue(log.gapCount() > 6_000, log.gapCount() + " gaps");
        assertTrue(log.gapMemoryBytes() < ReceiveLog.maxGapMemoryBytes(capacity) / 4,
            log.gapMemoryBytes() + " bytes of bookkeeping");

        final List<Integer> lost = new ArrayList<>();
        for (int i = 0; i < packets; i += 2)
        {
            lost.add(i);
        }
        Collections.shuffle(lost, new Random(7));
        for (final int i : lost)
        {
            assertEquals(payload, log.onData((long)i * payload, packet, 0, payload, false), "retransmission " + i);
        }
        assertEquals(0, log.gapCount());
        assertEquals((long)packets * payload, log.contiguousEnd());
        assertEquals(ReceiveLog.NO_ERROR, log.protocolError());
    }

    @Test
    void rangeStorageTheBudgetRefusesDropsThePacketButInOrderDataNeedsNone()
    {
        // Room for one segment and the first four range slots, not for the eight the fifth range needs.
        final MemoryBudget budget = new MemoryBudget(64 + 4 * RangeSet.BYTES_PER_RANGE);
        final ReceiveLog log = new ReceiveLog(CAPACITY, MAX_MESSAGE, 100, new SegmentPool(budget, 64, 64));
        final UnsafeBuffer stream = StreamBytes.framedStream(200);
        for (int i = 0; i < 4; i++)
        {
            assertEquals(1, log.onData(10 + 10 * i, stream, 10 + 10 * i, 1, false));
        }
        assertEquals(ReceiveLog.MEMORY_REFUSED, log.onData(60, stream, 60, 1, false));
        assertEquals(ReceiveLog.NO_ERROR, log.protocolError(), "not the peer's fault: the packet is dropped");
        assertEquals(4, log.gapCount());

        assertEquals(10, log.onData(0, stream, 0, 10, false), "in-order data joins the prefix without a slot");
        assertEquals(11, log.contiguousEnd());
        assertEquals(1, log.onData(60, stream, 60, 1, false), "a freed slot takes the refused range now");
    }

    @Test
    void differentBytesForOffsetsAlreadyReceivedAreAMismatch()
    {
        final UnsafeBuffer stream = StreamBytes.framedStream(100, 100);
        final UnsafeBuffer altered = new UnsafeBuffer(new byte[stream.capacity()]);
        altered.putBytes(0, stream, 0, stream.capacity());
        altered.putByte(150, (byte)(stream.getByte(150) ^ 1));

        // Out of order and overlapping, identical bytes: fine.
        final ReceiveLog outOfOrder = new ReceiveLog(CAPACITY, MAX_MESSAGE);
        assertEquals(60, outOfOrder.onData(120, stream, 120, 60, false));
        assertEquals(20, outOfOrder.onData(100, stream, 100, 80, false));
        // An overlap beyond the contiguous end that differs in one byte.
        assertEquals(ReceiveLog.DATA_MISMATCH_ERROR, outOfOrder.onData(140, altered, 140, 30, false));
        assertEquals(ReceiveLog.DATA_MISMATCH_ERROR, outOfOrder.protocolError());

        // Below the contiguous end, not yet consumed by the application: still compared.
        final ReceiveLog contiguous = new ReceiveLog(CAPACITY, MAX_MESSAGE);
        assertEquals(200, contiguous.onData(0, stream, 0, 200, false));
        assertEquals(0, contiguous.onData(100, stream, 100, 100, false));
        assertEquals(ReceiveLog.DATA_MISMATCH_ERROR, contiguous.onData(145, altered, 145, 10, false));
    }

    @Test
    void bytesTheApplicationReleasedAreNotComparedAgain()
    {
        final UnsafeBuffer stream = StreamBytes.framedStream(100, 100);
        final UnsafeBuffer altered = new UnsafeBuffer(new byte[stream.capacity()]);
        altered.putBytes(0, stream, 0, stream.capacity());
        altered.putByte(50, (byte)(stream.getByte(50) ^ 1));

        final ReceiveLog log = new ReceiveLog(CAPACITY, MAX_MESSAGE);
        assertEquals(2 * (LENGTH_PREFIX_BYTES + 100), log.onData(0, stream, 0, stream.capacity(), false));
        assertEquals(2, log.poll(handler, 10));
        // The log wrapped over them since; a late duplicate is ignored, as it cannot be checked.
        final UnsafeBuffer next = StreamBytes.framedStream(100, 100, 200);
        final int start = stream.capacity();
        assertEquals(LENGTH_PREFIX_BYTES + 200, log.onData(start, next, start, LENGTH_PREFIX_BYTES + 200, false));
        assertEquals(0, log.onData(0, altered, 0, 100, false));
        assertEquals(ReceiveLog.NO_ERROR, log.protocolError());
    }

    @Test
    void shouldCountTheMessagesThatArrivedAndThoseTheApplicationRead()
    {
        final int[] lengths = { 5, 0, 17, 3 };
        final UnsafeBuffer stream = StreamBytes.framedStream(lengths);
        final int streamLength = stream.capacity();
        final ReceiveLog log = new ReceiveLog(CAPACITY, MAX_MESSAGE);

        assertEquals(streamLength - 2, log.onData(2, stream, 2, streamLength - 2, true), "all but the first bytes");
        assertEquals(0, log.messagesArrived(), "nothing contiguous yet");
        assertEquals(2, log.onData(0, stream, 0, 2, false));
        assertEquals(4, log.messagesArrived());

        assertEquals(2, log.poll((buffer, offset, length) -> { }, 2));
        assertEquals(2, log.consumedMessages());
        assertEquals(4 + 5 + 4, log.consumedHead());
        assertEquals(2, log.poll((buffer, offset, length) -> { }, 10));
        assertEquals(4, log.consumedMessages());
        assertTrue(log.isFinished());
    }

    @Test
    void shouldReassembleOutOfOrderOverlappingAndDuplicateFramesByteExact()
    {
        final Random random = new Random(7);
        final int[] lengths = new int[400];
        for (int i = 0; i < lengths.length; i++)
        {
            lengths[i] = random.nextInt(5) == 0 ? random.nextInt(1_000) : random.nextInt(40);
        }
        final UnsafeBuffer stream = StreamBytes.framedStream(lengths);
        final ReceiveLog log = new ReceiveLog(4096, 1_000);

        // Frames cover the stream window by window in random order with random overlaps and duplicates.
        final int windowBytes = 4096;
        long newBytes = 0;
        int delivered = 0;
        for (int windowStart = 0; windowStart < stream.capacity(); windowStart = (int)log.consumedHead())
        {
            final int windowEnd = (int)Math.min(stream.capacity(), log.consumedHead() + windowBytes);
            final List<int[]> frames = new ArrayList<>();
            int offset = (int)log.contiguousEnd();
            while (offset < windowEnd)
            {
                final int length = Math.min(1 + random.nextInt(300), windowEnd - offset);
                frames.add(new int[] { offset, length });
                if (random.nextInt(4) == 0)
                {
                    frames.add(new int[] { offset, length });
                }
                final int overlapStart = Math.max(0, offset - random.nextInt(50));
                frames.add(new int[] { overlapStart, Math.min(windowEnd, offset + length + 20) - overlapStart });
                offset += length;
            }
            Collections.shuffle(frames, random);
            for (final int[] frame : frames)
            {
                final int result = log.onData(frame[0], stream, frame[0], frame[1], false);
                assertTrue(result >= 0, "error " + result + " for frame at " + frame[0]);
                newBytes += result;
            }
            assertEquals(windowEnd, log.contiguousEnd());
            assertEquals(0, log.gapCount());
            delivered += log.poll(handler, Integer.MAX_VALUE);
        }

        assertEquals(stream.capacity(), newBytes, "every byte counted as new exactly once");
        assertEquals(lengths.length, delivered);
        assertEquals(lengths.length, handler.verifiedInOrder);
    }

    @Test
    void shouldDetectAnOversizedLengthPrefixAndStillDeliverTheMessagesBeforeIt()
    {
        final ReceiveLog log = new ReceiveLog(CAPACITY, 100);
        final UnsafeBuffer stream = StreamBytes.framedStream(10, 20);
        final UnsafeBuffer bad = new UnsafeBuffer(new byte[8]);
        bad.putInt(0, 101, ByteOrder.LITTLE_ENDIAN);

        // The bad prefix arrives first, out of order: it is validated only when it becomes contiguous.
        assertEquals(8, log.onData(stream.capacity(), bad, 0, 8, false));
        assertEquals(ReceiveLog.MESSAGE_FRAMING_ERROR, log.onData(0, stream, 0, stream.capacity(), false));
        assertEquals(ReceiveLog.MESSAGE_FRAMING_ERROR, log.protocolError());
        assertEquals(ReceiveLog.MESSAGE_FRAMING_ERROR, log.onData(100, stream, 0, 1, false), "sticky");

        assertEquals(2, log.poll(handler, 10));
        assertEquals(0, log.poll(handler, 10), "the application never sees the bad prefix");
        assertEquals(stream.capacity(), log.consumedHead());
    }

    @Test
    void shouldTreatANegativeLengthPrefixAsOversized()
    {
        final ReceiveLog log = new ReceiveLog(CAPACITY, 100);
        final UnsafeBuffer bad = new UnsafeBuffer(new byte[4]);
        bad.putInt(0, 0x8000_0000, ByteOrder.LITTLE_ENDIAN);
        assertEquals(ReceiveLog.MESSAGE_FRAMING_ERROR, log.onData(0, bad, 0, 4, false));
    }

    @Test
    void shouldRejectDataBeyondTheWindow()
    {
        final ReceiveLog log = new ReceiveLog(CAPACITY, MAX_MESSAGE);
        final UnsafeBuffer stream = StreamBytes.framedStream(100, 100, 100);

        assertEquals(CAPACITY - 10, log.onData(10, stream, 10, CAPACITY - 10, false), "up to the window edge");
        assertEquals(ReceiveLog.FLOW_CONTROL_ERROR, log.onData(CAPACITY, stream, CAPACITY, 1, false));

        final ReceiveLog consumed = new ReceiveLog(CAPACITY, MAX_MESSAGE);
        assertEquals(CAPACITY, consumed.onData(0, stream, 0, CAPACITY, false));
        assertEquals(2, consumed.poll(handler, 10));
        assertEquals(208, consumed.consumedHead());
        assertEquals(56, consumed.onData(CAPACITY, stream, CAPACITY, 56, false), "the window moved on");
        assertEquals(1, consumed.poll(handler, 10));

        final ReceiveLog negative = new ReceiveLog(CAPACITY, MAX_MESSAGE);
        assertEquals(ReceiveLog.FLOW_CONTROL_ERROR, negative.onData(-1, stream, 0, 1, false));
        assertEquals(ReceiveLog.FLOW_CONTROL_ERROR,
            new ReceiveLog(CAPACITY, MAX_MESSAGE).onData(Long.MAX_VALUE, stream, 0, 1, false));
    }

    @Test
    void shouldFixTheFinalSizeAndRejectViolationsOfIt()
    {
        final UnsafeBuffer stream = StreamBytes.framedStream(10, 20);
        final int size = stream.capacity();

        final ReceiveLog log = new ReceiveLog(CAPACITY, MAX_MESSAGE);
        assertEquals(10, log.onData(size - 10, stream, size - 10, 10, true));
        assertEquals(size, log.finalSize());
        assertEquals(0, log.onData(size, stream, 0, 0, true), "repeated FIN with the same size");
        assertEquals(size - 10, log.onData(0, stream, 0, size - 10, false));
        assertFalse(log.isFinished(), "not consumed yet");
        assertEquals(2, log.poll(handler, 10));
        assertTrue(log.isFinished());

        final ReceiveLog beyond = new ReceiveLog(CAPACITY, MAX_MESSAGE);
        assertEquals(10, beyond.onData(14, stream, 14, 10, true));
        assertEquals(ReceiveLog.FINAL_SIZE_ERROR, beyond.onData(20, stream, 20, 6, false));

        final ReceiveLog changed = new ReceiveLog(CAPACITY, MAX_MESSAGE);
        assertEquals(10, changed.onData(14, stream, 14, 10, true));
        assertEquals(ReceiveLog.FINAL_SIZE_ERROR, changed.onData(14, stream, 14, 8, true));

        final ReceiveLog belowReceived = new ReceiveLog(CAPACITY, MAX_MESSAGE);
        belowReceived.onData(20, stream, 20, 10, false);
        assertEquals(ReceiveLog.FINAL_SIZE_ERROR, belowReceived.onData(0, stream, 0, 10, true));
        assertEquals(30, belowReceived.highestReceived());
    }

    @Test
    void shouldReportAStreamThatEndsInsideAMessage()
    {
        final UnsafeBuffer stream = StreamBytes.framedStream(10, 20);
        final ReceiveLog log = new ReceiveLog(CAPACITY, MAX_MESSAGE);
        assertEquals(ReceiveLog.MESSAGE_FRAMING_ERROR, log.onData(0, stream, 0, 20, true));
        assertEquals(1, log.poll(handler, 10), "the complete first message is still delivered");

        final ReceiveLog empty = new ReceiveLog(CAPACITY, MAX_MESSAGE);
        assertEquals(0, empty.onData(0, stream, 0, 0, true));
        assertTrue(empty.isFinished(), "an empty stream is finished at once");
    }

    @Test
    void shouldLimitTheNumberOfGaps()
    {
        final UnsafeBuffer stream = StreamBytes.framedStream(200);
        final ReceiveLog log = new ReceiveLog(CAPACITY, MAX_MESSAGE, 3);
        assertEquals(1, log.onData(10, stream, 10, 1, false));
        assertEquals(1, log.onData(20, stream, 20, 1, false));
        assertEquals(1, log.onData(30, stream, 30, 1, false));
        assertEquals(3, log.gapCount());
        assertEquals(9, log.onData(11, stream, 11, 9, false), "closing a gap needs no slot");
        assertEquals(2, log.gapCount());
        assertEquals(1, log.onData(40, stream, 40, 1, false));
        assertEquals(ReceiveLog.REASSEMBLY_LIMIT_ERROR, log.onData(50, stream, 50, 1, false));
    }

    @Test
    void shouldLimitDeliveriesAndReleaseSpaceEvenIfTheHandlerThrows()
    {
        final UnsafeBuffer stream = StreamBytes.framedStream(1, 2, 3, 4);
        final ReceiveLog log = new ReceiveLog(CAPACITY, MAX_MESSAGE);
        log.onData(0, stream, 0, stream.capacity(), false);

        assertEquals(1, log.poll(handler, 1));
        assertEquals(5, log.consumedHead());

        final int[] calls = new int[1];
        final MessageHandler failing = (buffer, offset, length) ->
        {
            if (++calls[0] == 2)
            {
                throw new IllegalStateException("application failure");
            }
        };
        assertThrows(IllegalStateException.class, () -> log.poll(failing, 10));
        assertEquals(5 + 6 + 7, log.consumedHead(), "both messages handed over are released");
        assertEquals(1, log.poll(handler, 10));
        assertEquals(4, handler.lastLength);
    }

    @Test
    void shouldValidateConstruction()
    {
        assertThrows(IllegalArgumentException.class, () -> new ReceiveLog(100, 10));
        assertThrows(IllegalArgumentException.class, () -> new ReceiveLog(32, 10));
        assertThrows(IllegalArgumentException.class, () -> new ReceiveLog(CAPACITY, CAPACITY - 3));
        assertThrows(IllegalArgumentException.class, () -> new ReceiveLog(CAPACITY, 10, 0));
    }

    @Test
    void recordsAtEveryPlaceInASegmentGoThroughBothLogsByteExactAndInPlaceWhenTheyFitOne()
    {
        // 64-byte segments on both sides and records of 0-200 bytes, mostly small: a record starts at every index of
        // a segment, its prefix straddles a boundary or ends on it (the message then lies in the next segment), its
        // message fills the rest of a segment or spills over. Both logs keep their current segment between records
        // and look the table up only when a record leaves it.
        final Random random = new Random(11);
        final int[] lengths = recordLengths(random);
        final InPlaceChecker checker = new InPlaceChecker(lengths, TRANSFER_SEGMENT_BYTES);

        final long sendTail = transferThroughBothLogs(lengths, random, checker);

        assertTrue(checker.inPlaceAfterBoundaryPrefix > 50, "messages after a prefix that ends its segment: " +
            checker.inPlaceAfterBoundaryPrefix);
        assertTrue(checker.copied > 1000, "messages across a boundary, copied: " + checker.copied);
        assertTrue(sendTail > 1000L * TRANSFER_SEGMENT_BYTES);
    }

    @Test
    void aPartHandlerTakesEveryMessageThatSpansSegmentsInItsPartsInPlaceAndTheRestWhole()
    {
        // As above (64-byte segments, records of 0-200 bytes starting at every index of a segment), polled with a
        // handler that takes parts: a message within one segment still comes whole and in place, one that spans two
        // to four segments comes as one part per segment, each in place, in order, with no copy.
        final Random random = new Random(12);
        final int[] lengths = recordLengths(random);
        final PartsChecker checker = new PartsChecker(lengths, TRANSFER_SEGMENT_BYTES);

        transferThroughBothLogs(lengths, random, checker);

        assertTrue(checker.inParts > 1000, "messages across a boundary, in parts: " + checker.inParts);
        assertTrue(checker.inFourParts > 10, "messages over four segments: " + checker.inFourParts);
        assertTrue(checker.whole > 5_000, "messages within one segment, whole: " + checker.whole);
    }

    /**
     * @return 20,000 record lengths of 0-200 bytes, mostly under 70.
     */
    private static int[] recordLengths(final Random random)
    {
        final int[] lengths = new int[20_000];
        for (int i = 0; i < lengths.length; i++)
        {
            lengths[i] = random.nextInt(4) == 0 ? random.nextInt(201) : random.nextInt(70);
        }
        return lengths;
    }

    /**
     * Offers the records through a send log into a receive log, both of {@link #TRANSFER_SEGMENT_BYTES} segments, in
     * packets of random sizes, polling the receive log with the handler after each packet until the handler has every
     * record; what the receiver consumed is acknowledged, so the sender never runs beyond the receiver's window. Each
     * poll must count the messages it handed over, and the receive log must end without a protocol error.
     *
     * @return the send log's tail at the end.
     */
    private static long transferThroughBothLogs(final int[] lengths, final Random random, final CountingHandler handler)
    {
        final int capacity = 512;
        final MemoryBudget budget = new MemoryBudget(1L << 20);
        final SendLog sendLog = new SendLog(capacity, 200, new BudgetedSegments(budget, TRANSFER_SEGMENT_BYTES));
        sendLog.connectionSendLimit(Long.MAX_VALUE);
        sendLog.streamSendLimit(Long.MAX_VALUE);
        final ReceiveLog receiveLog =
            new ReceiveLog(capacity, 200, 100, new SegmentPool(budget, TRANSFER_SEGMENT_BYTES, 0));
        final UnsafeBuffer message = new UnsafeBuffer(new byte[200]);
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[128]);

        int offered = 0;
        while (handler.delivered() < lengths.length)
        {
            if (offered < lengths.length)
            {
                StreamBytes.fillPayload(message, 0, offered, lengths[offered]);
                if (sendLog.offer(message, 0, lengths[offered]) > 0)
                {
                    offered++;
                }
            }
            final long position = sendLog.nextSendPosition();
            final int bytes = (int)Math.min(1 + random.nextInt(packet.capacity()), sendLog.tailPosition() - position);
            if (bytes > 0)
            {
                sendLog.copyOut(position, bytes, packet, 0);
                sendLog.onSent(position, bytes, false);
                assertEquals(bytes, receiveLog.onData(position, packet, 0, bytes, false));
            }
            final int deliveredBefore = handler.delivered();
            final int count = receiveLog.poll(handler, 1 + random.nextInt(4));
            assertEquals(count, handler.delivered() - deliveredBefore, "messages the poll counted");
            // Acknowledged as consumed, so the sender never runs beyond the receiver's window.
            final long consumed = receiveLog.consumedHead();
            sendLog.onRangeAcked(sendLog.ackedHead(), (int)(consumed - sendLog.ackedHead()), false);
        }

        assertEquals(ReceiveLog.NO_ERROR, receiveLog.protocolError());
        assertEquals(lengths.length, receiveLog.messagesArrived());
        return sendLog.tailPosition();
    }

    /**
     * A handler that checks the records of {@link #transferThroughBothLogs} in order: their lengths, their segments'
     * size, and how many it was handed whole (or, taking parts, the last part of).
     */
    private abstract static class CountingHandler implements MessageHandler
    {
        final int[] lengths;
        final int segmentBytes;
        int delivered;

        CountingHandler(final int[] lengths, final int segmentBytes)
        {
            this.lengths = lengths;
            this.segmentBytes = segmentBytes;
        }

        final int delivered()
        {
            return delivered;
        }
    }

    /**
     * Checks every message in order against {@link StreamBytes}, and that a message lying within one segment is handed
     * out in place (a segment) and only one that spans two is copied (the log's scratch buffer: the one the first
     * such message came in).
     */
    private static final class InPlaceChecker extends CountingHandler
    {
        int copied;
        int inPlaceAfterBoundaryPrefix;
        private long position;
        private DirectBuffer scratch;

        InPlaceChecker(final int[] lengths, final int segmentBytes)
        {
            super(lengths, segmentBytes);
        }

        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            assertEquals(lengths[delivered], length, "length of message " + delivered);
            assertTrue(StreamBytes.isPayload(buffer, offset, delivered, length), "bytes of message " + delivered);
            final long messageStart = position + LENGTH_PREFIX_BYTES;
            final boolean withinOneSegment = messageStart % segmentBytes + length <= segmentBytes;
            if (length > 0)
            {
                if (null == scratch && !withinOneSegment)
                {
                    scratch = buffer;
                }
                if (null != scratch)
                {
                    assertEquals(withinOneSegment, buffer != scratch, "in place, message " + delivered);
                }
            }
            copied += buffer == scratch ? 1 : 0;
            if (length > 0 && 0 == messageStart % segmentBytes)
            {
                inPlaceAfterBoundaryPrefix++;
            }
            position = messageStart + length;
            delivered++;
        }
    }

    /**
     * Checks every message in order against {@link StreamBytes}: one within a segment handed over whole, one that spans
     * segments as one part per segment, each part the segment itself (a 64-byte buffer: nothing was copied) and the
     * parts in order, non-empty and adding up to the message.
     */
    private static final class PartsChecker extends CountingHandler implements MessagePartHandler
    {
        private final UnsafeBuffer assembled = new UnsafeBuffer(new byte[200]);
        int whole;
        int inParts;
        int inFourParts;
        private int partsOfMessage;
        private int assembledLength;
        private long position;

        PartsChecker(final int[] lengths, final int segmentBytes)
        {
            super(lengths, segmentBytes);
        }

        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            assertEquals(lengths[delivered], length, "length of message " + delivered);
            assertEquals(0, partsOfMessage, "a whole message after unfinished parts");
            final long messageStart = position + LENGTH_PREFIX_BYTES;
            assertTrue(0 == length || messageStart % segmentBytes + length <= segmentBytes,
                "message " + delivered + " spans segments but came whole");
            assertTrue(0 == length || segmentBytes == buffer.capacity(), "in place, message " + delivered);
            assertTrue(StreamBytes.isPayload(buffer, offset, delivered, length), "bytes of message " + delivered);
            whole++;
            position = messageStart + length;
            delivered++;
        }

        public void onMessagePart(
            final DirectBuffer buffer, final int offset, final int length, final int messageOffset,
            final int messageLength)
        {
            assertEquals(lengths[delivered], messageLength, "length of message " + delivered);
            final long messageStart = position + LENGTH_PREFIX_BYTES;
            assertTrue(messageStart % segmentBytes + messageLength > segmentBytes,
                "message " + delivered + " lies in one segment but came in parts");
            assertTrue(length > 0, "an empty part");
            assertEquals(segmentBytes, buffer.capacity(), "a part in place, message " + delivered);
            assertEquals((messageStart + messageOffset) % segmentBytes, offset, "where the part lies in its segment");
            assertTrue(0 == offset || 0 == messageOffset, "a part after the first starts its segment");
            assertTrue(offset + length == segmentBytes || messageOffset + length == messageLength,
                "a part before the last ends its segment");
            assertEquals(assembledLength, messageOffset, "parts in order");
            assembled.putBytes(messageOffset, buffer, offset, length);
            partsOfMessage++;
            if (messageOffset + length == messageLength)
            {
                assertTrue(StreamBytes.isPayload(assembled, 0, delivered, messageLength),
                    "bytes of message " + delivered);
                inParts++;
                inFourParts += 4 == partsOfMessage ? 1 : 0;
                partsOfMessage = 0;
                assembledLength = 0;
                position = messageStart + messageLength;
                delivered++;
            }
            else
            {
                assembledLength = messageOffset + length;
            }
        }
    }

    /**
     * Checks each message against {@link StreamBytes} in order of arrival.
     */
    private static final class RecordingHandler implements MessageHandler
    {
        int verifiedInOrder;
        int lastLength = -1;
        boolean lastWasScratch;
        private int lastSequence = -1;
        private boolean lastOk;

        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            lastSequence++;
            lastLength = length;
            // The log is direct memory; the scratch buffer for wrapped messages is a heap array.
            lastWasScratch = null != buffer.byteArray();
            lastOk = StreamBytes.isPayload(buffer, offset, lastSequence, length);
            if (lastOk)
            {
                verifiedInOrder++;
            }
        }

        boolean lastMatches(final int sequence)
        {
            return lastOk && sequence == lastSequence;
        }
    }
}
