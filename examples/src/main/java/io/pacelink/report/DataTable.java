package io.pacelink.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import com.fasterxml.jackson.databind.SequenceWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The data behind a chart or table: named columns and rows of values, written as CSV (with a header row) and as
 * JSON (an array of objects with the same keys). A value that does not exist (NaN) is an empty CSV field and a JSON
 * null.
 */
public final class DataTable
{
    private static final CsvMapper CSV = new CsvMapper();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<String> columns;
    private final List<Object[]> rows = new ArrayList<>();

    /**
     * @param columns the column names.
     */
    public DataTable(final String... columns)
    {
        this.columns = List.of(columns);
    }

    /**
     * @param values one value per column: text, whole or decimal numbers.
     * @return this.
     */
    public DataTable add(final Object... values)
    {
        if (values.length != columns.size())
        {
            throw new IllegalArgumentException("a row needs " + columns.size() + " values " + columns + ", got " +
                Arrays.toString(values));
        }
        final Object[] row = values.clone();
        for (int i = 0; i < row.length; i++)
        {
            if (row[i] instanceof Double value && (value.isNaN() || value.isInfinite()))
            {
                row[i] = null;
            }
        }
        rows.add(row);
        return this;
    }

    /**
     * @return the column names.
     */
    public List<String> columns()
    {
        return columns;
    }

    /**
     * @return the rows (NaN already turned into null).
     */
    public List<Object[]> rows()
    {
        return rows;
    }

    /**
     * Write {@code base.csv} and {@code base.json}.
     *
     * @param directory where.
     * @param baseName  the files' name without extension.
     */
    public void write(final Path directory, final String baseName)
    {
        try
        {
            Files.createDirectories(directory);
            final CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(true);
            columns.forEach(schema::addColumn);
            try (Writer writer = Files.newBufferedWriter(directory.resolve(baseName + ".csv"), StandardCharsets.UTF_8);
                SequenceWriter csv = CSV.writer(schema.build()).writeValues(writer))
            {
                for (final Object[] row : rows)
                {
                    csv.write(row);
                }
            }
            final List<Map<String, Object>> objects = new ArrayList<>(rows.size());
            for (final Object[] row : rows)
            {
                final Map<String, Object> object = new LinkedHashMap<>();
                for (int i = 0; i < row.length; i++)
                {
                    object.put(columns.get(i), row[i]);
                }
                objects.add(object);
            }
            JSON.writeValue(directory.resolve(baseName + ".json").toFile(), objects);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + directory.resolve(baseName) + ".csv/.json", ex);
        }
    }
}
