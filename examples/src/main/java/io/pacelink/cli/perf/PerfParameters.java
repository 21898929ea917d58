package io.pacelink.cli.perf;

/**
 * What a {@code pacelink perf} client asks the server to run, with iperf3's meanings. Sent in the client's hello
 * (docs/tools.md, "The perf protocol", where the fields are named in snake case); both sides derive every stream's
 * direction and share from it.
 *
 * @param congestionControl the controller every connection of the test runs, at both ends ({@code -C}).
 * @param durationNs        how long to send ({@code -t}), or 0 when {@code bytes} is given.
 * @param bytes             how many bytes each direction moves in total ({@code -n}), or 0 for a timed test.
 * @param streams           parallel connections per direction ({@code -P}).
 * @param reverse           the server sends ({@code -R}).
 * @param bidir             both send, each over its own {@code streams} connections ({@code --bidir}).
 * @param messageBytes      length of each message the sender offers ({@code -l}).
 * @param rateBitsPerSecond the sender's application rate per stream ({@code -b}), or 0 for as fast as it can.
 * @param intervalNs        time between interval reports ({@code -i}), or 0 for none.
 * @param serverOutput      the client wants the server's report back ({@code --get-server-output}).
 * @param serverIntervals   the client wants the server's interval figures back (for {@code -J} and
 *                          {@code --plot} when the server sends).
 * @param omitNs            how long the test runs before {@code durationNs} starts ({@code --omit}, iperf3's
 *                          {@code -O}): data moves as in the rest of the test, but the totals and the CPU figure
 *                          leave it out, so they measure the steady state rather than the JVM's warm-up; 0 for none.
 *                          A server that predates the field ignores it (its figures then cover the whole test).
 */
public record PerfParameters(
    String congestionControl,
    long durationNs,
    long bytes,
    int streams,
    boolean reverse,
    boolean bidir,
    int messageBytes,
    long rateBitsPerSecond,
    long intervalNs,
    boolean serverOutput,
    boolean serverIntervals,
    long omitNs)
{
    /**
     * Most parallel connections per direction. iperf3 allows 128, but a Pacelink connection holds its send and
     * receive buffers from the start (64 MiB by default), so a {@code --bidir} test of 16 (33 connections) already
     * takes half of a server's {@link PerfServer#MAX_CONNECTIONS}.
     */
    public static final int MAX_STREAMS = 16;

    /**
     * Longest message: the endpoints of both ends accept no longer ones.
     */
    public static final int MAX_MESSAGE_BYTES = 1 << 20;

    /**
     * Longest {@code --omit}, iperf3's bound on {@code -O}.
     */
    public static final long MAX_OMIT_NS = 600_000_000_000L;

    /**
     * Longest {@code -t}: a day, iperf3's {@code MAX_TIME} (iperf_api.h). A server runs what any client asks; a longer
     * test is a loop that outlives the operator's attention.
     */
    public static final long MAX_DURATION_NS = 86_400_000_000_000L;

    /**
     * Shortest {@code -i} other than 0 (none): iperf3's {@code MIN_INTERVAL} of 0.1 s. Each interval is a report line
     * at both ends and, with {@code --get-server-output} or {@code -J}, a record the server keeps until the results:
     * a client asking for one every microsecond had a server print a line per duty cycle and slowed its own loopback
     * test to a crawl.
     */
    public static final long MIN_INTERVAL_NS = 100_000_000L;

    /**
     * Longest {@code -i}: iperf3's {@code MAX_INTERVAL} of 60 s.
     */
    public static final long MAX_INTERVAL_NS = 60_000_000_000L;

    /**
     * @return how long the data moves in all: the omitted seconds and then the measured ones.
     */
    public long runNs()
    {
        return omitNs + durationNs;
    }

    /**
     * @return why the parameters cannot run, or null if they can; checked by the client before it connects and by
     * the server before it accepts a test (a client of another build may send anything).
     */
    public String problem()
    {
        if (null == congestionControl || congestionControl.isEmpty())
        {
            return "no congestion controller given";
        }
        if ((durationNs > 0) == (bytes > 0))
        {
            return "give either a duration (-t) or a byte count (-n), positive";
        }
        if (streams < 1 || streams > MAX_STREAMS)
        {
            return "-P must be 1.." + MAX_STREAMS + ", got " + streams;
        }
        if (reverse && bidir)
        {
            return "-R and --bidir exclude each other";
        }
        if (messageBytes < 1 || messageBytes > MAX_MESSAGE_BYTES)
        {
            return "-l must be 1 B.." + MAX_MESSAGE_BYTES + " B, got " + messageBytes;
        }
        if (rateBitsPerSecond < 0)
        {
            return "-b must not be negative";
        }
        if (0 != intervalNs && (intervalNs < MIN_INTERVAL_NS || intervalNs > MAX_INTERVAL_NS))
        {
            return "-i must be 0 (no interval reports) or 0.1..60 seconds, got " + intervalNs / 1e9;
        }
        if (durationNs > MAX_DURATION_NS)
        {
            // Also keeps runNs(), which adds the omit, from wrapping into the past for a peer's largest long.
            return "-t must be at most 86400 seconds (a day), got " + durationNs / 1e9;
        }
        if (omitNs < 0 || omitNs > MAX_OMIT_NS)
        {
            return "--omit must be 0.." + MAX_OMIT_NS / 1_000_000_000L + " seconds, got " + omitNs / 1e9;
        }
        if (omitNs > 0 && 0 == durationNs)
        {
            return "--omit needs a timed test (-t): a byte count (-n) has no steady state to start";
        }
        return null;
    }

    /**
     * @return the test's connections that carry data: {@code streams}, or twice that with {@code bidir}.
     */
    public int dataConnections()
    {
        return bidir ? 2 * streams : streams;
    }

    /**
     * @param index a data connection, 0 to {@link #dataConnections()} - 1.
     * @return true if the client sends on it: the first {@code streams} unless {@code reverse}; the second half of
     * a {@code bidir} test is the server's.
     */
    public boolean clientSends(final int index)
    {
        return bidir ? index < streams : !reverse;
    }

    /**
     * @param index a data connection.
     * @return the bytes it carries in a test of {@code bytes}: each direction's total split evenly over its
     * streams (the first ones take the remainder), or {@link Long#MAX_VALUE} in a timed test.
     */
    public long byteShare(final int index)
    {
        if (0 == bytes)
        {
            return Long.MAX_VALUE;
        }
        final int position = index % streams;
        return bytes / streams + (position < bytes % streams ? 1 : 0);
    }
}
