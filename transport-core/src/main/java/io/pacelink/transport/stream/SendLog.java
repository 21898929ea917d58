package io.pacelink.transport.stream;

import io.pacelink.transport.memory.BudgetedSegments;
import io.pacelink.transport.memory.MemoryBudget;
import io.pacelink.transport.memory.SegmentPool;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The send side of one connection's stream: a single-producer single-consumer circular byte log that is also the
 * retransmission store, so a message is copied once, from the application into the log, and packets copy their
 * DATA payload straight out of it.
 * <p>
 * The <b>producer</b> is the one application thread that calls {@link #offer}. It writes each message as a 4-byte
 * little-endian length prefix followed by the payload at the tail (wire-format.md: message boundaries live in the
 * byte stream), then publishes the new tail. The producer is back-pressured when the bytes between the
 * acknowledged head and the tail would exceed the capacity, or when the bytes not yet sent reach the unsent low
 * watermark ({@link #offer}); flow control limits what the agent sends, and so, through the mark, what waits.
 * <p>
 * The <b>consumer</b> is the endpoint's agent thread; every other method except {@link #finish()} belongs to it.
 * It sends new data from {@link #nextSendPosition()} up to the tail and the peer's flow-control credit, keeps the
 * lost byte ranges to send again ordered by offset (RFC 9000 section 13.3: lost STREAM data is sent again in new
 * packets, whatever their number), records acknowledged ranges, and releases the contiguous acknowledged prefix to
 * the producer by moving {@link #ackedHead()} forward with a release store.
 * <p>
 * FIN: {@link #finish()} fixes the final position at the tail. A frame carries FIN when it ends at
 * {@link #finalPosition()}; if all data was already sent, {@link #isFinPending()} asks for an empty FIN frame. The
 * agent reports for every frame whether it carried FIN ({@link #onSent}, {@link #onRetransmitted},
 * {@link #onRangeAcked}, {@link #onRangeLost}), so that a lost FIN is sent again and {@link #isFullyAcked()} waits
 * for its acknowledgement.
 * <p>
 * Stream positions are 64-bit byte offsets from the start of the stream; the log holds
 * {@code [ackedHead, tail)}. The range sets grow only when the number of gaps exceeds its previous maximum, which is
 * bounded by {@code capacity / 2 + 1} because all ranges lie within one capacity of the acknowledged head.
 */
public final class SendLog
{
    /**
     * Bytes of the length prefix before each message.
     */
    public static final int LENGTH_PREFIX_BYTES = Integer.BYTES;

    /**
     * {@link #finalPosition()} before {@link #finish()}.
     */
    public static final long NO_FINAL_POSITION = -1;

    /**
     * The range sets start empty and grow by doubling when gaps appear, so an idle connection holds none.
     */
    private static final int INITIAL_RANGES = 0;

    /**
     * {@link #SEGMENTS_FIELD}: the agent closed the log and credited its segments; no more may be committed.
     */
    private static final long SEGMENTS_CLOSED_BIT = Long.MIN_VALUE;

    /**
     * The tail word holds the tail position and, in its sign bit, whether the stream is finished, so that
     * {@link #finish()} and {@link #offer} agree through one compare-and-set on which offers made it into the stream.
     */
    private static final long FINISHED_BIT = Long.MIN_VALUE;

    private static final int PRODUCER_SLOT = 0;
    private static final int TAIL_FIELD = 0;
    private static final int ACKED_HEAD_CACHE_FIELD = 1;
    private static final int MESSAGES_OFFERED_FIELD = 2;
    private static final int UNSENT_LIMIT_CACHE_FIELD = 3;

    private static final int CONSUMER_SLOT = 1;
    private static final int ACKED_HEAD_FIELD = 0;
    private static final int SENT_POSITION_FIELD = 1;

    /**
     * Written by both threads, by compare-and-set only: segments committed, and whether the log was closed.
     */
    private static final int SEGMENTS_SLOT = 2;
    private static final int SEGMENTS_FIELD = 0;

    private final CircularStreamBuffer log;
    private final BudgetedSegments segments;
    private final int capacity;
    private final int segmentShift;
    private final int segmentBytes;
    private final int maxMessageLength;
    private final int unsentLowWatermarkBytes;

    /**
     * Producer thread: the segment the last offered record ended in, and its number, so a record that starts and
     * ends in it is written with no segment look-up (one for the length prefix, one per part of the payload, and
     * those of the check that its segments are committed). Only the producer takes a segment out of the table
     * ({@link #recycleAcknowledgedSegments}), and only one wholly below the acknowledged head, never the one the
     * tail is in; an offer that goes past this segment takes the general path and moves the cursor.
     */
    private UnsafeBuffer cursorSegment;
    private long cursorSegmentNumber = -1;

    private final RangeSet ackedBeyondHead;
    private final RangeSet retransmitRanges;
    private long ackedHead;
    private long nextSendPosition;
    private long connectionSendLimit;
    private long streamSendLimit;
    private boolean finSent;
    private boolean finAcked;
    private boolean finRetransmitPending;

    /**
     * A log whose segments are charged to no budget and whose unsent bytes are bounded only by its capacity, for a
     * log used on its own.
     *
     * @param capacityBytes    size of the log, a power of two of at least 64 bytes.
     * @param maxMessageLength the longest message accepted; its prefixed record must fit the log.
     */
    public SendLog(final int capacityBytes, final int maxMessageLength)
    {
        this(capacityBytes, maxMessageLength, capacityBytes);
    }

    /**
     * A log whose segments are charged to no budget, for a log used on its own.
     *
     * @param capacityBytes           size of the log, a power of two of at least 64 bytes.
     * @param maxMessageLength        the longest message accepted; its prefixed record must fit the log.
     * @param unsentLowWatermarkBytes an offer is accepted only while fewer bytes than this wait unsent (positive).
     */
    public SendLog(final int capacityBytes, final int maxMessageLength, final int unsentLowWatermarkBytes)
    {
        this(capacityBytes, maxMessageLength, unsentLowWatermarkBytes, new BudgetedSegments(
            MemoryBudget.unlimited(), Math.min(SegmentPool.DEFAULT_SEGMENT_BYTES, capacityBytes)));
    }

    /**
     * A log whose unsent bytes are bounded only by its capacity.
     *
     * @param capacityBytes    size of the log, a power of two of at least 64 bytes: the most bytes it holds.
     * @param maxMessageLength the longest message accepted; its prefixed record must fit the log.
     * @param segments         where the producer gets the segments it writes into, charged to the endpoint's
     *                         budget.
     */
    public SendLog(final int capacityBytes, final int maxMessageLength, final BudgetedSegments segments)
    {
        this(capacityBytes, maxMessageLength, capacityBytes, segments);
    }

    /**
     * @param capacityBytes           size of the log, a power of two of at least 64 bytes: the most bytes it holds.
     * @param maxMessageLength        the longest message accepted; its prefixed record must fit the log.
     * @param unsentLowWatermarkBytes an offer is accepted only while fewer bytes than this wait unsent (positive;
     *                                at or above the capacity it never refuses an offer the capacity accepts).
     * @param segments                where the producer gets the segments it writes into, charged to the
     *                                endpoint's budget; the log commits them as the stream reaches them, reuses
     *                                those the peer acknowledged, and keeps them until {@link #releaseMemory()}.
     */
    public SendLog(
        final int capacityBytes,
        final int maxMessageLength,
        final int unsentLowWatermarkBytes,
        final BudgetedSegments segments)
    {
        this.log = new CircularStreamBuffer(capacityBytes, 3, segments);
        this.segments = segments;
        this.capacity = capacityBytes;
        this.segmentShift = Integer.numberOfTrailingZeros(log.segmentBytes());
        this.segmentBytes = log.segmentBytes();
        if (maxMessageLength < 0 || maxMessageLength > capacityBytes - LENGTH_PREFIX_BYTES)
        {
            throw new IllegalArgumentException("maxMessageLength must be in [0, capacity - " + LENGTH_PREFIX_BYTES +
                "=" + (capacityBytes - LENGTH_PREFIX_BYTES) + "]: " + maxMessageLength);
        }
        this.maxMessageLength = maxMessageLength;
        if (unsentLowWatermarkBytes <= 0)
        {
            throw new IllegalArgumentException("unsentLowWatermarkBytes must be positive: " + unsentLowWatermarkBytes);
        }
        this.unsentLowWatermarkBytes = unsentLowWatermarkBytes;
        // Nothing sent yet: the first offers may go up to the mark. Written before the log is published to the
        // application's thread.
        log.putPlain(PRODUCER_SLOT, UNSENT_LIMIT_CACHE_FIELD, unsentLowWatermarkBytes);
        final int maxRanges = capacityBytes / 2 + 1;
        this.ackedBeyondHead = new RangeSet(INITIAL_RANGES, maxRanges);
        this.retransmitRanges = new RangeSet(INITIAL_RANGES, maxRanges);
    }

    /**
     * @return size of the log in bytes.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * @return the most bytes that may wait unsent before {@link #offer} back-pressures the application (a message
     * that starts below it is accepted whole, so they may exceed it by up to one message and its prefix).
     */
    public int unsentLowWatermarkBytes()
    {
        return unsentLowWatermarkBytes;
    }

    /**
     * @return the longest message {@link #offer} accepts.
     */
    public int maxMessageLength()
    {
        return maxMessageLength;
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Producer (the one application thread that offers)
    // ----------------------------------------------------------------------------------------------------------------

    /**
     * Append one message, prefixed by its length. Producer thread only.
     * <p>
     * Two limits back-pressure the producer, with the same result: the capacity (the bytes between the
     * acknowledged head and the tail, in flight or not, must fit the log) and the unsent low watermark. The second
     * is Linux's {@code TCP_NOTSENT_LOWAT} ({@code tcp_stream_memory_free} in {@code net/ipv4/tcp.c}: a socket is
     * writable only while its not-yet-sent bytes are under the mark): an offer is accepted only while fewer than
     * {@link #unsentLowWatermarkBytes()} bytes wait unsent, whatever is in flight. The application's bytes then
     * wait at most about a mark's worth of sending before a packet copies them out, so they are still in the
     * cache when it does; the log commits only the segments what is in flight and the mark span; and a message
     * offered now leaves after at most a mark's worth of others. A message that starts below the mark is accepted
     * whole, however long, so one larger than the mark is sent too.
     *
     * @param src    holding the message.
     * @param offset of the message in {@code src}.
     * @param length of the message, 0 allowed.
     * @return the stream position after the message (positive), or {@link OfferResult#BACK_PRESSURED},
     * {@link OfferResult#MAX_MESSAGE_LENGTH_EXCEEDED} or {@link OfferResult#CLOSED} (after {@link #finish()}).
     */
    public long offer(final DirectBuffer src, final int offset, final int length)
    {
        if (length < 0)
        {
            throw new IllegalArgumentException("length must not be negative: " + length);
        }
        if (length > maxMessageLength)
        {
            return OfferResult.MAX_MESSAGE_LENGTH_EXCEEDED;
        }

        // Only this thread moves the tail; the agent may set the finished bit at any time.
        final long tail = log.getPlain(PRODUCER_SLOT, TAIL_FIELD);
        if (tail < 0)
        {
            return OfferResult.CLOSED;
        }

        if (tail >= log.getPlain(PRODUCER_SLOT, UNSENT_LIMIT_CACHE_FIELD))
        {
            // Read how far the agent has sent only when the cached value says the mark is reached.
            final long unsentLimit = log.getAcquire(CONSUMER_SLOT, SENT_POSITION_FIELD) + unsentLowWatermarkBytes;
            log.putPlain(PRODUCER_SLOT, UNSENT_LIMIT_CACHE_FIELD, unsentLimit);
            if (tail >= unsentLimit)
            {
                return OfferResult.BACK_PRESSURED;
            }
        }

        final long newTail = tail + LENGTH_PREFIX_BYTES + length;
        final long limit = newTail - capacity;
        if (limit > log.getPlain(PRODUCER_SLOT, ACKED_HEAD_CACHE_FIELD))
        {
            // Read the agent's head only when the cached value says the log is full (Agrona's head cache).
            final long head = log.getAcquire(CONSUMER_SLOT, ACKED_HEAD_FIELD);
            log.putPlain(PRODUCER_SLOT, ACKED_HEAD_CACHE_FIELD, head);
            if (limit > head)
            {
                return OfferResult.BACK_PRESSURED;
            }
        }

        final int index = log.indexInSegment(tail);
        if (tail >>> segmentShift == cursorSegmentNumber && index <= segmentBytes - LENGTH_PREFIX_BYTES - length)
        {
            // The record starts after the last one in the same segment and ends in it (a small message's usual
            // case): the segment is committed and no record enters a new one, so there is nothing to recycle.
            final UnsafeBuffer segment = cursorSegment;
            segment.putInt(index, length, ByteOrder.LITTLE_ENDIAN);
            segment.putBytes(index + LENGTH_PREFIX_BYTES, src, offset, length);
        }
        else
        {
            final long written = writeRecord(tail, newTail, src, offset, length);
            if (written < 0)
            {
                return written;
            }
        }

        // Publishes the bytes (the CAS is a full fence) unless finish() got in first: then the bytes beyond the
        // final position are never read.
        if (!log.compareAndSet(PRODUCER_SLOT, TAIL_FIELD, tail, newTail))
        {
            return OfferResult.CLOSED;
        }
        log.putRelease(PRODUCER_SLOT, MESSAGES_OFFERED_FIELD, log.getPlain(PRODUCER_SLOT, MESSAGES_OFFERED_FIELD) + 1);
        return newTail;
    }

    /**
     * Producer thread: write a record that needs segments committed or spans two of them, then point the cursor at
     * the segment it ends in.
     *
     * @return 0, or what {@link #commitSegments} refused with.
     */
    private long writeRecord(
        final long tail, final long newTail, final DirectBuffer src, final int offset, final int length)
    {
        if ((tail - 1) >>> segmentShift != (newTail - 1) >>> segmentShift)
        {
            recycleAcknowledgedSegments();
        }
        if (!log.isCommitted(tail, newTail))
        {
            final long committed = commitSegments(tail, newTail);
            if (committed < 0)
            {
                return committed;
            }
        }

        log.putIntLittleEndian(tail, length);
        log.write(tail + LENGTH_PREFIX_BYTES, src, offset, length);
        cursorSegmentNumber = (newTail - 1) >>> segmentShift;
        cursorSegment = log.segment(newTail - 1);
        return 0;
    }

    /**
     * @param streamBytes a length of the stream (a position).
     * @param messages    the number of messages in it.
     * @return the application's bytes in it: the stream bytes without the messages' length prefixes.
     */
    public static long applicationBytes(final long streamBytes, final long messages)
    {
        // A count that leads its position (read while a poll ran) must not make the figure negative.
        return Math.max(0, streamBytes - LENGTH_PREFIX_BYTES * messages);
    }

    /**
     * @return the number of messages offered so far (any thread). Each takes its length plus
     * {@link #LENGTH_PREFIX_BYTES} of the stream, so the application's bytes are
     * {@code tailPosition() - LENGTH_PREFIX_BYTES * messagesOffered()}.
     */
    public long messagesOffered()
    {
        return log.getAcquire(PRODUCER_SLOT, MESSAGES_OFFERED_FIELD);
    }

    /**
     * Producer thread, when a record enters a segment no record entered before: read the agent's acknowledged head
     * and keep the segments wholly below it as spares for the ones ahead. The log's slots are otherwise each first
     * reused a whole capacity further on, so a connection of small messages, a few bytes in flight, would commit a
     * new segment every segment's worth of stream until its whole capacity is committed (32 MiB by default: a
     * 64-KiB array every ~1,600 messages of 32 bytes, each a garbage-collector allocation on the application's
     * thread). Once per segment, so it costs an acquire read per 64 KiB of stream.
     */
    private void recycleAcknowledgedSegments()
    {
        final long head = log.getAcquire(CONSUMER_SLOT, ACKED_HEAD_FIELD);
        log.putPlain(PRODUCER_SLOT, ACKED_HEAD_CACHE_FIELD, head);
        log.recycleBelow(head);
    }

    /**
     * Producer thread: commit the segments a record needs, one at a time, each first counted in
     * {@link #SEGMENTS_FIELD} so that {@link #releaseMemory()} credits every segment committed before or while it runs.
     *
     * @return 0, {@link OfferResult#BACK_PRESSURED} if the memory budget refused a segment, or
     * {@link OfferResult#CLOSED} if the log was closed.
     */
    private long commitSegments(final long from, final long to)
    {
        while (true)
        {
            if (log.spareSegments() > 0)
            {
                // A spare is counted already: it was committed for a position the peer has since acknowledged.
                if (log.commitNext(from, to) > 0)
                {
                    continue;
                }
                return 0;
            }
            long count;
            do
            {
                count = log.getAcquire(SEGMENTS_SLOT, SEGMENTS_FIELD);
                if (count < 0)
                {
                    return OfferResult.CLOSED;
                }
            }
            while (!log.compareAndSet(SEGMENTS_SLOT, SEGMENTS_FIELD, count, count + 1));

            final int committed = log.commitNext(from, to);
            if (committed > 0)
            {
                continue;
            }
            // Nothing committed: take the count back, or, if the log closed meanwhile and credited it, charge it.
            do
            {
                count = log.getAcquire(SEGMENTS_SLOT, SEGMENTS_FIELD);
            }
            while (count >= 0 && !log.compareAndSet(SEGMENTS_SLOT, SEGMENTS_FIELD, count, count - 1));
            if (count < 0)
            {
                segments.chargeCredited();
            }
            return 0 == committed ? 0 : OfferResult.BACK_PRESSURED;
        }
    }

    /**
     * Agent thread, once the connection closed: credit every segment the log committed to the memory budget. No
     * offer commits one afterwards; the segments themselves stay with the log until the garbage collector takes it,
     * since the application's thread may still be inside {@code offer}. Idempotent.
     */
    public void releaseMemory()
    {
        finish();
        long count;
        do
        {
            count = log.getAcquire(SEGMENTS_SLOT, SEGMENTS_FIELD);
        }
        while (count >= 0 && !log.compareAndSet(SEGMENTS_SLOT, SEGMENTS_FIELD, count, count | SEGMENTS_CLOSED_BIT));
        if (count >= 0)
        {
            segments.releaseSegments(count);
        }
    }

    /**
     * @return bytes of segments committed now (any thread; for memory reports).
     */
    public long committedBytes()
    {
        return (log.getAcquire(SEGMENTS_SLOT, SEGMENTS_FIELD) & ~SEGMENTS_CLOSED_BIT) * log.segmentBytes();
    }

    /**
     * End the stream at the current tail: later offers return {@link OfferResult#CLOSED}, and the frame that ends
     * at the tail carries FIN. Any thread; an offer racing with it either lands before the final position or
     * returns {@link OfferResult#CLOSED}. Idempotent.
     */
    public void finish()
    {
        long tailWord;
        do
        {
            tailWord = log.getAcquire(PRODUCER_SLOT, TAIL_FIELD);
        }
        while (tailWord >= 0 && !log.compareAndSet(PRODUCER_SLOT, TAIL_FIELD, tailWord, tailWord | FINISHED_BIT));
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Consumer (the agent thread)
    // ----------------------------------------------------------------------------------------------------------------

    /**
     * @return the position after the last message offered (acquire: the bytes before it are visible).
     */
    public long tailPosition()
    {
        return log.getAcquire(PRODUCER_SLOT, TAIL_FIELD) & ~FINISHED_BIT;
    }

    /**
     * @return true once {@link #finish()} fixed the end of the stream.
     */
    public boolean isFinished()
    {
        return log.getAcquire(PRODUCER_SLOT, TAIL_FIELD) < 0;
    }

    /**
     * @return the end of the stream fixed by {@link #finish()}, or {@link #NO_FINAL_POSITION}.
     */
    public long finalPosition()
    {
        final long tailWord = log.getAcquire(PRODUCER_SLOT, TAIL_FIELD);
        return tailWord < 0 ? tailWord & ~FINISHED_BIT : NO_FINAL_POSITION;
    }

    /**
     * @return the end of the contiguous acknowledged prefix of the stream; the log holds the bytes from here on.
     */
    public long ackedHead()
    {
        return ackedHead;
    }

    /**
     * @return the first position never sent: new data starts here.
     */
    public long nextSendPosition()
    {
        return nextSendPosition;
    }

    /**
     * @return true if offered bytes were never sent (whether or not flow control lets them go now).
     */
    public boolean hasUnsentData()
    {
        return tailPosition() > nextSendPosition;
    }

    /**
     * Raise the connection-level credit from the peer (MAX_DATA, or the handshake's initial max data). A value
     * below the current one is ignored: credit never shrinks, and an old update may arrive after a newer one
     * (RFC 9000 section 4.1). The connection carries this one stream, so its credit applies directly.
     *
     * @param maximumData absolute stream position the peer allows data up to.
     */
    public void connectionSendLimit(final long maximumData)
    {
        connectionSendLimit = Math.max(connectionSendLimit, maximumData);
    }

    /**
     * Raise the stream-level credit from the peer (MAX_STREAM_DATA, or the handshake's initial max stream data);
     * a value below the current one is ignored.
     *
     * @param maximumStreamData absolute stream position the peer allows data up to.
     */
    public void streamSendLimit(final long maximumStreamData)
    {
        streamSendLimit = Math.max(streamSendLimit, maximumStreamData);
    }

    /**
     * @return the flow-control limit, the smaller of the connection and stream credits: new data is sent only
     * below this position.
     */
    public long sendLimit()
    {
        return Math.min(connectionSendLimit, streamSendLimit);
    }

    /**
     * @return new bytes that may be sent now: offered, never sent, and below the flow-control limit.
     */
    public long sendableBytes()
    {
        return Math.max(0, Math.min(tailPosition(), sendLimit()) - nextSendPosition);
    }

    /**
     * @return true if there are new bytes to send but flow control forbids sending any (for the "flow-control
     * limited" counter and a DATA_BLOCKED signal).
     */
    public boolean isBlockedByFlowControl()
    {
        return nextSendPosition >= sendLimit() && tailPosition() > nextSendPosition;
    }

    /**
     * @return true if the FIN has to be sent in an empty DATA frame at {@link #finalPosition()}: the stream was
     * finished after all its data was sent. (Otherwise the FIN rides on the new-data frame ending at the final
     * position.)
     */
    public boolean isFinPending()
    {
        return !finSent && nextSendPosition == finalPosition();
    }

    /**
     * Copy stream bytes into a packet. The range must lie within {@code [ackedHead(), tailPosition())}.
     *
     * @param position  first stream position.
     * @param length    of the range.
     * @param dst       to copy into.
     * @param dstOffset where in {@code dst}.
     * @return {@code length}.
     */
    public int copyOut(final long position, final int length, final MutableDirectBuffer dst, final int dstOffset)
    {
        if (position < ackedHead || length < 0 || position + length > tailPosition())
        {
            throw new IllegalArgumentException("range [" + position + ", " + (position + length) +
                ") outside the log [" + ackedHead + ", " + tailPosition() + ")");
        }
        log.read(position, dst, dstOffset, length);
        return length;
    }

    /**
     * The segment holding a range of stream bytes, for a packet whose payload the port sends from the log where it
     * lies (docs/io.md, "With GSO off, the payload from the send log, in place"). Its bytes stay as they are until the
     * peer acknowledges them: the producer writes only beyond the tail and reuses a segment only once it lies wholly
     * below the acknowledged head. The range must lie within {@code [ackedHead(), tailPosition())}.
     *
     * @param position first stream position.
     * @param length   of the range.
     * @return the segment, whose index {@link #indexInSegment} gives the range's start in it, if the range lies
     * within one segment of direct memory; null if it does not (it must be copied, {@link #copyOut}).
     */
    public UnsafeBuffer segmentInPlace(final long position, final int length)
    {
        if (position < ackedHead || length < 0 || position + length > tailPosition())
        {
            throw new IllegalArgumentException("range [" + position + ", " + (position + length) +
                ") outside the log [" + ackedHead + ", " + tailPosition() + ")");
        }
        if (!log.isWithinOneSegment(position, length))
        {
            return null;
        }
        final UnsafeBuffer segment = log.segment(position);
        return null == segment.byteArray() ? segment : null;
    }

    /**
     * @param position a stream position.
     * @return its index in the segment that holds it ({@link #segmentInPlace}).
     */
    public int indexInSegment(final long position)
    {
        return log.indexInSegment(position);
    }

    /**
     * Record that new data {@code [position, position + length)} left in a packet. New data is sent in order, so
     * {@code position} must be {@link #nextSendPosition()}. The frame carries FIN when it ends at
     * {@link #finalPosition()} as read when the frame was built; the flag says what was actually sent, because
     * {@link #finish()} may run on another thread in between.
     *
     * @param position first stream position sent.
     * @param length   bytes sent, 0 for an empty FIN frame.
     * @param fin      whether the frame carried FIN.
     */
    public void onSent(final long position, final int length, final boolean fin)
    {
        final long end = position + length;
        if (position != nextSendPosition || length < 0 || end > tailPosition() || (fin && end != finalPosition()))
        {
            throw new IllegalArgumentException("sent [" + position + ", " + end + ") fin=" + fin +
                " but next send position is " + nextSendPosition + ", tail " + tailPosition() +
                ", final position " + finalPosition());
        }
        nextSendPosition = end;
        // For the producer's unsent low watermark; a plain store on x86, on a line the producer reads only when
        // its cached limit says the mark is reached.
        log.putRelease(CONSUMER_SLOT, SENT_POSITION_FIELD, end);
        if (fin)
        {
            finSent = true;
        }
    }

    /**
     * Queue a lost range for retransmission. Bytes already acknowledged (by an earlier or later copy of the same
     * range) are skipped; what remains merges with the ranges already queued. A lost FIN that is not acknowledged
     * yet is queued too: it leaves again on the retransmitted frame ending at the final position, or alone in an
     * empty frame if those bytes were acknowledged meanwhile.
     *
     * @param offset first stream position of the lost range.
     * @param length of the lost range, 0 for an empty FIN frame.
     * @param fin    whether the lost frame carried FIN.
     */
    public void onRangeLost(final long offset, final int length, final boolean fin)
    {
        if (fin && !finAcked)
        {
            finRetransmitPending = true;
        }

        final long end = Math.min(offset + length, nextSendPosition);
        long gapStart = ackedBeyondHead.coveredEnd(Math.max(offset, ackedHead));
        while (gapStart < end)
        {
            final long gapEnd = Math.min(ackedBeyondHead.nextStart(gapStart), end);
            // Cannot fail: the queue holds disjoint ranges within one capacity, at most capacity / 2 + 1 of them.
            retransmitRanges.add(gapStart, gapEnd);
            gapStart = ackedBeyondHead.coveredEnd(gapEnd);
        }
    }

    /**
     * @return true if lost data (or a lost empty FIN frame) waits to be sent again.
     */
    public boolean hasRetransmission()
    {
        return !retransmitRanges.isEmpty() || finRetransmitPending;
    }

    /**
     * @return the stream position of the first range to send again; valid if {@link #hasRetransmission()}.
     */
    public long retransmitOffset()
    {
        return retransmitRanges.isEmpty() ? finalPosition() : retransmitRanges.firstStart();
    }

    /**
     * @param maxLength the most bytes the packet can carry.
     * @return bytes of the first range to send again in one frame: at most {@code maxLength}, and 0 for the FIN
     * alone. The frame carries FIN if it ends at {@link #finalPosition()}.
     */
    public int retransmitLength(final int maxLength)
    {
        if (retransmitRanges.isEmpty())
        {
            return 0;
        }
        return (int)Math.min(maxLength, retransmitRanges.firstEnd() - retransmitRanges.firstStart());
    }

    /**
     * Record that {@code [offset, offset + length)} was sent again, removing it from the retransmission queue.
     *
     * @param offset first stream position sent.
     * @param length bytes sent, 0 for an empty FIN frame.
     * @param fin    whether the frame carried FIN (it does when it ends at {@link #finalPosition()}).
     */
    public void onRetransmitted(final long offset, final int length, final boolean fin)
    {
        // Cannot fail: a split keeps the queue within its bound of capacity / 2 + 1 disjoint ranges.
        retransmitRanges.remove(offset, offset + length);
        if (fin)
        {
            finRetransmitPending = false;
        }
    }

    /**
     * Record an acknowledged range, then release the contiguous acknowledged prefix to the producer. Idempotent: a
     * range acknowledged twice (original and retransmission) or overlapping earlier acknowledgements changes
     * nothing more. Acknowledged bytes leave the retransmission queue (the loss was spurious). Positions never sent
     * are ignored.
     *
     * @param offset first stream position of the acknowledged range.
     * @param length of the acknowledged range, 0 for an empty FIN frame.
     * @param fin    whether the acknowledged frame carried FIN.
     */
    public void onRangeAcked(final long offset, final int length, final boolean fin)
    {
        onPositionsAcked(offset, offset + length, fin);
    }

    /**
     * {@link #onRangeAcked} for the stream positions {@code [fromPosition, toPosition)}: the ranges of several
     * packets acknowledged together, one after another in the stream, released at once (the same state as one call
     * per packet; a bulk sender's ACK frame acknowledges a run of ~30 such packets).
     *
     * @param fromPosition first stream position acknowledged.
     * @param toPosition   the position after the last, {@code fromPosition} for an empty FIN frame alone.
     * @param fin          whether one of the acknowledged frames carried FIN.
     */
    public void onPositionsAcked(final long fromPosition, final long toPosition, final boolean fin)
    {
        if (fin)
        {
            finAcked = true;
            finRetransmitPending = false;
        }

        final long end = Math.min(toPosition, nextSendPosition);
        final long start = Math.max(fromPosition, ackedHead);
        if (start >= end)
        {
            return;
        }

        if (!retransmitRanges.isEmpty())
        {
            retransmitRanges.remove(start, end);
        }
        if (start == ackedHead && ackedBeyondHead.isEmpty())
        {
            // The range continues the acknowledged prefix and nothing beyond it was acknowledged: the head moves to
            // its end, as adding the range and releasing the set's first range would move it, without the set.
            ackedHead = end;
            log.putRelease(CONSUMER_SLOT, ACKED_HEAD_FIELD, ackedHead);
            return;
        }
        // Cannot fail: acknowledged ranges lie within one capacity of the head, at most capacity / 2 + 1 of them.
        ackedBeyondHead.add(start, end);
        if (ackedBeyondHead.firstStart() == ackedHead)
        {
            ackedHead = ackedBeyondHead.firstEnd();
            ackedBeyondHead.removeFirst();
            log.putRelease(CONSUMER_SLOT, ACKED_HEAD_FIELD, ackedHead);
        }
    }

    /**
     * @return true if every offered byte is acknowledged and, once finished, the FIN too: a graceful close may
     * complete.
     */
    public boolean isFullyAcked()
    {
        final long finalPosition = finalPosition();
        if (NO_FINAL_POSITION == finalPosition)
        {
            return ackedHead == tailPosition();
        }
        return ackedHead == finalPosition && finAcked;
    }

    /**
     * @return the number of disjoint acknowledged ranges beyond the acknowledged head (gaps in the peer's ACKs).
     */
    public int ackedRangeCount()
    {
        return ackedBeyondHead.size();
    }

    /**
     * @return bytes queued for retransmission.
     */
    public long retransmitBytes()
    {
        return retransmitRanges.coveredLength();
    }
}
