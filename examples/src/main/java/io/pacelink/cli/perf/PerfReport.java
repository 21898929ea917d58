package io.pacelink.cli.perf;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one end knows about one test, in iperf3's three parts: how it started (the connections and the
 * parameters), what each interval saw, and how it ended (every stream's sender and receiver totals, one of them
 * reported by the other end). {@link PerfText} and {@link PerfJson} print it; the client and each of the server's
 * tests fill one in.
 */
final class PerfReport
{
    /**
     * One data connection of the test.
     *
     * @param id         its id in this report.
     * @param index      its index in the test.
     * @param localSends true if this end sends on it.
     * @param local      this end's address.
     * @param remote     the other end's.
     */
    record Connected(int id, int index, boolean localSends, InetSocketAddress local, InetSocketAddress remote)
    {
    }

    /**
     * One data connection at the end of the test.
     *
     * @param id                the stream's id in this report.
     * @param index             its index in the test.
     * @param localSends        true if this end sent on it.
     * @param reverseGroup      true for the second half of a {@code --bidir} test (the server's senders), which
     *                          iperf3 sums separately.
     * @param congestionControl the controller this end ran for it.
     * @param sender            the sending end's totals, or null if unknown (the test failed first).
     * @param receiver          the receiving end's totals, or null if unknown.
     */
    record StreamEnd(
        int id,
        int index,
        boolean localSends,
        boolean reverseGroup,
        String congestionControl,
        StreamTotals sender,
        StreamTotals receiver)
    {
    }

    /**
     * Totals of several streams: bytes added up, from the earliest start to the latest end.
     *
     * @param startSeconds the start.
     * @param endSeconds   the latest end.
     * @param bytes        all bytes.
     * @param retransmits  all retransmits (senders), or -1 if there is no sender figure.
     */
    record Sum(double startSeconds, double endSeconds, long bytes, long retransmits)
    {
        /**
         * @return bits per second over the time.
         */
        double bitsPerSecond()
        {
            return Rates.bitsPerSecond(bytes, endSeconds - startSeconds);
        }
    }

    final boolean isClient;
    final String cookie;
    final PerfParameters parameters;
    final long timestampMs;
    final InetSocketAddress peer;
    final List<Connected> connected = new ArrayList<>();
    final List<List<IntervalSample>> intervals = new ArrayList<>();
    final List<StreamEnd> ends = new ArrayList<>();
    final Map<Integer, List<IntervalSample>> remoteIntervals = new HashMap<>();
    String congestionControl;
    String remoteCongestionControl;
    String qdisc;
    String remoteQdisc;
    double cpuPercent = Double.NaN;
    double remoteCpuPercent = Double.NaN;
    double wholeCpuPercent = Double.NaN;
    double remoteWholeCpuPercent = Double.NaN;
    String serverOutputText;
    JsonNode serverOutputJson;
    String error;

    /**
     * @param isClient    true for the client's report.
     * @param cookie      the test's id.
     * @param parameters  the test.
     * @param timestampMs when it started, epoch ms.
     * @param peer        the server (in the client's report) or the client's control connection (in the server's).
     */
    PerfReport(
        final boolean isClient,
        final String cookie,
        final PerfParameters parameters,
        final long timestampMs,
        final InetSocketAddress peer)
    {
        this.isClient = isClient;
        this.cookie = cookie;
        this.parameters = parameters;
        this.timestampMs = timestampMs;
        this.peer = peer;
    }

    /**
     * @return the seconds at the test's start that its totals leave out ({@code --omit}), 0 for none.
     */
    double omitSeconds()
    {
        return parameters.omitNs() / 1e9;
    }

    /**
     * @param startSeconds an interval's start, from the test's start at either end.
     * @return true if the interval lies in the omitted seconds: each end ends an interval where its omitted seconds
     * end, so the intervals after them start there or later.
     */
    boolean isOmitted(final double startSeconds)
    {
        return startSeconds < omitSeconds();
    }

    /**
     * @param index a data connection's index.
     * @return true if it belongs to the second, separately summed half of a {@code --bidir} test.
     */
    boolean isReverseGroup(final int index)
    {
        return parameters.bidir() && index >= parameters.streams();
    }

