package io.pacelink.link.relay;

/**
 * A snapshot of a {@link NetemRelay}'s counters, safe to read from any thread. Counts are totals since the relay
 * started; queue depths are as of the snapshot.
 *
 * @param elapsedNs           time since the relay started.
 * @param forward             the client-to-server direction.
 * @param reverse             the server-to-client direction.
 * @param releasedPackets     packets released by the timer loop (both directions).
 * @param releaseLateP50Ns    median of how late packets were sent after their scheduled release time.
 * @param releaseLateP99Ns    99th percentile of the same.
 * @param releaseLateMaxNs    largest lateness.
 * @param noClientDrops       server datagrams dropped because no client had sent anything yet.
 * @param clients             clients now, each with a socket of its own towards the server.
 * @param clientsOpened       clients so far.
 * @param clientsForgotten    clients forgotten so far (silent too long, or making room for a new one).
 */
public record RelayStats(
    long elapsedNs,
    Direction forward,
    Direction reverse,
    long releasedPackets,
    long releaseLateP50Ns,
    long releaseLateP99Ns,
    long releaseLateMaxNs,
    long noClientDrops,
    int clients,
    long clientsOpened,
    long clientsForgotten)
{
    /**
     * The snapshot of a relay that knew one client at a time.
     *
     * @deprecated the relay keeps a socket per client; use the canonical constructor, with its client counts.
     */
    @Deprecated
    public RelayStats(
        final long elapsedNs,
        final Direction forward,
        final Direction reverse,
        final long releasedPackets,
        final long releaseLateP50Ns,
        final long releaseLateP99Ns,
        final long releaseLateMaxNs,
        final long noClientDrops)
    {
        this(elapsedNs, forward, reverse, releasedPackets, releaseLateP50Ns, releaseLateP99Ns, releaseLateMaxNs,
            noClientDrops, 0, 0, 0);
    }

    /**
     * One direction's counters.
     *
     * @param receivedPackets   datagrams read from the socket.
     * @param receivedBytes     their bytes.
     * @param forwardedPackets  datagrams sent on.
     * @param forwardedBytes    their bytes.
     * @param randomLossPackets dropped by the loss model.
     * @param policedPackets    dropped by the token-bucket policer.
     * @param queueDropPackets  dropped by the bottleneck queue.
     * @param duplicatedPackets extra copies.
     * @param corruptedPackets  packets with a flipped bit.
     * @param queuedPackets     waiting in the bottleneck queue now.
     * @param queuedBytes       their bytes.
     * @param sendFailures      sends the socket refused (its buffer was full): self-inflicted loss.
     * @param ecnCapablePackets datagrams that arrived ECN-capable (ECT(0), ECT(1) or CE); 0 on a port that cannot
     *                          read the field.
     * @param queueMarkPackets  marked CE by the bottleneck queue instead of dropped.
     */
    public record Direction(
        long receivedPackets,
        long receivedBytes,
        long forwardedPackets,
        long forwardedBytes,
        long randomLossPackets,
        long policedPackets,
        long queueDropPackets,
        long duplicatedPackets,
        long corruptedPackets,
        int queuedPackets,
        long queuedBytes,
        long sendFailures,
        long ecnCapablePackets,
        long queueMarkPackets)
    {
        /**
         * One direction's counters without ECN's, as before ECN.
         *
         * @deprecated use the canonical constructor; to be removed in the next minor version.
         */
        @Deprecated
        public Direction(
            final long receivedPackets,
            final long receivedBytes,
            final long forwardedPackets,
            final long forwardedBytes,
            final long randomLossPackets,
            final long policedPackets,
            final long queueDropPackets,
            final long duplicatedPackets,
            final long corruptedPackets,
            final int queuedPackets,
            final long queuedBytes,
            final long sendFailures)
        {
            this(receivedPackets, receivedBytes, forwardedPackets, forwardedBytes, randomLossPackets, policedPackets,
                queueDropPackets, duplicatedPackets, corruptedPackets, queuedPackets, queuedBytes, sendFailures, 0, 0);
        }
    }

    /**
     * @param previous an earlier snapshot, or null for the start.
     * @return one line of per-interval counters: forwarded packets and rate, drops by loss, by the policer (once it
     * has dropped any), duplicated and corrupted packets (once there were any) and drops by queue, ECN-capable
     * arrivals and CE marks (once there were any), queue depth per direction, and the release lateness.
     */
    public String formatInterval(final RelayStats previous)
    {
        final double seconds = (elapsedNs - (null == previous ? 0 : previous.elapsedNs)) / 1e9;
        return String.format("%7.1fs  fwd %s  |  rev %s  |  late p50 %dus p99 %dus",
            elapsedNs / 1e9,
            formatDirection(forward, null == previous ? null : previous.forward, seconds),
            formatDirection(reverse, null == previous ? null : previous.reverse, seconds),
            releaseLateP50Ns / 1000,
            releaseLateP99Ns / 1000);
    }

    /**
     * @return a multi-line summary of the whole run.
     */
    public String formatSummary()
    {
        final String newline = System.lineSeparator();
        return "netem relay summary after " + String.format("%.1f", elapsedNs / 1e9) + "s" + newline +
            "  forward: " + formatDirection(forward, null, elapsedNs / 1e9) + newline +
            "  reverse: " + formatDirection(reverse, null, elapsedNs / 1e9) + newline +
            "  release lateness over " + releasedPackets + " packets: p50 " + releaseLateP50Ns / 1000 + "us, p99 " +
            releaseLateP99Ns / 1000 + "us, max " + releaseLateMaxNs / 1000 + "us" + newline +
            "  clients: " + clientsOpened + " (" + clients + " now, " + clientsForgotten + " forgotten)" +
            (noClientDrops > 0 ? newline + "  dropped before any client was seen: " + noClientDrops : "");
    }

    private static String formatDirection(final Direction now, final Direction before, final double seconds)
    {
        final long forwarded = now.forwardedPackets - (null == before ? 0 : before.forwardedPackets);
        final long forwardedBytes = now.forwardedBytes - (null == before ? 0 : before.forwardedBytes);
        final long lost = now.randomLossPackets - (null == before ? 0 : before.randomLossPackets);
        final long policed = now.policedPackets - (null == before ? 0 : before.policedPackets);
        final long queueDrops = now.queueDropPackets - (null == before ? 0 : before.queueDropPackets);
        final long sendFailures = now.sendFailures - (null == before ? 0 : before.sendFailures);
        final long duplicated = now.duplicatedPackets - (null == before ? 0 : before.duplicatedPackets);
        final long corrupted = now.corruptedPackets - (null == before ? 0 : before.corruptedPackets);
        final long marks = now.queueMarkPackets - (null == before ? 0 : before.queueMarkPackets);
        final long ecnCapable = now.ecnCapablePackets - (null == before ? 0 : before.ecnCapablePackets);
        return String.format("%d pkt %.1f Mbit/s, loss %d, %s%s%sqdrop %d, %squeue %dp/%dB%s",
            forwarded,
            seconds > 0 ? forwardedBytes * 8 / seconds / 1e6 : 0.0,
            lost,
            now.policedPackets > 0 ? "policed " + policed + ", " : "",
            now.duplicatedPackets > 0 ? "dup " + duplicated + ", " : "",
            now.corruptedPackets > 0 ? "corrupt " + corrupted + ", " : "",
            queueDrops,
            now.ecnCapablePackets > 0 || now.queueMarkPackets > 0 ?
                "ecn-capable " + ecnCapable + ", ce marks " + marks + ", " : "",
            now.queuedPackets,
            now.queuedBytes,
            sendFailures > 0 ? ", send failures " + sendFailures : "");
    }
}
