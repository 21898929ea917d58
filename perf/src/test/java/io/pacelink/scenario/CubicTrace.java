package io.pacelink.scenario;

import io.pacelink.sim.results.TraceWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * One flow's trace as the scenario runner writes it ({@link TraceWriter} CSV), read back for the CUBIC acceptance
 * checks: time, cwnd, bytes in flight and controller state per row.
 */
final class CubicTrace
{
    private final long[] timeNs;
    private final long[] congestionWindowBytes;
    private final long[] bytesInFlight;
    private final String[] states;

    private CubicTrace(final int rows)
    {
        timeNs = new long[rows];
        congestionWindowBytes = new long[rows];
        bytesInFlight = new long[rows];
        states = new String[rows];
    }

    /**
     * @param directory the scenario's trace directory.
     * @param flowIndex the flow.
     * @param controller the flow's controller name (part of the file name).
     * @return the trace.
     */
    static CubicTrace read(final Path directory, final int flowIndex, final String controller)
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(directory.resolve("flow-" + flowIndex + "-" + controller + ".csv"));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final List<String> columns = List.of(lines.get(0).split(","));
        final int time = columns.indexOf(TraceWriter.COLUMNS[0]);
        final int cwnd = columns.indexOf(TraceWriter.COLUMNS[1]);
        final int inFlight = columns.indexOf(TraceWriter.COLUMNS[3]);
        final int state = columns.indexOf(TraceWriter.COLUMNS[7]);

        final CubicTrace trace = new CubicTrace(lines.size() - 1);
        for (int row = 0; row < lines.size() - 1; row++)
        {
            final String[] fields = lines.get(row + 1).split(",");
            trace.timeNs[row] = Long.parseLong(fields[time]);
            trace.congestionWindowBytes[row] = Long.parseLong(fields[cwnd]);
            trace.bytesInFlight[row] = Long.parseLong(fields[inFlight]);
            trace.states[row] = fields[state];
        }
        return trace;
    }

    int rows()
    {
        return timeNs.length;
    }

    long timeNs(final int row)
    {
        return timeNs[row];
    }

    long congestionWindowBytes(final int row)
    {
        return congestionWindowBytes[row];
    }

    long bytesInFlight(final int row)
    {
        return bytesInFlight[row];
    }

    String state(final int row)
    {
        return states[row];
    }

    /**
     * @param state   a controller state name.
     * @param fromRow where to start looking.
     * @return the first row at or after {@code fromRow} in that state, or -1.
     */
    int firstRowIn(final String state, final int fromRow)
    {
        for (int row = fromRow; row < rows(); row++)
        {
            if (state.equals(states[row]))
            {
                return row;
            }
        }
        return -1;
    }

    /**
     * @param state   a controller state name.
     * @param fromRow where to start looking.
     * @return the first row at or after {@code fromRow} in another state, or -1.
     */
    int firstRowNotIn(final String state, final int fromRow)
    {
        for (int row = fromRow; row < rows(); row++)
        {
            if (!state.equals(states[row]))
            {
                return row;
            }
        }
        return -1;
    }

    /**
     * @param atNs a time.
     * @return the last row sampled at or before that time.
     */
    int rowAt(final long atNs)
    {
        final int found = Arrays.binarySearch(timeNs, atNs);
        return found >= 0 ? found : Math.max(0, -found - 2);
    }
}
