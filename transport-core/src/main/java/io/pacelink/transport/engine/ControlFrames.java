package io.pacelink.transport.engine;

import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.stream.ReceiveLog;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The control frames a connection owes its peer besides ACKs: flow-control credit (MAX_DATA and MAX_STREAM_DATA,
 * RFC 9000 section 4.2) with a delivery receipt, a PING asked for by a timer (keep-alive, handshake confirmation)
 * or by a suspicion that the peer is gone, and a server's NEW_TOKEN for its confirmed client (section 19.7).
 */
final class ControlFrames
{
    private final ReceiveLog receiveLog;
    private final DeliveryReceipts receipts;
    private final int receiveWindowBytes;
    private long advertisedMaxDataBytes;
    private boolean maxDataPending;
    private boolean pingPending;
    private boolean pathResponsePending;
    private long pathResponseData;
    private UnsafeBuffer newToken;
    private int newTokenLength;
    private boolean newTokenPending;

    /**
     * @param receiveLog         what the application reads.
     * @param receipts           asked for a receipt with every credit update.
     * @param receiveWindowBytes the receive window, also the credit advertised in the handshake.
     */
    ControlFrames(final ReceiveLog receiveLog, final DeliveryReceipts receipts, final int receiveWindowBytes)
    {
        this.receiveLog = receiveLog;
        this.receipts = receipts;
        this.receiveWindowBytes = receiveWindowBytes;
        this.advertisedMaxDataBytes = receiveWindowBytes;
    }

    /**
     * @return the receive window in bytes.
     */
    int receiveWindowBytes()
    {
        return receiveWindowBytes;
    }

    /**
     * Advertise more credit once the application consumed half the receive window (RFC 9000 section 4.2 leaves
     * the policy to the implementation; half avoids both stalls and an update per packet), with a receipt of what the
     * application has read.
     *
     * @return 1 if credit is to be advertised, else 0.
     */
    int refreshCredit()
    {
        receiveLog.releaseConsumed();
        final long newMaxData = receiveLog.consumedHead() + receiveWindowBytes;
        if (newMaxData - advertisedMaxDataBytes >= receiveWindowBytes / 2)
        {
            advertisedMaxDataBytes = newMaxData;
            maxDataPending = true;
            receipts.request();
            return 1;
        }
        return 0;
    }

    /**
     * @return true if the peer has less credit left than a minimum-size datagram carries: it waits for this side's
     * application to read (the receive window is full), and cannot make progress by sending data.
     */
    boolean isPeerBlockedByCredit()
    {
        return advertisedMaxDataBytes - receiveLog.highestReceived() < PacelinkContext.MIN_DATAGRAM_SIZE_BYTES;
    }

    /**
     * A packet with credit was lost: it is sent again at its newest value, not the lost one (RFC 9000 section 13.3).
     */
    void onCreditLost()
    {
        maxDataPending = true;
    }

    /**
     * @return true if credit is to be advertised.
     */
    boolean isCreditPending()
    {
        return maxDataPending;
    }

    /**
     * Append MAX_DATA and MAX_STREAM_DATA with the credit to advertise.
     *
     * @return true if both fit; the credit is then no longer pending.
     */
    boolean writeCredit(final PacketWriter writer)
    {
        if (maxDataPending && writer.appendMaxData(advertisedMaxDataBytes) &&
            writer.appendMaxStreamData(ConnectionCore.STREAM_ID, advertisedMaxDataBytes))
        {
            maxDataPending = false;
            return true;
        }
        return false;
    }

    /**
     * The peer challenged this side's address (RFC 9000 section 8.2.2): echo its bytes in the next packet. Only the
     * newest challenge is answered; a lost response is not sent again (section 13.3): the challenger repeats.
     */
    void onPathChallenge(final long pathData)
    {
        pathResponsePending = true;
        pathResponseData = pathData;
    }

    /**
     * @return true if a PATH_RESPONSE is owed: sent at once, like an ACK, whatever the congestion window.
     */
    boolean isPathResponsePending()
    {
        return pathResponsePending;
    }

    /**
     * Append the PATH_RESPONSE owed, if any and if it fits.
     */
    void writePathResponse(final PacketWriter writer)
    {
        if (pathResponsePending &&
            writer.appendPathFrame(FrameType.PATH_RESPONSE, pathResponseData))
        {
            pathResponsePending = false;
        }
    }

    /**
     * The server confirmed its client: give it this token for its later connections (RFC 9000 section 8.1.3) in the
     * next ack-eliciting packet, and again if that packet is lost (section 13.3 lets a lost NEW_TOKEN be sent again
     * as it was: the token is unspent until the client's next hello).
     *
     * @param token       holding the token.
     * @param tokenLength its length, from offset 0.
     */
    void giveNewToken(final UnsafeBuffer token, final int tokenLength)
    {
        if (null == newToken)
        {
            newToken = new UnsafeBuffer(new byte[tokenLength]);
        }
        newToken.putBytes(0, token, 0, tokenLength);
        newTokenLength = tokenLength;
        newTokenPending = true;
    }

    /**
     * @return true if a NEW_TOKEN is owed.
     */
    boolean isNewTokenPending()
    {
        return newTokenPending;
    }

    /**
     * The packet that carried the NEW_TOKEN was lost: send it again.
     */
    void onNewTokenLost()
    {
        newTokenPending = null != newToken;
    }

    /**
     * Append the NEW_TOKEN owed, if any and if it fits.
     *
     * @return true if it was written: no longer pending.
     */
    boolean writeNewToken(final PacketWriter writer)
    {
        if (newTokenPending && writer.appendNewToken(newToken, 0, newTokenLength))
        {
            newTokenPending = false;
            return true;
        }
        return false;
    }

    /**
     * Ask for an ack-eliciting packet even with nothing else to send.
     */
    void requestPing()
    {
        pingPending = true;
    }

    /**
     * @return true if a PING is asked for.
     */
    boolean isPingPending()
    {
        return pingPending;
    }

    /**
     * An ack-eliciting packet went out, or could have: the PING asked for is done.
     */
    void clearPing()
    {
        pingPending = false;
    }
}
