package io.pacelink.transport.engine;

import io.pacelink.transport.stream.ReceiveLog;
import io.pacelink.transport.wire.PacketWriter;

/**
 * Application-level delivery receipts, both ways (docs/wire-format.md, "Closing"). An ACK says a packet reached the
 * peer's transport; a CONSUMED frame says how far the peer's <em>application</em> has read, which is what a close must
 * wait for before it may report that everything was delivered.
 * <p>
 * Inbound: the peer's latest receipt for this side's stream. Outbound: a receipt for the peer's stream goes with every
 * flow-control update, whenever the application has read another eighth of the receive window (at least 256 KiB)
 * since the last one (progress: the peer's application-delivery counts,
 * {@code ConnectionStats.applicationBytesDelivered()}, then advance during a transfer, as a progress bar needs, not
 * only every half window), and once the application has read the whole stream up to its FIN (the receipt the peer's
 * close waits for); a lost receipt is sent again at its newest value, as MAX_DATA is (RFC 9000 section 13.3).
 */
final class DeliveryReceipts
{
    /**
     * A progress receipt goes out each time the application has read this share of the receive window: four per
     * flow-control update, one small ack-eliciting frame per eighth of a window.
     */
    static final int PROGRESS_RECEIPTS_PER_WINDOW = 8;

    /**
     * ... but never more often than once per this many bytes read (some 180 full-size packets): a receipt makes the
     * packet that carries it ack-eliciting, and with a small window an eighth would put one on most of the ACKs the
     * receiver sends. Windows up to 512 KiB thus get no receipts beyond their flow-control updates.
     */
    static final long MIN_PROGRESS_INTERVAL_BYTES = 256 * 1024;

    private final ReceiveLog receiveLog;
    private final long progressIntervalBytes;
    private long peerConsumedPosition;
    private long peerConsumedMessages;
    private long sentPosition = -1;
    private boolean isPending;

    /**
     * @param receiveLog         the stream this side's application reads.
     * @param receiveWindowBytes its flow-control window, which sets how often a progress receipt goes out.
     */
    DeliveryReceipts(final ReceiveLog receiveLog, final long receiveWindowBytes)
    {
        this.receiveLog = receiveLog;
        this.progressIntervalBytes =
            Math.max(MIN_PROGRESS_INTERVAL_BYTES, receiveWindowBytes / PROGRESS_RECEIPTS_PER_WINDOW);
    }

    /**
     * Take the peer's receipt. Receipts only move forward: an older one arriving late changes nothing.
     *
     * @param position   how far the peer's application has read this side's stream.
     * @param messages   how many messages that is.
     * @param sentEnd    the end of what this side has sent.
     * @return false if the receipt claims more than was ever sent: a protocol violation.
     */
    boolean onPeerReceipt(final long position, final long messages, final long sentEnd)
    {
        if (position > sentEnd)
        {
            return false;
        }
        if (position > peerConsumedPosition || (position == peerConsumedPosition && messages > peerConsumedMessages))
        {
            peerConsumedPosition = position;
            peerConsumedMessages = messages;
        }
        return true;
    }

    /**
     * @return how far the peer's application has read this side's stream, per its latest receipt.
     */
    long peerConsumedPosition()
    {
        return peerConsumedPosition;
    }

    /**
     * @return how many messages the peer's application has read, per its latest receipt.
     */
    long peerConsumedMessages()
    {
        return peerConsumedMessages;
    }

    /**
     * @param position a position of this side's stream.
     * @return true if the peer's application has read everything before it.
     */
    boolean isConsumedByPeer(final long position)
    {
        return peerConsumedPosition >= position;
    }

    /**
     * Send a receipt with the next packet that carries frames (a flow-control update goes out).
     */
    void request()
    {
        isPending = true;
    }

    /**
     * Once per duty cycle: ask for the end-of-stream receipt once the application has read the peer's whole stream,
     * or for a progress receipt once it has read another eighth of the window since the last receipt.
     *
     * @return true if a receipt was asked for.
     */
    boolean checkDue()
    {
        if (isPending)
        {
            return false;
        }
        if (receiveLog.isFinished() ? sentPosition != receiveLog.finalSize() :
            receiveLog.consumedHead() - Math.max(0, sentPosition) >= progressIntervalBytes)
        {
            isPending = true;
            return true;
        }
        return false;
    }

    /**
     * @return true if a receipt waits to be sent.
     */
    boolean isPending()
    {
        return isPending;
    }

    /**
     * Append a CONSUMED frame with how far the application has read now.
     *
     * @param writer the packet being built.
     * @return false if it did not fit.
     */
    boolean write(final PacketWriter writer)
    {
        final long position;
        final long messages;
        if (receiveLog.isFinished())
        {
            // Exact at the end: every message of the stream was read, and this thread counted them as they arrived.
            position = receiveLog.finalSize();
            messages = receiveLog.messagesArrived();
        }
        else
        {
            // The count before the head, so it never exceeds the messages before that head.
            messages = receiveLog.consumedMessages();
            position = receiveLog.consumedHead();
        }
        if (!writer.appendConsumed(ConnectionCore.STREAM_ID, position, messages))
        {
            return false;
        }
        sentPosition = position;
        isPending = false;
        return true;
    }

    /**
     * A packet that carried a receipt was lost: send one again, at the newest value.
     */
    void onLost()
    {
        isPending = true;
    }
}
