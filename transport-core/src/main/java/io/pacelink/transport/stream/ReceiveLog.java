package io.pacelink.transport.stream;

import io.pacelink.transport.MessageHandler;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

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
 * {@link MessageHandler} as one contiguous region (a message that wraps around the end of the log is first copied
 * into a scratch buffer) and then releases the space by publishing the consumed head. The agent reads
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
     * More separate out-of-order ranges than the configured limit (the reassembly memory limit).
     */
    public static final int REASSEMBLY_LIMIT_ERROR = -4;

    /**
     * {@link #finalSize()} before a FIN arrived.
     */
    public static final long NO_FINAL_SIZE = -1;

    private static final int LENGTH_PREFIX_BYTES = SendLog.LENGTH_PREFIX_BYTES;
    private static final int INITIAL_RANGES = 16;

    private static final int PRODUCER_SLOT = 0;
    private static final int CONTIGUOUS_END_FIELD = 0;
    private static final int FINAL_SIZE_FIELD = 1;

    private static final int CONSUMER_SLOT = 1;
    private static final int CONSUMED_HEAD_FIELD = 0;
    private static final int CONSUMED_MESSAGES_FIELD = 1;

    private final CircularStreamBuffer log;
    private final int capacity;
    private final int maxMessageLength;
    private final UnsafeBuffer scratch;

    private final RangeSet receivedBeyondEnd;
    private long contiguousEnd;
    private long nextPrefixPosition;
    private long highestReceived;
    private long finalSize = NO_FINAL_SIZE;
    private long messagesArrived;
    private long consumedHeadCache;
    private int protocolError = NO_ERROR;

    /**
     * A log whose gap count is limited only by its capacity ({@code capacityBytes / 2 + 1} separate ranges, about
     * eight bytes of range storage per byte of capacity in the worst case, allocated only as gaps appear).
     *
     * @param capacityBytes    size of the log, a power of two of at least 64 bytes; also the largest credit the
     *                         agent may grant beyond the consumed head.
     * @param maxMessageLength the longest message accepted; its prefixed record must fit the log.
     */
    public ReceiveLog(final int capacityBytes, final int maxMessageLength)
    {
        this(capacityBytes, maxMessageLength, capacityBytes / 2 + 1);
    }

    /**
     * @param capacityBytes    size of the log, a power of two of at least 64 bytes; also the largest credit the
     *                         agent may grant beyond the consumed head.
     * @param maxMessageLength the longest message accepted; its prefixed record must fit the log.
     * @param maxGaps          the most separate out-of-order ranges held at once, each taking 16 bytes; more is a
     *                         {@link #REASSEMBLY_LIMIT_ERROR}.
     */
    public ReceiveLog(final int capacityBytes, final int maxMessageLength, final int maxGaps)
    {
        this.log = new CircularStreamBuffer(capacityBytes, 2);
        this.capacity = capacityBytes;
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
        this.scratch = new UnsafeBuffer(new byte[maxMessageLength]);
        this.receivedBeyondEnd = new RangeSet(Math.min(INITIAL_RANGES, maxGaps), maxGaps);
        log.putRelease(PRODUCER_SLOT, FINAL_SIZE_FIELD, NO_FINAL_SIZE);
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
     * Store the payload of a DATA frame. Bytes already received are ignored (they are identical retransmissions;
     * RFC 9000 section 2.2 lets a receiver treat differing bytes as an error but does not require it), new bytes
     * are written at their offsets, and the contiguous end moves forward over whatever became contiguous.
     *
     * @param streamOffset stream position of the first payload byte.
     * @param src          holding the payload.
     * @param srcOffset    of the payload in {@code src}.
     * @param length       of the payload, 0 allowed (an empty FIN frame).
     * @param fin          the frame's FIN flag: the stream ends at {@code streamOffset + length}.
     * @return the number of new bytes (0 for a duplicate), or a negative error code ({@link #FLOW_CONTROL_ERROR},
     * {@link #FINAL_SIZE_ERROR}, {@link #MESSAGE_FRAMING_ERROR}, {@link #REASSEMBLY_LIMIT_ERROR}): the peer broke
     * the protocol, close the connection.
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

        final long start = Math.max(streamOffset, contiguousEnd);
        int newBytes = 0;
        if (start < end)
        {
            long gapStart = receivedBeyondEnd.coveredEnd(start);
            while (gapStart < end)
            {
                final long gapEnd = Math.min(receivedBeyondEnd.nextStart(gapStart), end);
                log.write(gapStart, src, srcOffset + (int)(gapStart - streamOffset), (int)(gapEnd - gapStart));
                newBytes += (int)(gapEnd - gapStart);
                gapStart = receivedBeyondEnd.coveredEnd(gapEnd);
            }

            if (!receivedBeyondEnd.add(start, end))
            {
                return fail(REASSEMBLY_LIMIT_ERROR);
            }
            if (receivedBeyondEnd.start(0) == contiguousEnd)
            {
                advanceContiguousEnd(receivedBeyondEnd.end(0));
                receivedBeyondEnd.removeFirst();
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

        try
        {
            while (count < limit && head + LENGTH_PREFIX_BYTES <= end)
            {
                // The agent validated every prefix below the published end.
                final int length = log.getIntLittleEndian(head);
                final long messageStart = head + LENGTH_PREFIX_BYTES;
                if (messageStart + length > end)
                {
                    break;
                }

                head = messageStart + length;
                count++;
                final int index = log.index(messageStart);
                if (index + length <= capacity)
                {
                    handler.onMessage(log.buffer(), index, length);
                }
                else
                {
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

    /**
     * @return the position up to which the application consumed messages (acquire); the log can take data up to
     * {@code consumedHead() + capacity()}.
     */
    public long consumedHead()
    {
        return log.getAcquire(CONSUMER_SLOT, CONSUMED_HEAD_FIELD);
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
            return end - capacity <= consumedHeadCache;
        }
        return true;
    }

    private void advanceContiguousEnd(final long newEnd)
    {
        long prefix = nextPrefixPosition;
        while (prefix + LENGTH_PREFIX_BYTES <= newEnd)
        {
            final int length = log.getIntLittleEndian(prefix);
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
