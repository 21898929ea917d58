package io.pacelink.transport.engine;

/**
 * Liveness by progress: the idle timeout (RFC 9000 section 10.1) ends a connection whose peer went silent, but a peer
 * that keeps sending PINGs or ACKs that acknowledge nothing new keeps it open for ever while doing nothing with it —
 * holding a connection slot, and drawing ACKs for its PINGs. This counts the peer's packets that make no progress
 * (no new stream data, no new credit or delivery receipt, no new acknowledgement of this side's packets) within each
 * idle timeout; more than the bound in one, with no progress in it, is a verdict the connection acts on. Both ends'
 * keep-alives on an idle connection (a PING every half idle timeout, an ACK for each) stay far below the bound, so a
 * connection an application keeps open on purpose lives on. Times in, verdicts out; allocates nothing.
 */
final class ProgressWatch
{
    private final int maxPacketsWithoutProgress;
    private long windowStartNs;
    private int packetsWithoutProgress;

    /**
     * @param maxPacketsWithoutProgress packets without progress the peer may send in an idle timeout.
     * @param nowNs                     the connection's start.
     */
    ProgressWatch(final int maxPacketsWithoutProgress, final long nowNs)
    {
        this.maxPacketsWithoutProgress = maxPacketsWithoutProgress;
        this.windowStartNs = nowNs;
    }

    /**
     * A packet of the peer made progress: a new window starts.
     */
    void onProgress(final long nowNs)
    {
        windowStartNs = nowNs;
        packetsWithoutProgress = 0;
    }

    /**
     * A packet of the peer made none.
     *
     * @param idleTimeoutNs the connection's idle timeout: the window.
     * @return true if a whole idle timeout passed since the last progress (or the last window) and the peer sent more
     * than the bound of such packets in it; a window within the bound starts a new one.
     */
    boolean onPacketWithoutProgress(final long nowNs, final long idleTimeoutNs)
    {
        packetsWithoutProgress++;
        if (nowNs - windowStartNs < idleTimeoutNs)
        {
            return false;
        }
        final boolean isBeyondBound = packetsWithoutProgress > maxPacketsWithoutProgress;
        windowStartNs = nowNs;
        packetsWithoutProgress = 0;
        return isBeyondBound;
    }
}
