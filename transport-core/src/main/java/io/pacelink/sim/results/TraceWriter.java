package io.pacelink.sim.results;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes one connection's time series (time, cwnd, pacing rate, bytes in flight, delivery rate, smoothed and min
 * RTT, controller state) as CSV with a header row and/or as JSON lines (one object per row, qlog-style keys equal
 * to the CSV columns), and keeps a {@link TraceHash} of the rows for determinism checks. Rows are written at
 * sampling time, not per packet.
 */
public final class TraceWriter implements Closeable
{
    /**
     * The columns, in CSV order; also the JSON keys.
     */
    public static final String[] COLUMNS = {
        "time_ns", "cwnd_bytes", "pacing_rate_bytes_per_s", "bytes_in_flight", "delivery_rate_bytes_per_s",
        "srtt_ns", "min_rtt_ns", "state" };

    private final Writer csv;
    private final Writer jsonLines;
    private final ConnectionSample sample = new ConnectionSample();
    private final TraceHash hash = new TraceHash();
    private final StringBuilder line = new StringBuilder(256);
    private long rows;

    /**
     * @param csv       where CSV goes, or null for none; the header is written now.
     * @param jsonLines where JSON lines go, or null for none.
     */
    public TraceWriter(final Writer csv, final Writer jsonLines)
    {
        this.csv = csv;
        this.jsonLines = jsonLines;
        if (null != csv)
        {
            write(csv, String.join(",", COLUMNS) + "\n");
        }
    }

    /**
     * @param csvFile       the CSV file, or null for none.
     * @param jsonLinesFile the JSON-lines file, or null for none.
     * @return a writer that owns both files; close it to flush them.
     * @throws UncheckedIOException if a file cannot be created.
     */
    public static TraceWriter open(final Path csvFile, final Path jsonLinesFile)
    {
        try
        {
            final BufferedWriter csv =
                null == csvFile ? null : Files.newBufferedWriter(csvFile, StandardCharsets.UTF_8);
            final BufferedWriter json = null == jsonLinesFile ? null :
                Files.newBufferedWriter(jsonLinesFile, StandardCharsets.UTF_8);
            return new TraceWriter(csv, json);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Ask the sampler for a row and write it.
     *
     * @param nowNs   the sampling time.
     * @param sampler the connection's statistics.
     */
    public void sample(final long nowNs, final ConnectionSampler sampler)
    {
        sampler.sample(nowNs, sample);
        write(nowNs, sample);
    }

    /**
     * @param nowNs the row's time.
     * @param row   the row's values.
     */
    public void write(final long nowNs, final ConnectionSample row)
    {
        rows++;
        hash.update(nowNs)
            .update(row.congestionWindowBytes())
            .update(row.pacingRateBytesPerSecond())
            .update(row.bytesInFlight())
            .update(row.deliveryRateBytesPerSecond())
            .update(row.smoothedRttNs())
            .update(row.minRttNs())
            .update(row.stateName());

        if (null != csv)
        {
            line.setLength(0);
            line.append(nowNs).append(',')
                .append(row.congestionWindowBytes()).append(',')
                .append(row.pacingRateBytesPerSecond()).append(',')
                .append(row.bytesInFlight()).append(',')
                .append(row.deliveryRateBytesPerSecond()).append(',')
                .append(row.smoothedRttNs()).append(',')
                .append(row.minRttNs()).append(',')
                .append(row.stateName()).append('\n');
            write(csv, line);
        }
        if (null != jsonLines)
        {
            line.setLength(0);
            line.append('{');
            appendField(COLUMNS[0], nowNs).append(',');
            appendField(COLUMNS[1], row.congestionWindowBytes()).append(',');
            appendField(COLUMNS[2], row.pacingRateBytesPerSecond()).append(',');
            appendField(COLUMNS[3], row.bytesInFlight()).append(',');
            appendField(COLUMNS[4], row.deliveryRateBytesPerSecond()).append(',');
            appendField(COLUMNS[5], row.smoothedRttNs()).append(',');
            appendField(COLUMNS[6], row.minRttNs()).append(',');
            line.append('"').append(COLUMNS[7]).append("\":\"");
            appendJsonEscaped(row.stateName());
            line.append("\"}\n");
            write(jsonLines, line);
        }
    }

    /**
     * @return rows written.
     */
    public long rows()
    {
        return rows;
    }

    /**
     * @return the hash of every row's values so far.
     */
    public long hash()
    {
        return hash.value();
    }

    /**
     * Flush and close the outputs.
     */
    public void close()
    {
        try
        {
            if (null != csv)
            {
                csv.close();
            }
            if (null != jsonLines)
            {
                jsonLines.close();
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private StringBuilder appendField(final String key, final long value)
    {
        return line.append('"').append(key).append("\":").append(value);
    }

    private void appendJsonEscaped(final String text)
    {
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c == '"' || c == '\\')
            {
                line.append('\\').append(c);
            }
            else if (c < 0x20)
            {
                line.append(String.format("\\u%04x", (int)c));
            }
            else
            {
                line.append(c);
            }
        }
    }

    private static void write(final Writer writer, final CharSequence text)
    {
        try
        {
            writer.append(text);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
