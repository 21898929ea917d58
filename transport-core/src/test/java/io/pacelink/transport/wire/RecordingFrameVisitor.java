package io.pacelink.transport.wire;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Test visitor that copies every frame it sees into a value record, reading every field and every payload, token and
 * reason byte (so an out-of-bounds view fails loudly), and expands ACK ranges with the RFC 9000 section 19.3.1
 * arithmetic.
 */
public final class RecordingFrameVisitor implements FrameVisitor
{
    /**
     * An ACK frame with its ranges expanded to absolute packet numbers, newest first, each {@code "smallest..largest"}.
     */
    public record Ack(long largestAcked, int ackDelayUs, List<String> ranges, String ecnCounts)
    {
        /**
         * An ACK frame without ECN counts.
         *
         * @param largestAcked the largest acknowledged packet number.
         * @param ackDelayUs   the ACK delay.
         * @param ranges       the ranges, as {@code smallest..largest}, newest first.
         */
        public Ack(final long largestAcked, final int ackDelayUs, final List<String> ranges)
        {
            this(largestAcked, ackDelayUs, ranges, "");
        }
    }

    /**
     * A DATA frame.
     */
    public record Data(int streamId, long streamOffset, boolean fin, String payloadHex)
    {
    }

    /**
     * A MAX_DATA frame.
     */
    public record MaxData(long maximumData)
    {
    }

    /**
     * A MAX_STREAM_DATA frame.
     */
    public record MaxStreamData(int streamId, long maximumStreamData)
    {
    }

    /**
     * A HANDSHAKE frame.
     */
    public record Handshake(
        long sourceConnectionId,
        boolean response,
        int version,
        int maxDatagramSize,
        int maxAckDelayUs,
        int idleTimeoutMs,
        long initialMaxData,
        long initialMaxStreamData,
        String tokenHex)
    {
    }

    /**
     * A CLOSE frame.
     */
    public record Close(int errorCode, String reason)
    {
    }

    /**
     * A CONGESTION_CONTROL frame.
     */
    public record CongestionControl(String name)
    {
    }

    /**
     * A CONSUMED frame.
     */
    public record Consumed(int streamId, long position, long messages)
    {
    }

    /**
     * A PING frame.
     */
    public record Ping()
    {
    }

    /**
     * A frame of a type the decoder does not know.
     */
    public record Unknown(int frameType)
    {
    }

    private static final HexFormat HEX = HexFormat.of();

    private final List<Object> frames = new ArrayList<>();

    /**
     * @return the frames seen, in order.
     */
    public List<Object> frames()
    {
        return frames;
    }

    /**
     * Forget the frames seen so far.
     */
    public void clear()
    {
        frames.clear();
    }

    /**
     * Expand an ACK frame's ranges to absolute packet numbers.
     *
     * @param ack a validated ACK frame.
     * @return {@code "smallest..largest"} per range, newest first.
     */
    public static List<String> ranges(final AckFrameFlyweight ack)
    {
        final List<String> ranges = new ArrayList<>();
        long largest = ack.largestAcked();
        long smallest = AckFrameFlyweight.rangeSmallest(largest, ack.firstRange());
        ranges.add(smallest + ".." + largest);
        for (int i = 0; i < ack.rangeCount(); i++)
        {
            largest = AckFrameFlyweight.nextRangeLargest(smallest, ack.gap(i));
            smallest = AckFrameFlyweight.rangeSmallest(largest, ack.rangeLength(i));
            ranges.add(smallest + ".." + largest);
        }
        return ranges;
    }

    public void onAck(final AckFrameFlyweight ack)
    {
        frames.add(new Ack(ack.largestAcked(), ack.ackDelayUs(), ranges(ack), ack.hasEcnCounts() ?
            "ect0=" + ack.ect0Count() + " ect1=" + ack.ect1Count() + " ce=" + ack.ceCount() : ""));
    }

    public void onData(final DataFrameFlyweight data)
    {
        final byte[] payload = new byte[data.payloadLength()];
        data.buffer().getBytes(data.payloadOffset(), payload);
        frames.add(new Data(data.streamId(), data.streamOffset(), data.fin(), HEX.formatHex(payload)));
    }

    public void onMaxData(final long maximumDataBytes)
    {
        frames.add(new MaxData(maximumDataBytes));
    }

    public void onMaxStreamData(final int streamId, final long maximumStreamDataBytes)
    {
        frames.add(new MaxStreamData(streamId, maximumStreamDataBytes));
    }

    public void onHandshake(final HandshakeFrameFlyweight handshake)
    {
        final byte[] token = new byte[handshake.tokenLength()];
        handshake.buffer().getBytes(handshake.tokenOffset(), token);
        frames.add(new Handshake(
            handshake.sourceConnectionId(),
            handshake.isResponse(),
            handshake.version(),
            handshake.maxDatagramSize(),
            handshake.maxAckDelayUs(),
            handshake.idleTimeoutMs(),
            handshake.initialMaxData(),
            handshake.initialMaxStreamData(),
            HEX.formatHex(token)));
    }

    public void onClose(final CloseFrameFlyweight close)
    {
        frames.add(new Close(close.errorCode(), close.reason()));
    }

    public void onCongestionControl(final CongestionControlFrameFlyweight congestionControl)
    {
        frames.add(new CongestionControl(congestionControl.name()));
    }

    public void onConsumed(final ConsumedFrameFlyweight consumed)
    {
        frames.add(new Consumed(consumed.streamId(), consumed.position(), consumed.messages()));
    }

    public void onPing()
    {
        frames.add(new Ping());
    }

    public void onUnknownFrame(final int frameType)
    {
        frames.add(new Unknown(frameType));
    }
}
