package io.pacelink.link;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A mahimahi link trace ({@code mm-link}): one delivery opportunity per line, given as a millisecond timestamp;
 * each opportunity serves up to {@link #OPPORTUNITY_BYTES} bytes of the queued packets, a packet completing at the
 * opportunity that serves its last byte; the bytes of an opportunity that no queued packet uses are lost. The trace
 * repeats with the last timestamp as its period (mahimahi {@code link_queue.cc}: {@code base_timestamp_ +=
 * schedule_.back()}). This is how recorded cellular links are replayed.
 */
public final class MahimahiTrace implements RateSchedule
{
    /**
     * Bytes per delivery opportunity: mahimahi's {@code PACKET_SIZE} (the TUN device's MTU plus its header).
     */
    public static final int OPPORTUNITY_BYTES = 1504;

    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final long[] opportunityMs;
    private final long periodNs;
    private final String name;

    private MahimahiTrace(final long[] opportunityMs, final String name)
    {
        this.opportunityMs = opportunityMs;
        this.periodNs = opportunityMs[opportunityMs.length - 1] * NANOS_PER_MILLI;
        this.name = name;
    }

    /**
     * @param opportunityMs the delivery opportunities in ms, non-decreasing, the last one positive.
     * @param name          how the trace is named in path-spec form (its file name).
     * @return the trace.
     * @throws IllegalArgumentException if the timestamps are not as described.
     */
    public static MahimahiTrace of(final long[] opportunityMs, final String name)
    {
        if (opportunityMs.length == 0)
        {
            throw new IllegalArgumentException("a trace needs at least one delivery opportunity");
        }
        for (int i = 0; i < opportunityMs.length; i++)
        {
            if (opportunityMs[i] < 0 || (i > 0 && opportunityMs[i] < opportunityMs[i - 1]))
            {
                throw new IllegalArgumentException("trace line " + (i + 1) + ": timestamps must be non-negative " +
                    "and non-decreasing, got " + opportunityMs[i]);
            }
        }
        if (opportunityMs[opportunityMs.length - 1] == 0)
        {
            throw new IllegalArgumentException("the last trace timestamp is the period and must be positive");
        }
        return new MahimahiTrace(opportunityMs.clone(), name);
    }

    /**
     * Read a mahimahi trace file: one integer millisecond timestamp per line, blank lines ignored.
     *
     * @param file the trace file.
     * @return the trace, named by the file's path.
     * @throws IllegalArgumentException if the file cannot be read or a line is not a timestamp.
     */
    public static MahimahiTrace load(final Path file)
    {
        return load(file, file.toString());
    }

    /**
     * Read a mahimahi trace file: one integer millisecond timestamp per line, blank lines ignored.
     *
     * @param file the trace file.
     * @param name how the trace is named in path-spec form (the path as the user wrote it).
     * @return the trace.
     * @throws IllegalArgumentException if the file cannot be read or a line is not a timestamp.
     */
    public static MahimahiTrace load(final Path file, final String name)
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read trace file " + file + ": " + ex, ex);
        }

        final long[] opportunities = new long[lines.size()];
        int count = 0;
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i).trim();
            if (!line.isEmpty())
            {
                try
                {
                    opportunities[count++] = Long.parseLong(line);
                }
                catch (final NumberFormatException ex)
                {
                    throw new IllegalArgumentException("trace file " + file + " line " + (i + 1) +
                        ": expected a millisecond timestamp, got \"" + line + "\"", ex);
                }
            }
        }
        return of(Arrays.copyOf(opportunities, count), name);
    }

    /**
     * @return the number of delivery opportunities in one period.
     */
    public int opportunityCount()
    {
        return opportunityMs.length;
    }

    /**
     * @return the period after which the trace repeats.
     */
    public long periodNs()
    {
        return periodNs;
    }

    /**
     * {@inheritDoc}
     */
    public Server newServer()
    {
        return new TraceServer();
    }

    /**
     * {@inheritDoc}
     */
    public long nominalBitsPerSecond()
    {
        return (long)((double)opportunityMs.length * OPPORTUNITY_BYTES * 8 * 1e9 / periodNs);
    }

    /**
     * {@inheritDoc}
     */
    public double capacityBits(final long fromNs, final long toNs)
    {
        return (double)(opportunitiesBefore(toNs) - opportunitiesBefore(fromNs)) * OPPORTUNITY_BYTES * 8;
    }

    /**
     * {@inheritDoc}
     */
    public String toSpec()
    {
        return "trace=" + name;
    }

    /**
     * {@inheritDoc}
     */
    public boolean equals(final Object other)
    {
        return other instanceof MahimahiTrace that && name.equals(that.name) &&
            Arrays.equals(opportunityMs, that.opportunityMs);
    }

    /**
     * {@inheritDoc}
     */
    public int hashCode()
    {
        return 31 * name.hashCode() + Arrays.hashCode(opportunityMs);
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        return toSpec();
    }

    private long opportunitiesBefore(final long timeNs)
    {
        if (timeNs <= 0)
        {
            return 0;
        }
        final long periods = timeNs / periodNs;
        return periods * opportunityMs.length + firstIndexAtOrAfter(timeNs - periods * periodNs);
    }

    /**
     * @param offsetNs time since the start of a period, in [0, period).
     * @return index of the first opportunity at or after it (the count of opportunities before it).
     */
    private int firstIndexAtOrAfter(final long offsetNs)
    {
        final long offsetMs = (offsetNs + NANOS_PER_MILLI - 1) / NANOS_PER_MILLI;
        int low = 0;
        int high = opportunityMs.length;
        while (low < high)
        {
            final int mid = (low + high) >>> 1;
            if (opportunityMs[mid] < offsetMs)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }
        return low;
    }

    private final class TraceServer implements Server
    {
        private long periodStartNs;
        private int nextIndex;
        private long leftoverAtNs = -1;
        private int leftoverBytes;

        public long serviceCompleteNs(final long startNs, final int lengthBytes)
        {
            int remaining = lengthBytes;
            // The rest of the opportunity that completed the previous packet serves a packet that was already
            // queued then (it starts at that same instant); later arrivals find that opportunity gone.
            if (leftoverBytes > 0 && leftoverAtNs >= startNs)
            {
                final int used = Math.min(leftoverBytes, remaining);
                leftoverBytes -= used;
                remaining -= used;
                if (remaining == 0)
                {
                    return leftoverAtNs;
                }
            }
            leftoverBytes = 0;
            skipTo(startNs);

            while (true)
            {
                final long opportunityNs = periodStartNs + opportunityMs[nextIndex] * NANOS_PER_MILLI;
                advance();
                final int used = Math.min(OPPORTUNITY_BYTES, remaining);
                remaining -= used;
                if (remaining == 0)
                {
                    leftoverBytes = OPPORTUNITY_BYTES - used;
                    leftoverAtNs = opportunityNs;
                    return opportunityNs;
                }
            }
        }

        private void skipTo(final long startNs)
        {
            if (periodStartNs + opportunityMs[nextIndex] * NANOS_PER_MILLI >= startNs)
            {
                return;
            }
            final long periods = (startNs - periodStartNs) / periodNs;
            periodStartNs += periods * periodNs;
            nextIndex = firstIndexAtOrAfter(startNs - periodStartNs);
            if (nextIndex == opportunityMs.length)
            {
                nextIndex = 0;
                periodStartNs += periodNs;
            }
        }

        private void advance()
        {
            nextIndex++;
            if (nextIndex == opportunityMs.length)
            {
                nextIndex = 0;
                periodStartNs += periodNs;
            }
        }
    }
}
