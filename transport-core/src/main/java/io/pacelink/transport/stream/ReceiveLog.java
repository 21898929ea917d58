package io.pacelink.transport.stream;

import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.MessagePartHandler;
import io.pacelink.transport.memory.MemoryBudget;
import io.pacelink.transport.memory.SegmentPool;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The receive side of one connection's stream: a single-producer single-consumer circular byte log that is also the
 * reassembly store, so DATA payloads are copied once, from the packet into the log, and the application reads
 * messages in place.
 * <p>
 * The <b>producer</b> is the endpoint's agent thread: {@link #onData} writes each frame's new bytes at their stream
 * offsets (out of order, duplicated or overlapping frames from retransmissions included), records the received
 * ranges, and publishes the end of the contiguous received prefix with a release store. As data becomes contiguous
 * it walks the 4-byte little-endian length prefixes (wire-format.md) and rejects a message longer than the maximum,
 * so a hostile peer cannot announce a message that would never fit and wedge the application.
 * <p>
 * The <b>consumer</b> is the one application thread that calls {@link #poll}; it hands each complete message to a
 * {@link MessageHandler} as one contiguous region (a message that spans two of the log's segments is first copied
 * into a scratch buffer, grown to the longest such message; a {@link MessagePartHandler} is handed its parts in place
 * instead) and then releases the space by publishing the consumed head. The agent commits segments as data arrives
 * and gives back to the endpoint's pool those the application has consumed (docs/security.md, "Memory"), so the log
 * holds memory only for data in it. The agent reads
 * {@link #consumedHead()} to grant flow-control credit: it must never allow the peer beyond
 * {@code consumedHead + capacity}, and data beyond it is rejected as {@link #FLOW_CONTROL_ERROR}.
 * <p>
 * Errors are sticky: after the first, {@link #onData} returns it for every frame and the engine closes the
 * connection.
 */
public final class ReceiveLog
{
    /**
     * {@link #protocolError()} when there is none.
     */
    public static final int NO_ERROR = 0;

    /**
     * The peer sent data beyond the credit this log can hold (RFC 9000 section 4.1, FLOW_CONTROL_ERROR), or at a
     * negative offset.
     */
    public static final int FLOW_CONTROL_ERROR = -1;

    /**
     * Data beyond the final size, or a FIN that changes the final size or falls below data already received
     * (RFC 9000 section 4.5, FINAL_SIZE_ERROR).
     */
    public static final int FINAL_SIZE_ERROR = -2;

    /**
     * A length prefix above the maximum message length, or a stream that ends inside a message.
     */
    public static final int MESSAGE_FRAMING_ERROR = -3;

    /**
     * The out-of-order ranges would need more bookkeeping memory than the log allows for its capacity
     * ({@link #maxGapMemoryBytes(int)}), or more ranges than the configured count: only a peer that fragments its data
     * on purpose gets there.
     */
    public static final int REASSEMBLY_LIMIT_ERROR = -4;

    /**
     * Data for stream offsets already received whose bytes differ from those received first (RFC 9000 section 2.2:
     * "MAY treat receipt of different data at the same offset within a stream as a connection error").
     */
    public static final int DATA_MISMATCH_ERROR = -5;

    /**
     * Not an error of the peer: the endpoint's memory budget refused a segment for the data. Nothing of the frame
     * was recorded; drop its packet unacknowledged, and the peer sends the data again.
     */
    public static final int MEMORY_REFUSED = -6;

    /**
     * {@link #finalSize()} before a FIN arrived.
     */
    public static final long NO_FINAL_SIZE = -1;

    /**
     * The share of the log's capacity its out-of-order ranges may take in bookkeeping: one eighth. Linux charges each
     * out-of-order segment's whole buffer ({@code skb->truesize}) against the receive buffer and prunes the
     * out-of-order queue beyond it ({@code tcp_prune_ofo_queue} in {@code net/ipv4/tcp_input.c}); here a range costs
     * {@link RangeSet#BYTES_PER_RANGE} bytes against an eighth of the window. Legitimate data arrives in packets of
     * about a thousand bytes or more, so even a window in which every other packet was lost needs under 1 % of it in
     * bookkeeping (a 32 MiB window may hold 167,772 ranges; a 1 Gbit/s x 100 ms flow with 1 % loss holds a few
     * thousand); a peer sending 1-byte fragments two bytes apart reaches the limit with 1/200 of the window in data.
     */
    public static final int GAP_MEMORY_SHARE = 8;

    /**
     * Ranges a log may hold whatever its size: 400 bytes, so a small log still takes a few losses.
     */
    public static final int MIN_GAPS = 16;

    private static final int LENGTH_PREFIX_BYTES = SendLog.LENGTH_PREFIX_BYTES;
    private static final int INITIAL_RANGES = 0;

    private static final int PRODUCER_SLOT = 0;
    private static final int CONTIGUOUS_END_FIELD = 0;
    private static final int FINAL_SIZE_FIELD = 1;

    private static final int CONSUMER_SLOT = 1;
    private static final int CONSUMED_HEAD_FIELD = 0;
    private static final int CONSUMED_MESSAGES_FIELD = 1;

    private final CircularStreamBuffer log;
    private final SegmentPool segments;
    private final int capacity;
    private final int segmentBytes;
    private final int maxMessageLength;
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[0]);
    private boolean isMemoryReleased;

    private final RangeSet receivedBeyondEnd;
    private long contiguousEnd;
    private long nextPrefixPosition;
    private long highestReceived;
    private long finalSize = NO_FINAL_SIZE;
    private long messagesArrived;
    private long consumedHeadCache;
    private int protocolError = NO_ERROR;

    /**
     * A log whose out-of-order ranges are limited by memory only ({@link #maxGapMemoryBytes(int)}), with segments
     * from a pool of its own charged to no budget, for a log used on its own.
     *
     * @param capacityBytes    size of the log, a power of two of at least 64 bytes; also the largest credit the
     *                         agent may grant beyond the consumed head.
     * @param maxMessageLength the longest message accepted; its prefixed record must fit the log.
     */
    public ReceiveLog(final int capacityBytes, final int maxMessageLength)
    {
        this(capacityBytes, maxMessageLength, Integer.MAX_VALUE);
    }

    /**
     * A log whose segments come from a pool of its own, charged to no budget, for a log used on its own.
     *
     * @param capacityBytes    size of the log, a power of two of at least 64 bytes; also the largest credit the
     *                         agent may grant beyond the consumed head.
     * @param maxMessageLength the longest message accepted; its prefixed record must fit the log.
     * @param maxGaps          the most separate out-of-order ranges held at once, below what memory allows
     *                         ({@link #maxGapMemoryBytes(int)}); more is a {@link #REASSEMBLY_LIMIT_ERROR}.
     */
    public ReceiveLog(final int capacityBytes, final int maxMessageLength, final int maxGaps)
    {
        this(capacityBytes, maxMessageLength, maxGaps, new SegmentPool(MemoryBudget.unlimited(),
            Math.min(SegmentPool.DEFAULT_SEGMENT_BYTES, capacityBytes), capacityBytes));
    }

    /**
     * @param capacityBytes    size of the log, a power of two of at least 64 bytes; also the largest credit the
     *                         agent may grant beyond the consumed head.
     * @param maxMessageLength the longest message accepted; its prefixed record must fit the log.
     * @param maxGaps          the most separate out-of-order ranges held at once, a count below what memory allows:
     *                         the log holds at most {@link #maxGapMemoryBytes(int)} of range bookkeeping
     *                         ({@link RangeSet#BYTES_PER_RANGE} a range), and more ranges than either allows is a
     *                         {@link #REASSEMBLY_LIMIT_ERROR}.
     * @param segments         the endpoint's pool, which the agent takes segments from as data arrives and gives
     *                         consumed ones back to; its budget is charged for the range bookkeeping too.
     */
    public ReceiveLog(
        final int capacityBytes, final int maxMessageLength, final int maxGaps, final SegmentPool segments)
    {
        this.log = new CircularStreamBuffer(capacityBytes, 2, segments);
        this.segments = segments;
        this.capacity = capacityBytes;
        this.segmentBytes = log.segmentBytes();
        if (maxMessageLength < 0 || maxMessageLength > capacityBytes - LENGTH_PREFIX_BYTES)
        {
            throw new IllegalArgumentException("maxMessageLength must be in [0, capacity - " + LENGTH_PREFIX_BYTES +
                "=" + (capacityBytes - LENGTH_PREFIX_BYTES) + "]: " + maxMessageLength);
        }
        if (maxGaps < 1)
        {
            throw new IllegalArgumentException("maxGaps must be positive: " + maxGaps);
        }
        this.maxMessageLength = maxMessageLength;
        final int maxRanges = (int)Math.min(maxGaps,
            Math.max(MIN_GAPS, maxGapMemoryBytes(capacityBytes) / RangeSet.BYTES_PER_RANGE));
        this.receivedBeyondEnd = new RangeSet(INITIAL_RANGES, maxRanges, segments.budget());
        log.putRelease(PRODUCER_SLOT, FINAL_SIZE_FIELD, NO_FINAL_SIZE);
    }

    /**
     * @param capacityBytes a log's capacity, its receive window.
     * @return the most bytes of range bookkeeping the log holds for its out-of-order data: a
     * {@link #GAP_MEMORY_SHARE share} of its capacity (but room for {@link #MIN_GAPS} ranges in any log).
     */
    public static long maxGapMemoryBytes(final int capacityBytes)
    {
        return capacityBytes / GAP_MEMORY_SHARE;
    }

    /**
     * @return the most separate out-of-order ranges the log holds: what its gap memory allows, or the configured
     * count if lower.
     */
    public int maxGaps()
    {
        return receivedBeyondEnd.maxRanges();
    }

    /**
     * @return size of the log in bytes.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * @return the longest message accepted.
     */
    public int maxMessageLength()
    {
        return maxMessageLength;
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Producer (the agent thread)
    // ----------------------------------------------------------------------------------------------------------------

    /**
     * Store the payload of a DATA frame. Bytes already received are compared with what arrived first (a difference is
     * a {@link #DATA_MISMATCH_ERROR}, RFC 9000 section 2.2), new bytes are written at their offsets, and the
     * contiguous end moves forward over whatever became contiguous.
     *
     * @param streamOffset stream position of the first payload byte.
     * @param src          holding the payload.
     * @param srcOffset    of the payload in {@code src}.
     * @param length       of the payload, 0 allowed (an empty FIN frame).
     * @param fin          the frame's FIN flag: the stream ends at {@code streamOffset + length}.
     * @return the number of new bytes (0 for a duplicate), or a negative error code ({@link #FLOW_CONTROL_ERROR},
     * {@link #FINAL_SIZE_ERROR}, {@link #MESSAGE_FRAMING_ERROR}, {@link #REASSEMBLY_LIMIT_ERROR},
     * {@link #DATA_MISMATCH_ERROR}): the peer broke the protocol, close the connection; or
     * {@link #MEMORY_REFUSED}: drop the packet unacknowledged.
     */
    public int onData(
        final long streamOffset, final DirectBuffer src, final int srcOffset, final int length, final boolean fin)
    {
        if (NO_ERROR != protocolError)
        {
            return protocolError;
        }

        final long end = streamOffset + length;
        if (streamOffset < 0 || length < 0 || end < 0 || !isWithinWindow(end))
        {
            return fail(FLOW_CONTROL_ERROR);
        }

        // RFC 9000 section 4.5: once known, the final size never changes and no data lies beyond it; a FIN below
        // data already received is an error too.
        if (NO_FINAL_SIZE != finalSize)
        {
            if (end > finalSize || (fin && end != finalSize))
            {
                return fail(FINAL_SIZE_ERROR);
            }
        }
        else if (fin)
        {
            if (end < highestReceived)
            {
                return fail(FINAL_SIZE_ERROR);
            }
            finalSize = end;
            log.putRelease(PRODUCER_SLOT, FINAL_SIZE_FIELD, end);
        }
        highestReceived = Math.max(highestReceived, end);

        // RFC 9000 section 2.2: data at an offset must not change when it is sent again. Bytes the application has
        // released may be overwritten already, so only those from the cached consumed head on are compared: the log
        // never writes beyond that cache plus its capacity, so they are intact.
        final long comparableStart = Math.max(streamOffset, consumedHeadCache);
        final long comparableEnd = Math.min(end, contiguousEnd);
        if (comparableStart < comparableEnd && !log.matches(comparableStart, src,
            srcOffset + (int)(comparableStart - streamOffset), (int)(comparableEnd - comparableStart)))
        {
            return fail(DATA_MISMATCH_ERROR);
        }

        final long start = Math.max(streamOffset, contiguousEnd);
        int newBytes = 0;
        if (start < end)
        {
            if (!log.isCommitted(start, end))
            {
                // Give back what the application consumed before taking a segment from the pool: otherwise a
                // connection whose credit is rarely refreshed takes a new segment for every segment's worth of
                // small messages and returns them only when the window is full.
                releaseConsumed();
            }
            if (log.commit(start, end) < 0)
            {
                return MEMORY_REFUSED;
            }
            long position = start;
            while (position < end)
            {
                final long coveredEnd = Math.min(receivedBeyondEnd.coveredEnd(position), end);
                final int srcPosition = srcOffset + (int)(position - streamOffset);
                if (coveredEnd > position)
                {
                    if (!log.matches(position, src, srcPosition, (int)(coveredEnd - position)))
                    {
                        return fail(DATA_MISMATCH_ERROR);
                    }
                    position = coveredEnd;
                }
                else
                {
                    final long gapEnd = Math.min(receivedBeyondEnd.nextStart(position), end);
                    log.write(position, src, srcPosition, (int)(gapEnd - position));
                    newBytes += (int)(gapEnd - position);
                    position = gapEnd;
                }
            }

            if (start == contiguousEnd)
            {
                // In order: no range to record, only those it reaches to join the contiguous prefix.
                long newEnd = end;
                while (!receivedBeyondEnd.isEmpty() && receivedBeyondEnd.firstStart() <= newEnd)
                {
                    newEnd = Math.max(newEnd, receivedBeyondEnd.firstEnd());
                    receivedBeyondEnd.removeFirst();
                }
                advanceContiguousEnd(newEnd);
            }
            else if (!receivedBeyondEnd.add(start, end))
            {
                // Nothing recorded: the bytes just written lie in gaps, which later data overwrites.
                return receivedBeyondEnd.size() == receivedBeyondEnd.maxRanges() ?
                    fail(REASSEMBLY_LIMIT_ERROR) : MEMORY_REFUSED;
            }
        }

        if (NO_ERROR == protocolError && contiguousEnd == finalSize && nextPrefixPosition != finalSize)
        {
            // The stream ended inside a message: its missing bytes can never arrive.
            return fail(MESSAGE_FRAMING_ERROR);
        }

        return NO_ERROR == protocolError ? newBytes : protocolError;
    }

    /**
     * @return the first error the peer caused, or {@link #NO_ERROR}.
     */
    public int protocolError()
    {
        return protocolError;
    }

    /**
     * @return the end of the contiguous received prefix of the stream (in-order data, for ACK and credit decisions).
     */
    public long contiguousEnd()
    {
        return contiguousEnd;
    }

    /**
     * @return the highest stream position received, in or out of order (the flow-control consumption of the stream,
     * RFC 9000 section 4.5).
     */
    public long highestReceived()
    {
        return highestReceived;
    }

    /**
     * @return the stream's final size from the FIN, or {@link #NO_FINAL_SIZE}.
     */
    public long finalSize()
    {
        return log.getAcquire(PRODUCER_SLOT, FINAL_SIZE_FIELD);
    }

    /**
     * @return the number of messages whose length prefix has arrived in order: once the stream is complete up to
     * its FIN, the number of messages in the whole stream. Agent thread.
     */
    public long messagesArrived()
    {
        return messagesArrived;
    }

    /**
     * @return the number of separate out-of-order ranges held beyond the contiguous end.
     */
    public int gapCount()
    {
        return receivedBeyondEnd.size();
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Consumer (the one application thread that polls)
    // ----------------------------------------------------------------------------------------------------------------

    /**
     * Hand complete messages, in order, to the handler, then release their space. Consumer thread only. If the
     * handler throws, the messages handed over before are still released.
     *
     * @param handler called once per message with a contiguous region valid only during the call.
     * @param limit   maximum number of messages.
     * @return the number of messages handed to the handler.
     */
    public int poll(final MessageHandler handler, final int limit)
    {
        final long end = log.getAcquire(PRODUCER_SLOT, CONTIGUOUS_END_FIELD);
        final long initialHead = log.getPlain(CONSUMER_SLOT, CONSUMED_HEAD_FIELD);
        long head = initialHead;
        int count = 0;
        // The segment holding the head and where it ends: looked up once per segment, not two or three times per
        // message. It stays in the log for the whole call: the agent gives back only segments wholly below the
        // consumed head this thread published, and publishes nothing until the call returns.
        UnsafeBuffer segment = null;
        long segmentEnd = 0;

        try
        {
            while (count < limit && head + LENGTH_PREFIX_BYTES <= end)
            {
                if (head >= segmentEnd)
                {
                    segment = log.segment(head);
                    segmentEnd = head - log.indexInSegment(head) + segmentBytes;
                }
                final int index = log.indexInSegment(head);
                final long messageStart = head + LENGTH_PREFIX_BYTES;
                // The agent validated every prefix below the published end.
                final int length = messageStart <= segmentEnd ?
                    segment.getInt(index, ByteOrder.LITTLE_ENDIAN) : log.getIntLittleEndian(head);
                if (messageStart + length > end)
                {
                    break;
                }

                head = messageStart + length;
                count++;
                if (length > 0 && head <= segmentEnd)
                {
                    handler.onMessage(segment, index + LENGTH_PREFIX_BYTES, length);
                }
                else if (length > 0 && log.isWithinOneSegment(messageStart, length))
                {
                    // The prefix ends its segment and the message lies wholly in the next one.
                    handler.onMessage(log.segment(messageStart), log.indexInSegment(messageStart), length);
                }
                else if (length > 0 && handler instanceof MessagePartHandler)
                {
                    // The handler takes the message in its parts, in place: no scratch copy (a 128-KiB message in
                    // 64-KiB segments is three parts).
                    deliverInParts((MessagePartHandler)handler, messageStart, length);
                }
                else
                {
                    if (scratch.capacity() < length)
                    {
                        // Grown to the longest message that spanned segments, at most the maximum message length.
                        scratch.wrap(new byte[Math.min(maxMessageLength, Math.max(length, 2 * scratch.capacity()))]);
                    }
                    log.read(messageStart, scratch, 0, length);
                    handler.onMessage(scratch, 0, length);
                }
            }
        }
        finally
        {
            if (head != initialHead)
            {
                // The head first: a reader that sees the new count sees the head after those messages.
                log.putRelease(CONSUMER_SLOT, CONSUMED_HEAD_FIELD, head);
                log.putRelease(CONSUMER_SLOT, CONSUMED_MESSAGES_FIELD,
                    log.getPlain(CONSUMER_SLOT, CONSUMED_MESSAGES_FIELD) + count);
            }
        }

        return count;
    }

    private void deliverInParts(final MessagePartHandler handler, final long messageStart, final int length)
    {
        int done = 0;
        while (done < length)
        {
            final long at = messageStart + done;
            final int index = log.indexInSegment(at);
            final int part = Math.min(length - done, segmentBytes - index);
            handler.onMessagePart(log.segment(at), index, part, done, length);
            done += part;
        }
    }

    /**
     * @return the position up to which the application consumed messages (acquire); the log can take data up to
     * {@code consumedHead() + capacity()}.
     */
    public long consumedHead()
    {
        return log.getAcquire(CONSUMER_SLOT, CONSUMED_HEAD_FIELD);
    }

    /**
     * Agent thread: give the segments the application has consumed back to the pool, so an idle connection holds no
     * receive memory. Cheap when nothing new was consumed.
     */
    public void releaseConsumed()
    {
        if (!isMemoryReleased)
        {
            consumedHeadCache = consumedHead();
            log.releaseBelow(consumedHeadCache);
        }
    }

    /**
     * Agent thread, once the connection closed: give consumed segments back to the pool and credit the rest to the
     * memory budget. Those the application has not consumed yet stay with the log, which it may still poll, until
     * the garbage collector takes it. Idempotent.
     */
    public void releaseMemory()
    {
        if (!isMemoryReleased)
        {
            releaseConsumed();
            isMemoryReleased = true;
            segments.budget().release((long)log.committedSegments() * log.segmentBytes());
            receivedBeyondEnd.releaseMemory();
        }
    }

    /**
     * @return bytes of segments committed now (agent thread).
     */
    public long committedBytes()
    {
        return isMemoryReleased ? 0 : (long)log.committedSegments() * log.segmentBytes();
    }

    /**
     * @return bytes of range bookkeeping allocated for out-of-order data (agent thread), charged to the budget until
     * {@link #releaseMemory()}.
     */
    public long gapMemoryBytes()
    {
        return isMemoryReleased ? 0 : receivedBeyondEnd.allocatedBytes();
    }

    /**
     * @return the number of messages the application consumed (any thread). Read before {@link #consumedHead()} it
     * counts at most the messages before that head: a poll running meanwhile may make it lag, never lead.
     */
    public long consumedMessages()
    {
        return log.getAcquire(CONSUMER_SLOT, CONSUMED_MESSAGES_FIELD);
    }

    /**
     * @return true when the FIN arrived and the application consumed every message up to it.
     */
    public boolean isFinished()
    {
        final long finalSize = finalSize();
        return NO_FINAL_SIZE != finalSize && consumedHead() == finalSize;
    }

    private boolean isWithinWindow(final long end)
    {
        if (end - capacity > consumedHeadCache)
        {
            // Read the application's head only when the cached value says the data does not fit.
            consumedHeadCache = consumedHead();
            // Segments the application has consumed go back before any is reused for data a lap further on.
            log.releaseBelow(consumedHeadCache);
            return end - capacity <= consumedHeadCache;
        }
        return true;
    }

    private void advanceContiguousEnd(final long newEnd)
    {
        long prefix = nextPrefixPosition;
        // As in poll: the segment holding the prefix, looked up once per segment rather than once per message.
        UnsafeBuffer segment = null;
        long segmentEnd = 0;
        while (prefix + LENGTH_PREFIX_BYTES <= newEnd)
        {
            if (prefix >= segmentEnd)
            {
                segment = log.segment(prefix);
                segmentEnd = prefix - log.indexInSegment(prefix) + segmentBytes;
            }
            final int length = prefix + LENGTH_PREFIX_BYTES <= segmentEnd ?
                segment.getInt(log.indexInSegment(prefix), ByteOrder.LITTLE_ENDIAN) : log.getIntLittleEndian(prefix);
            if (length < 0 || length > maxMessageLength)
            {
                // Publish the valid messages before the bad prefix, never the prefix itself.
                nextPrefixPosition = prefix;
                publishContiguousEnd(prefix);
                fail(MESSAGE_FRAMING_ERROR);
                return;
            }
            prefix += LENGTH_PREFIX_BYTES + length;
            messagesArrived++;
        }
        nextPrefixPosition = prefix;
        publishContiguousEnd(newEnd);
    }

    private void publishContiguousEnd(final long newEnd)
    {
        contiguousEnd = newEnd;
        log.putRelease(PRODUCER_SLOT, CONTIGUOUS_END_FIELD, newEnd);
    }

    private int fail(final int error)
    {
        protocolError = error;
        return error;
    }
}
