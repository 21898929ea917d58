package io.pacelink.scenario;

import io.pacelink.sim.scenario.Scenario;
import io.pacelink.transport.stream.SendLog;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.wire.AckFrameFlyweight;
import io.pacelink.transport.wire.CloseFrameFlyweight;
import io.pacelink.transport.wire.DataFrameFlyweight;
import io.pacelink.transport.wire.FrameVisitor;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongArrayList;

/**
 * A packet capture on the sending host, for one flow: every datagram that carries new stream data, with the time it
 * left, its size and the stream offset of its data. ACK-only and handshake datagrams and retransmissions (data
 * below the highest offset already sent) are left out. For flows whose messages all have one size, the first
 * eight bytes of a message that starts a frame are kept too: the scenario's request/response senders put the
 * request's offer time there.
 */
final class DataDepartures implements Scenario.FlowDepartureListener, FrameVisitor
{
    private final int flowIndex;
    private final int messageBytes;
    private final PacketDecoder decoder = new PacketDecoder();

    final LongArrayList departureNs = new LongArrayList();
    final LongArrayList datagramBytes = new LongArrayList();
    final LongArrayList streamOffsets = new LongArrayList();
    final LongArrayList messageStamps = new LongArrayList();

    private long nextNewOffset;
    private boolean newData;
    private long streamOffset;
    private long messageStamp;

    /**
     * @param flowIndex    the flow to capture.
     * @param messageBytes size of each message its application offers.
     */
    DataDepartures(final int flowIndex, final int messageBytes)
    {
        this.flowIndex = flowIndex;
        this.messageBytes = messageBytes;
    }

    public void onDeparture(
        final int flowIndex, final DirectBuffer buffer, final int offset, final int length, final long nowNs)
    {
        // A simulated endpoint speaks plaintext: the packet is the datagram without its CRC32C trailer.
        final int packetLength = length - Crc32cPacketCheck.TRAILER_LENGTH;
        if (this.flowIndex != flowIndex || PacketDecoder.OK != decoder.validate(buffer, offset, packetLength))
        {
            return;
        }
        newData = false;
        decoder.visitFrames(buffer, offset, packetLength, this);
        if (newData)
        {
            departureNs.addLong(nowNs);
            datagramBytes.addLong(length);
            streamOffsets.addLong(streamOffset);
            messageStamps.addLong(messageStamp);
        }
    }

    /**
     * @return datagrams captured.
     */
    int size()
    {
        return departureNs.size();
    }

    public void onData(final DataFrameFlyweight data)
    {
        final long offset = data.streamOffset();
        if (offset < nextNewOffset || 0 == data.payloadLength())
        {
            return;
        }
        newData = true;
        streamOffset = offset;
        nextNewOffset = offset + data.payloadLength();
        final long messageFrameBytes = SendLog.LENGTH_PREFIX_BYTES + messageBytes;
        messageStamp = 0 == offset % messageFrameBytes && data.payloadLength() >= messageFrameBytes ?
            data.buffer().getLong(data.payloadOffset() + SendLog.LENGTH_PREFIX_BYTES) : -1;
    }

    public void onAck(final AckFrameFlyweight ack)
    {
    }

    public void onMaxData(final long maximumDataBytes)
    {
    }

    public void onMaxStreamData(final int streamId, final long maximumStreamDataBytes)
    {
    }

    public void onHandshake(final HandshakeFrameFlyweight handshake)
    {
    }

    public void onClose(final CloseFrameFlyweight close)
    {
    }

    public void onPing()
    {
    }

    public void onUnknownFrame(final int frameType)
    {
    }
}