    /**
     * End the interval in progress: take every stream's figures, keep them, and print them.
     *
     * @param streams this end's streams.
     * @param clock   the test's interval clock.
     * @param nowNs   the time now.
     * @param text    where the interval's lines go, or null.
     */
    void recordInterval(final List<PerfStream> streams, final IntervalClock clock, final long nowNs,
        final PerfText text)
    {
        final double startSeconds = clock.startSeconds();
        final double endSeconds = clock.advance(nowNs);
        final List<IntervalSample> samples = new ArrayList<>(streams.size());
        for (final PerfStream stream : streams)
        {
            samples.add(stream.interval(startSeconds, endSeconds));
        }
        intervals.add(samples);
        if (null != text)
        {
            text.interval(this, samples);
        }
    }

    /**
     * The omitted seconds are over: end the interval in progress here, however short, so that none straddles them, and
     * start every stream's totals now.
     *
     * @param streams this end's streams.
     * @param clock   the test's interval clock.
     * @param nowNs   the time now.
     * @param text    where the interval's lines go, or null.
     */
    void endOmitted(final List<PerfStream> streams, final IntervalClock clock, final long nowNs, final PerfText text)
    {
        if (clock.isUnderway(nowNs))
        {
            recordInterval(streams, clock, nowNs, text);
        }
        for (int i = 0, size = streams.size(); i < size; i++)
        {
            streams.get(i).endOmitted(nowNs);
        }
    }

    /**
     * @param reverse which group of a {@code --bidir} test (false for every other test).
     * @return true if this end sends on the group's streams.
     */
    boolean localSends(final boolean reverse)
    {
        return parameters.clientSends(reverse ? parameters.streams() : 0) == isClient;
    }

    /**
     * @param samples one interval's samples.
     * @param reverse which group of a {@code --bidir} test (false for every other test).
     * @return their sum, or null if the group has no stream.
     */
    Sum intervalSum(final List<IntervalSample> samples, final boolean reverse)
    {
        long bytes = 0;
        long retransmits = -1;
        double start = Double.NaN;
        double end = 0;
        boolean any = false;
        for (final IntervalSample sample : samples)
        {
            if (isReverseGroup(indexOf(sample.id())) != reverse)
            {
                continue;
            }
            any = true;
            bytes += sample.bytes();
            start = sample.startSeconds();
            end = Math.max(end, sample.endSeconds());
            if (null != sample.state())
            {
                retransmits = Math.max(0, retransmits) + sample.state().retransmits();
            }
        }
        return any ? new Sum(start, end, bytes, retransmits) : null;
    }

    /**
     * @param senders true for the senders' totals, false for the receivers'.
     * @param reverse which group of a {@code --bidir} test (false for every other test).
     * @return their sum, or null if no stream of the group has such totals.
     */
    Sum endSum(final boolean senders, final boolean reverse)
    {
        long bytes = 0;
        long retransmits = -1;
        double start = Double.MAX_VALUE;
        double end = 0;
        boolean any = false;
        for (final StreamEnd stream : ends)
        {
            final StreamTotals totals = senders ? stream.sender() : stream.receiver();
            if (stream.reverseGroup() != reverse || null == totals)
            {
                continue;
            }
            any = true;
            bytes += totals.bytes();
            start = Math.min(start, totals.startSeconds());
            end = Math.max(end, totals.endSeconds());
            if (null != totals.senderTotals())
            {
                retransmits = Math.max(0, retransmits) + totals.senderTotals().retransmits();
            }
        }
        return any ? new Sum(start, end, bytes, retransmits) : null;
    }

    /**
     * @param id a stream's id in this report.
     * @return its interval samples, in order.
     */
    List<IntervalSample> intervalsOf(final int id)
    {
        final List<IntervalSample> samples = new ArrayList<>();
        for (final List<IntervalSample> interval : intervals)
        {
            for (final IntervalSample sample : interval)
            {
                if (sample.id() == id)
                {
                    samples.add(sample);
                }
            }
        }
        return samples;
    }

    /**
     * @param id a stream's id in this report.
     * @return its index in the test.
     */
    int indexOf(final int id)
    {
        for (final Connected stream : connected)
        {
            if (stream.id() == id)
            {
                return stream.index();
            }
        }
        throw new IllegalArgumentException("no stream " + id);
    }

    /**
     * @param index a data connection's index in the test.
     * @return its id in this report.
     */
    int idOf(final int index)
    {
        return connected.get(index).id();
    }
}
