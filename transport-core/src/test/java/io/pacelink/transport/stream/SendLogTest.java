package io.pacelink.transport.stream;

import io.pacelink.transport.memory.BudgetedSegments;
import io.pacelink.transport.memory.MemoryBudget;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.pacelink.transport.stream.SendLog.LENGTH_PREFIX_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SendLogTest
{
    private static final int CAPACITY = 256;
    private static final int MAX_MESSAGE = CAPACITY - LENGTH_PREFIX_BYTES;

    private final UnsafeBuffer message = new UnsafeBuffer(new byte[MAX_MESSAGE]);
    private final UnsafeBuffer packet = new UnsafeBuffer(new byte[4096]);

    @Test
    void segmentsAreCommittedAsTheStreamReachesThemAndCreditedOnClose()
    {
        final MemoryBudget budget = new MemoryBudget(3 * 64);
        final SendLog log = new SendLog(CAPACITY, MAX_MESSAGE, new BudgetedSegments(budget, 64));
        assertEquals(0, budget.committedBytes(), "an idle log holds no segment");

        assertTrue(log.offer(message, 0, 10) > 0);
        assertEquals(64, budget.committedBytes());
        assertTrue(log.offer(message, 0, 100) > 0);
        assertEquals(2 * 64, budget.committedBytes());
        assertEquals(2 * 64, log.committedBytes());

        // The record would reach a fourth segment the budget cannot hold: back-pressure, not failure.
        assertEquals(OfferResult.BACK_PRESSURED, log.offer(message, 0, 100));
        assertEquals(3 * 64, budget.committedBytes(), "the third segment stays for the next try");

        log.releaseMemory();
        assertEquals(0, budget.committedBytes());
        assertEquals(OfferResult.CLOSED, log.offer(message, 0, 1));
        log.releaseMemory();
        assertEquals(0, budget.committedBytes(), "idempotent");
    }

    /**
     * A range within one direct segment is handed out in place, with its index; one across two segments, or in a
     * heap segment, is not (it is copied); a range outside the log is refused as {@code copyOut} refuses it.
     */
    @Test
    void aRangeWithinOneDirectSegmentIsHandedOutInPlace()
    {
        final SendLog direct = new SendLog(CAPACITY, MAX_MESSAGE, CAPACITY,
            new BudgetedSegments(MemoryBudget.unlimited(), 64, true));
        final SendLog heap = new SendLog(CAPACITY, MAX_MESSAGE, CAPACITY,
            new BudgetedSegments(MemoryBudget.unlimited(), 64, false));
        for (int i = 0; i < 100; i++)
        {
            message.putByte(i, (byte)(i + 1));
        }
        assertTrue(direct.offer(message, 0, 100) > 0);
        assertTrue(heap.offer(message, 0, 100) > 0);

        final UnsafeBuffer segment = direct.segmentInPlace(LENGTH_PREFIX_BYTES, 50);
        assertTrue(null != segment && null == segment.byteArray(), "direct memory");
        assertEquals(LENGTH_PREFIX_BYTES, direct.indexInSegment(LENGTH_PREFIX_BYTES));
        for (int i = 0; i < 50; i++)
        {
            assertEquals(i + 1, segment.getByte(LENGTH_PREFIX_BYTES + i));
        }
        final UnsafeBuffer second = direct.segmentInPlace(64, 40);
        assertTrue(null != second && second != segment, "the next segment");
        assertEquals(0, direct.indexInSegment(64));
        assertEquals(64 - LENGTH_PREFIX_BYTES + 1, second.getByte(0));
        assertEquals(null, direct.segmentInPlace(60, 10), "across two segments");
        assertEquals(null, heap.segmentInPlace(LENGTH_PREFIX_BYTES, 50), "a heap segment");
        assertThrows(IllegalArgumentException.class, () -> direct.segmentInPlace(100, 10), "beyond the tail");
    }

    @Test
    void aLogOfSmallMessagesAcknowledgedAsTheyGoCyclesThroughTwoSegments()
    {
        // The default shape: 32 MiB of log in 64-KiB segments. 200,000 records of 36 bytes walk 7.2 MB of stream,
        // 110 segments: committed once per table slot they would all be held, and allocated on the offering thread.
        final int segmentBytes = 64 * 1024;
        final MemoryBudget budget = new MemoryBudget(1L << 30);
        final SendLog log = new SendLog(32 << 20, 1024, new BudgetedSegments(budget, segmentBytes));
        log.connectionSendLimit(Long.MAX_VALUE);
        log.streamSendLimit(Long.MAX_VALUE);

        long mostCommittedBytes = 0;
        for (int sequence = 0; sequence < 200_000; sequence++)
        {
            StreamBytes.fillPayload(message, 0, sequence, 32);
            final long position = log.nextSendPosition();
            assertEquals(position + LENGTH_PREFIX_BYTES + 32, log.offer(message, 0, 32));
            log.copyOut(position, LENGTH_PREFIX_BYTES + 32, packet, 0);
            assertEquals(32, packet.getInt(0, ByteOrder.LITTLE_ENDIAN), "record " + sequence);
            assertTrue(StreamBytes.isPayload(packet, LENGTH_PREFIX_BYTES, sequence, 32), "record " + sequence);
            log.onSent(position, LENGTH_PREFIX_BYTES + 32, false);
            log.onRangeAcked(position, LENGTH_PREFIX_BYTES + 32, false);
            mostCommittedBytes = Math.max(mostCommittedBytes, budget.committedBytes());
        }

        assertTrue(log.tailPosition() > 100L * segmentBytes);
        assertEquals(2L * segmentBytes, mostCommittedBytes, "the segment the head is in and the one the tail entered");
        assertEquals(budget.committedBytes(), log.committedBytes());
        log.releaseMemory();
        assertEquals(0, budget.committedBytes(), "spares are credited on close with the rest");
    }

    @Test
    void segmentsHoldingUnacknowledgedBytesAreNeverReusedAndStayByteExact()
    {
        // Eight slots of 64-byte segments over a 448-byte log. The peer acknowledges in bursts that trail the tail
        // by up to the whole capacity and stop anywhere inside a segment, so a segment is reused only once every
        // byte in it is acknowledged, and a slot's previous segment is taken out while the live one a lap further on
        // shares its number modulo the slots.
        final int capacity = 512;
        final int segmentBytes = 64;
        final MemoryBudget budget = new MemoryBudget(1L << 20);
        final SendLog log = new SendLog(capacity, 200, new BudgetedSegments(budget, segmentBytes));
        log.connectionSendLimit(Long.MAX_VALUE);
        log.streamSendLimit(Long.MAX_VALUE);
        final Random random = new Random(7);
        final int[] lengths = new int[20_000];
        for (int i = 0; i < lengths.length; i++)
        {
            lengths[i] = random.nextInt(4) == 0 ? random.nextInt(201) : random.nextInt(24);
        }
        final UnsafeBuffer expected = StreamBytes.framedStream(lengths);

        int sequence = 0;
        while (sequence < lengths.length)
        {
            StreamBytes.fillPayload(message, 0, sequence, lengths[sequence]);
            if (log.offer(message, 0, lengths[sequence]) > 0)
            {
                sequence++;
                sendAll(log, 50);
            }
            // Every byte not yet acknowledged is still what was offered, wherever the segments came from.
            final long head = log.ackedHead();
            final int unacked = (int)(log.tailPosition() - head);
            log.copyOut(head, unacked, packet, 0);
            assertEquals(0, new UnsafeBuffer(packet, 0, unacked).compareTo(
                new UnsafeBuffer(expected, (int)head, unacked)), "unacknowledged bytes at " + head);
            assertTrue(budget.committedBytes() <= (capacity / segmentBytes + 1L) * segmentBytes);

            if (random.nextInt(3) == 0 || log.tailPosition() - head > capacity - 204)
            {
                final long target = head + random.nextInt((int)(log.nextSendPosition() - head) + 1);
                log.onRangeAcked(head, (int)(target - head), false);
            }
        }
        assertTrue(log.tailPosition() > 1000L * segmentBytes, "a thousand segments of stream through nine slots");
    }

    @Test
    void shouldFrameMessagesByteExactAcrossTheWrap()
    {
        final SendLog log = new SendLog(CAPACITY, MAX_MESSAGE);
        log.connectionSendLimit(Long.MAX_VALUE);
        log.streamSendLimit(Long.MAX_VALUE);
        final int[] lengths = { 0, 1, CAPACITY / 2, MAX_MESSAGE, 7, 1, 0, MAX_MESSAGE, CAPACITY / 2, 13, 1, 1, 2,
            MAX_MESSAGE, 0, 0, 0, 3, CAPACITY / 2, CAPACITY / 2 - 5, MAX_MESSAGE, 1, 0, 77, MAX_MESSAGE };
        final UnsafeBuffer expected = StreamBytes.framedStream(lengths);
        final UnsafeBuffer sent = new UnsafeBuffer(new byte[expected.capacity()]);

        long expectedTail = 0;
        for (int sequence = 0; sequence < lengths.length; sequence++)
        {
            StreamBytes.fillPayload(message, 0, sequence, lengths[sequence]);
            expectedTail += LENGTH_PREFIX_BYTES + lengths[sequence];
            assertEquals(expectedTail, log.offer(message, 0, lengths[sequence]), "message " + sequence);

            // Transmit in 50-byte packets straight out of the log, then acknowledge everything.
            while (log.sendableBytes() > 0)
            {
                final long position = log.nextSendPosition();
                final int length = (int)Math.min(50, log.sendableBytes());
                log.copyOut(position, length, sent, (int)position);
                log.onSent(position, length, false);
                log.onRangeAcked(position, length, false);
            }
            assertEquals(expectedTail, log.ackedHead());
        }

        assertTrue(expectedTail > 7L * CAPACITY, "wrapped seven times");
        assertEquals(0, expected.compareTo(sent));
        assertTrue(log.isFullyAcked());
    }

    @Test
    void shouldBackPressureExactlyAtCapacity()
    {
        final SendLog log = new SendLog(64, 60);
        assertEquals(64, log.offer(message, 0, 60));
        assertEquals(OfferResult.BACK_PRESSURED, log.offer(message, 0, 0));

        sendAll(log, Integer.MAX_VALUE);
        log.onRangeAcked(0, 3, false);
        assertEquals(OfferResult.BACK_PRESSURED, log.offer(message, 0, 0), "3 bytes freed, a record needs 4");
        log.onRangeAcked(3, 1, false);
        assertEquals(68, log.offer(message, 0, 0));
        assertEquals(OfferResult.BACK_PRESSURED, log.offer(message, 0, 0));

        log.onRangeAcked(4, 60, false);
        assertEquals(68 + 28, log.offer(message, 0, 24));
        assertEquals(68 + 28 + 32, log.offer(message, 0, 28));
        assertEquals(OfferResult.BACK_PRESSURED, log.offer(message, 0, 1));
        assertEquals(64, log.tailPosition() - log.ackedHead());
    }

    @Test
    void shouldCountOnlyTheMessagesThatMadeItIntoTheStream()
    {
        final SendLog log = new SendLog(64, 60);
        assertEquals(8, log.offer(message, 0, 4));
        assertEquals(OfferResult.BACK_PRESSURED, log.offer(message, 0, 60));
        assertEquals(OfferResult.MAX_MESSAGE_LENGTH_EXCEEDED, log.offer(message, 0, 61));
        assertEquals(12, log.offer(message, 0, 0));
        log.finish();
        assertEquals(OfferResult.CLOSED, log.offer(message, 0, 1));

        assertEquals(2, log.messagesOffered());
        assertEquals(4, SendLog.applicationBytes(log.tailPosition(), log.messagesOffered()), "without the prefixes");
    }

    @Test
    void shouldRejectMessagesAboveTheMaximumLength()
    {
        final SendLog log = new SendLog(CAPACITY, 100);
        assertEquals(OfferResult.MAX_MESSAGE_LENGTH_EXCEEDED, log.offer(message, 0, 101));
        assertEquals(104, log.offer(message, 0, 100));
        assertThrows(IllegalArgumentException.class, () -> log.offer(message, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> new SendLog(CAPACITY, CAPACITY - 3));
        assertThrows(IllegalArgumentException.class, () -> new SendLog(1000, 100));
    }

    @Test
    void shouldRequeueLostRangesMergedAndSkipAcknowledgedBytes()
    {
        final SendLog log = new SendLog(1024, 1000);
        offerRecords(log, 3, 96);
        sendAll(log, 100);
        assertEquals(300, log.nextSendPosition());

        log.onRangeAcked(100, 100, false);
        assertEquals(0, log.ackedHead(), "a hole at the start keeps the head");
        assertEquals(1, log.ackedRangeCount());

        log.onRangeLost(200, 100, false);
        log.onRangeLost(0, 100, false);
        assertTrue(log.hasRetransmission());
        assertEquals(0, log.retransmitOffset(), "ordered by offset, not by loss order");
        assertEquals(60, log.retransmitLength(60));
        log.copyOut(0, 60, packet, 0);
        log.onRetransmitted(0, 60, false);
        assertEquals(60, log.retransmitOffset());
        assertEquals(40, log.retransmitLength(1000));

        // The retransmission of [0, 60) is lost too, with the original of [50, 250): [100, 200) was acknowledged.
        log.onRangeLost(50, 200, false);
        assertEquals(50, log.retransmitOffset());
        assertEquals(50, log.retransmitLength(1000), "[50, 100) merged, [100, 200) skipped");
        assertEquals(150, log.retransmitBytes());

        // A late acknowledgement of the original [0, 100) removes it from the queue: the loss was spurious.
        log.onRangeAcked(0, 100, false);
        assertEquals(200, log.ackedHead());
        assertEquals(0, log.ackedRangeCount());
        assertEquals(200, log.retransmitOffset());
        assertEquals(100, log.retransmitBytes());

        // Losses below the head or beyond what was sent are ignored.
        log.onRangeLost(0, 150, false);
        log.onRangeLost(280, 500, false);
        assertEquals(100, log.retransmitBytes());

        log.onRangeAcked(200, 100, false);
        log.onRangeAcked(200, 100, false);
        assertFalse(log.hasRetransmission());
        assertEquals(300, log.ackedHead());
        assertTrue(log.isFullyAcked());
    }

    @Test
    void shouldAcknowledgeIdempotentlyAndAdvanceOnlyOverTheContiguousPrefix()
    {
        final SendLog log = new SendLog(1024, 1000);
        offerRecords(log, 10, 96);
        sendAll(log, 100);

        log.onRangeAcked(500, 100, false);
        log.onRangeAcked(300, 100, false);
        log.onRangeAcked(500, 100, false);
        log.onRangeAcked(550, 100, false);
        assertEquals(0, log.ackedHead());
        assertEquals(2, log.ackedRangeCount());

        log.onRangeAcked(0, 300, false);
        assertEquals(400, log.ackedHead());
        log.onRangeAcked(0, 400, false);
        assertEquals(400, log.ackedHead());
        log.onRangeAcked(400, 100, false);
        assertEquals(650, log.ackedHead());
        assertEquals(0, log.ackedRangeCount());

        log.onRangeAcked(900, 5_000, false);
        log.onRangeAcked(650, 250, false);
        assertEquals(1000, log.ackedHead(), "positions never sent are not acknowledged");
        assertTrue(log.isFullyAcked());
    }

    @Test
    void shouldSendNewDataOnlyBelowTheFlowControlLimit()
    {
        final SendLog log = new SendLog(1024, 1000);
        offerRecords(log, 4, 96);
        assertEquals(0, log.sendableBytes());
        assertTrue(log.isBlockedByFlowControl());
        assertTrue(log.hasUnsentData());

        log.connectionSendLimit(250);
        assertEquals(0, log.sendableBytes(), "the stream credit is still 0");
        log.streamSendLimit(1_000);
        assertEquals(250, log.sendLimit());
        assertEquals(250, log.sendableBytes());
        assertFalse(log.isBlockedByFlowControl());

        log.connectionSendLimit(100);
        assertEquals(250, log.sendLimit(), "credit never shrinks");

        log.copyOut(0, 250, packet, 0);
        log.onSent(0, 250, false);
        assertEquals(0, log.sendableBytes());
        assertTrue(log.isBlockedByFlowControl());

        log.connectionSendLimit(10_000);
        assertEquals(150, log.sendableBytes(), "limited by the data offered");
        log.onSent(250, 150, false);
        assertFalse(log.isBlockedByFlowControl());
        assertFalse(log.hasUnsentData());
    }

    @Test
    void shouldCarryFinOnTheFrameEndingAtTheFinalPosition()
    {
        final SendLog log = openLog();
        assertEquals(14, log.offer(message, 0, 10));
        log.finish();
        assertTrue(log.isFinished());
        assertEquals(14, log.finalPosition());
        assertEquals(OfferResult.CLOSED, log.offer(message, 0, 1));
        assertEquals(14, log.tailPosition());
        assertFalse(log.isFinPending(), "the FIN rides on the data");

        log.onSent(0, 14, true);
        assertFalse(log.isFinPending());
        assertFalse(log.isFullyAcked());

        log.onRangeLost(0, 14, true);
        assertEquals(0, log.retransmitOffset());
        assertEquals(14, log.retransmitLength(100));
        log.onRetransmitted(0, 14, true);
        assertFalse(log.hasRetransmission());

        log.onRangeAcked(0, 14, true);
        assertTrue(log.isFullyAcked());
    }

    @Test
    void shouldSendAnEmptyFinFrameWhenFinishedAfterAllDataWasSentAndResendItWhenLost()
    {
        final SendLog log = openLog();
        log.offer(message, 0, 10);
        log.onSent(0, 14, false);
        log.onRangeAcked(0, 14, false);
        assertTrue(log.isFullyAcked());

        log.finish();
        log.finish();
        assertEquals(14, log.finalPosition());
        assertTrue(log.isFinPending());
        assertFalse(log.isFullyAcked(), "the FIN is not acknowledged");

        log.copyOut(14, 0, packet, 0);
        log.onSent(14, 0, true);
        assertFalse(log.isFinPending());

        log.onRangeLost(14, 0, true);
        assertTrue(log.hasRetransmission());
        assertEquals(14, log.retransmitOffset());
        assertEquals(0, log.retransmitLength(100));
        log.onRetransmitted(14, 0, true);
        assertFalse(log.hasRetransmission());

        log.onRangeAcked(14, 0, true);
        assertTrue(log.isFullyAcked());
        log.onRangeLost(14, 0, true);
        assertFalse(log.hasRetransmission(), "a FIN already acknowledged is not resent");
    }

    @Test
    void shouldResendTheFinAloneWhenItsBytesWereAcknowledgedWithoutIt()
    {
        final SendLog log = openLog();
        log.offer(message, 0, 10);
        log.onSent(0, 8, false);
        log.finish();
        log.onSent(8, 6, true);

        // The FIN frame is lost, then its bytes turn out to be acknowledged by a copy sent without FIN.
        log.onRangeLost(8, 6, true);
        assertEquals(8, log.retransmitOffset());
        log.onRangeAcked(0, 14, false);
        assertTrue(log.hasRetransmission());
        assertEquals(14, log.retransmitOffset());
        assertEquals(0, log.retransmitLength(100));
        assertFalse(log.isFullyAcked());

        log.onRetransmitted(14, 0, true);
        log.onRangeAcked(14, 0, true);
        assertTrue(log.isFullyAcked());
    }

    @Test
    void shouldRejectInconsistentSendReports()
    {
        final SendLog log = openLog();
        log.offer(message, 0, 10);
        assertThrows(IllegalArgumentException.class, () -> log.onSent(1, 4, false), "not in order");
        assertThrows(IllegalArgumentException.class, () -> log.onSent(0, 15, false), "beyond the tail");
        assertThrows(IllegalArgumentException.class, () -> log.onSent(0, 14, true), "FIN before finish");
        assertThrows(IllegalArgumentException.class, () -> log.copyOut(0, 15, packet, 0));
        log.onSent(0, 14, false);
        log.onRangeAcked(0, 14, false);
        assertThrows(IllegalArgumentException.class, () -> log.copyOut(0, 1, packet, 0), "already acknowledged");
    }

    @Test
    void shouldNeverAcceptAnOfferBeyondTheFinalPositionWhenFinishRaces() throws InterruptedException
    {
        for (int round = 0; round < 20; round++)
        {
            final SendLog log = new SendLog(1 << 16, 100);
            final AtomicLong lastAccepted = new AtomicLong();
            final AtomicLong offers = new AtomicLong();
            final Thread producer = new Thread(() ->
            {
                final UnsafeBuffer payload = new UnsafeBuffer(new byte[8]);
                final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (System.nanoTime() < deadlineNs)
                {
                    final long result = log.offer(payload, 0, 8);
                    offers.incrementAndGet();
                    if (OfferResult.CLOSED == result)
                    {
                        return;
                    }
                    if (result > 0)
                    {
                        lastAccepted.set(result);
                    }
                }
            });
            producer.start();
            while (offers.get() < 100 * (round + 1) && producer.isAlive())
            {
                Thread.onSpinWait();
            }
            log.finish();
            producer.join(TimeUnit.SECONDS.toMillis(20));

            assertFalse(producer.isAlive());
            assertEquals(lastAccepted.get(), log.finalPosition(), "round " + round);
            assertEquals(log.finalPosition(), log.tailPosition());
        }
    }

    @Test
    void anOfferIsAcceptedWhileFewerBytesThanTheMarkWaitUnsentAndBackPressuredFromTheMarkOn()
    {
        // Records of 20 + 4 bytes against a mark of 100: accepted at 0, 24, 48, 72 and 96 unsent bytes (each below
        // the mark, the last one taking the unsent bytes past it to 120), refused at 120.
        final SendLog log = new SendLog(1024, 512, 100);
        log.connectionSendLimit(Long.MAX_VALUE);
        log.streamSendLimit(Long.MAX_VALUE);
        offerRecords(log, 5, 20);
        assertEquals(120, log.tailPosition());
        assertEquals(OfferResult.BACK_PRESSURED, log.offer(message, 0, 20));
        assertEquals(OfferResult.BACK_PRESSURED, log.offer(message, 0, 0), "an empty message too");
        assertEquals(120, log.tailPosition(), "a refused offer writes nothing");

        // 20 sent: 100 unsent, exactly the mark, still refused; one more byte sent, 99, accepted.
        sendBytes(log, 20);
        assertEquals(OfferResult.BACK_PRESSURED, log.offer(message, 0, 20), "at the mark");
        sendBytes(log, 1);
        assertEquals(144, log.offer(message, 0, 20), "one byte below the mark");
        assertEquals(OfferResult.BACK_PRESSURED, log.offer(message, 0, 20));
    }

    @Test
    void bytesInFlightDoNotCountAgainstTheMarkButTheCapacityStillBoundsThem()
    {
        final SendLog log = new SendLog(256, 200, 64);
        log.connectionSendLimit(Long.MAX_VALUE);
        log.streamSendLimit(Long.MAX_VALUE);
        long offered = 0;
        while (true)
        {
            final long result = log.offer(message, 0, 28);
            if (OfferResult.BACK_PRESSURED != result)
            {
                assertTrue(result > 0);
                offered++;
                continue;
            }
            if (log.hasUnsentData())
            {
                // The mark refused: send everything, nothing acknowledged, and offer again.
                sendAll(log, 100);
                continue;
            }
            break;
        }
        // 256 bytes of capacity hold eight 32-byte records, all sent and unacknowledged: the capacity refused.
        assertEquals(8, offered);
        assertEquals(256, log.nextSendPosition() - log.ackedHead(), "a capacity in flight, more than the mark");
        log.onRangeAcked(0, 32, false);
        assertEquals(288, log.offer(message, 0, 28), "an acknowledgement makes room again");
    }

    @Test
    void bytesFlowControlHoldsBackCountAsUnsent()
    {
        final SendLog log = new SendLog(1024, 512, 64);
        log.connectionSendLimit(0);
        log.streamSendLimit(0);
        offerRecords(log, 2, 28);
        assertEquals(0, log.sendableBytes());
        assertEquals(OfferResult.BACK_PRESSURED, log.offer(message, 0, 28),
            "64 bytes wait for credit: the mark holds, as Linux counts bytes the peer's window holds back");
        log.connectionSendLimit(32);
        log.streamSendLimit(32);
        sendAll(log, 100);
        assertEquals(96, log.offer(message, 0, 28), "credit for one record, sent: 32 unsent, below the mark");
    }

    @Test
    void aMessageLongerThanTheMarkIsAcceptedWholeWhenItStartsBelowTheMark()
    {
        final SendLog log = new SendLog(1024, 512, 64);
        log.connectionSendLimit(Long.MAX_VALUE);
        log.streamSendLimit(Long.MAX_VALUE);
        StreamBytes.fillPayload(message, 0, 7, 200);
        assertEquals(204, log.offer(message, 0, 200), "nothing unsent: a message of three marks goes in");
        assertEquals(OfferResult.BACK_PRESSURED, log.offer(message, 0, 1));

        sendBytes(log, 140);
        assertEquals(OfferResult.BACK_PRESSURED, log.offer(message, 0, 200), "64 unsent: at the mark");
        sendBytes(log, 1);
        assertEquals(408, log.offer(message, 0, 200), "63 unsent: the next one goes in whole");

        log.copyOut(0, 204, packet, 0);
        assertEquals(200, packet.getInt(0, ByteOrder.LITTLE_ENDIAN));
        assertTrue(StreamBytes.isPayload(packet, LENGTH_PREFIX_BYTES, 7, 200), "written whole and unchanged");
    }

    @Test
    void theSmallestMarkLetsOneRecordWaitAtATime()
    {
        final SendLog log = new SendLog(256, 200, 1);
        log.connectionSendLimit(Long.MAX_VALUE);
        log.streamSendLimit(Long.MAX_VALUE);
        for (int i = 0; i < 100; i++)
        {
            assertTrue(log.offer(message, 0, 10) > 0, "record " + i);
            assertEquals(OfferResult.BACK_PRESSURED, log.offer(message, 0, 10), "record " + i);
            sendAll(log, 100);
            log.onRangeAcked(log.ackedHead(), (int)(log.nextSendPosition() - log.ackedHead()), false);
        }
        assertEquals(1400, log.tailPosition());
    }

    @Test
    void aMarkAtOrAboveTheCapacityRefusesExactlyWhatTheCapacityRefuses()
    {
        for (final int mark : new int[] {CAPACITY, CAPACITY + 1, Integer.MAX_VALUE})
        {
            final SendLog marked = new SendLog(CAPACITY, MAX_MESSAGE, mark);
            final SendLog unmarked = openLog();
            marked.connectionSendLimit(Long.MAX_VALUE);
            marked.streamSendLimit(Long.MAX_VALUE);
            final Random random = new Random(mark);
            for (int step = 0; step < 2_000; step++)
            {
                final int action = random.nextInt(4);
                if (action < 2)
                {
                    final int length = random.nextInt(80);
                    assertEquals(unmarked.offer(message, 0, length), marked.offer(message, 0, length),
                        "mark " + mark + " step " + step);
                }
                else if (2 == action)
                {
                    sendAll(marked, 60);
                    sendAll(unmarked, 60);
                }
                else if (marked.nextSendPosition() > marked.ackedHead())
                {
                    final int length = (int)(marked.nextSendPosition() - marked.ackedHead());
                    marked.onRangeAcked(marked.ackedHead(), length, false);
                    unmarked.onRangeAcked(unmarked.ackedHead(), length, false);
                }
            }
            assertEquals(unmarked.tailPosition(), marked.tailPosition());
            assertTrue(marked.tailPosition() > 10 * CAPACITY, "the logs wrapped many times");
        }
    }

    @Test
    void withAMarkTheLogCommitsSegmentsOnlyAsWhatIsInFlightGrows()
    {
        // 1 MiB of log in 64-KiB segments, a mark of 128 KiB: a producer that always offers commits segments for
        // what is in flight plus the mark, not for the whole capacity; more only when what is in flight grows, and
        // never more than the capacity. Once it stops growing, no segment is committed again: the acknowledged
        // ones are reused.
        final int segmentBytes = 64 * 1024;
        final MemoryBudget budget = new MemoryBudget(1L << 30);
        final SendLog log = new SendLog(1 << 20, 1024, 128 * 1024, new BudgetedSegments(budget, segmentBytes));
        log.connectionSendLimit(Long.MAX_VALUE);
        log.streamSendLimit(Long.MAX_VALUE);
        final UnsafeBuffer kilobyte = new UnsafeBuffer(new byte[1020]);

        long committedAtInFlight = 0;
        for (final int inFlightBytes : new int[] {64 * 1024, 256 * 1024, 512 * 1024, 4 << 20})
        {
            for (int round = 0; round < 200; round++)
            {
                while (log.offer(kilobyte, 0, kilobyte.capacity()) > 0)
                {
                    assertTrue(log.tailPosition() - log.nextSendPosition() <= 128 * 1024 + 1024, "the mark holds");
                }
                sendAll(log, 4096);
                // The peer acknowledges all but the last inFlightBytes (or what the capacity let in).
                final long ackTo = Math.max(log.ackedHead(), log.nextSendPosition() - inFlightBytes);
                if (ackTo > log.ackedHead())
                {
                    log.onRangeAcked(log.ackedHead(), (int)(ackTo - log.ackedHead()), false);
                }
                if (100 == round)
                {
                    committedAtInFlight = budget.committedBytes();
                }
            }
            assertEquals(committedAtInFlight, budget.committedBytes(), "steady at " + inFlightBytes + " in flight");
            final long spanBytes = Math.min(1 << 20, inFlightBytes + 128 * 1024 + 1024);
            assertTrue(budget.committedBytes() <= spanBytes + 2L * segmentBytes,
                budget.committedBytes() + " committed for " + inFlightBytes + " in flight");
        }
        assertTrue(log.committedBytes() <= (1 << 20) + segmentBytes,
            "at most the capacity and the segment the tail shares with the head: " + log.committedBytes());
        assertTrue(log.committedBytes() > 512 * 1024, "it did grow with what was in flight");
    }

    @Test
    void aMarkThatIsNotPositiveIsRefused()
    {
        assertEquals(CAPACITY, openLog().unsentLowWatermarkBytes(), "a log on its own has the capacity as mark");
        assertThrows(IllegalArgumentException.class, () -> new SendLog(CAPACITY, MAX_MESSAGE, 0));
        assertThrows(IllegalArgumentException.class, () -> new SendLog(CAPACITY, MAX_MESSAGE, -1));
        assertThrows(IllegalArgumentException.class, () -> new SendLog(CAPACITY, MAX_MESSAGE, Integer.MIN_VALUE));
    }

    private SendLog openLog()
    {
        final SendLog log = new SendLog(CAPACITY, MAX_MESSAGE);
        log.connectionSendLimit(Long.MAX_VALUE);
        log.streamSendLimit(Long.MAX_VALUE);
        return log;
    }

    private void offerRecords(final SendLog log, final int count, final int length)
    {
        for (int i = 0; i < count; i++)
        {
            assertTrue(log.offer(message, 0, length) > 0);
        }
    }

    private void sendAll(final SendLog log, final int packetBytes)
    {
        log.connectionSendLimit(Long.MAX_VALUE);
        log.streamSendLimit(Long.MAX_VALUE);
        while (log.sendableBytes() > 0)
        {
            final long position = log.nextSendPosition();
            final int length = (int)Math.min(packetBytes, log.sendableBytes());
            log.copyOut(position, length, packet, 0);
            log.onSent(position, length, false);
        }
    }

    private void sendBytes(final SendLog log, final int length)
    {
        final long position = log.nextSendPosition();
        log.copyOut(position, length, packet, 0);
        log.onSent(position, length, false);
    }
}
