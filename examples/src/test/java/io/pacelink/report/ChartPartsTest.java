package io.pacelink.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The small parts the charts and tables are built from.
 */
class ChartPartsTest
{
    @Test
    void oneStandardDeviationEllipseOfTheCornersOfASquareIsACircle()
    {
        // Corners of a 2 x 2 square: sample variances 4/3 each way, no covariance.
        final double[] x = { 0, 2, 0, 2 };
        final double[] y = { 0, 0, 2, 2 };
        final double[] polygon = ThroughputDelayChart.ellipse(x, y, 1, 1, false);

        final double radius = Math.sqrt(4.0 / 3);
        for (int i = 0; i < polygon.length; i += 2)
        {
            assertEquals(radius, Math.hypot(polygon[i] - 1, polygon[i + 1] - 1), 1e-9);
        }
    }

    @Test
    void ellipseFollowsACorrelationAndVanishesForOneSpot()
    {
        // On the line y = x: the major axis lies along it, the minor one is zero.
        final double[] onLine = { 1, 2, 3 };
        final double[] polygon = ThroughputDelayChart.ellipse(onLine, onLine, 2, 2, false);
        for (int i = 0; i < polygon.length; i += 2)
        {
            assertEquals(polygon[i], polygon[i + 1], 1e-9);
        }
        // Variances 1 and 1, covariance 1: eigenvalues 2 and 0, so the ellipse reaches sqrt 2 from the mean.
        assertEquals(Math.sqrt(2), Math.hypot(polygon[0] - 2, polygon[1] - 2), 1e-9);

        final double[] same = { 5, 5, 5 };
        assertNull(ThroughputDelayChart.ellipse(same, same, 5, 5, false));
    }

    @Test
    void svgGeometryKeepsOneDecimal()
    {
        assertEquals("12", ChartStyle.oneDecimal(12.04));
        assertEquals("12.1", ChartStyle.oneDecimal(12.06));
        assertEquals("-0.3", ChartStyle.oneDecimal(-0.26));
        assertEquals("-3.5", ChartStyle.oneDecimal(-3.46));
        assertEquals("0", ChartStyle.oneDecimal(-0.01));
    }

    @Test
    void numbersInTablesHaveThreeSignificantDigits()
    {
        assertEquals("465", ReportPage.number(465.4));
        assertEquals("52.3", ReportPage.number(52.31));
        assertEquals("4.26", ReportPage.number(4.2613));
        assertEquals("0.329", ReportPage.number(0.32912));
        assertEquals("0", ReportPage.number(0));
        assertEquals("—", ReportPage.number(Double.NaN));
    }

    @Test
    void spreadLeavesOutValuesThatDoNotExist()
    {
        assertEquals(new Spread(2, 1, 3), Spread.of(1, Double.NaN, 3));
        assertEquals(Double.NaN, Spread.of(Double.NaN).mean());
    }

    @Test
    void dataTablesWriteCsvAndJsonWithTheSameColumns(@TempDir final Path directory) throws IOException
    {
        new DataTable("name", "value_ms", "count")
            .add("a, quoted \"b\"", 1.5, 3)
            .add("c", Double.NaN, 4L)
            .write(directory, "table");

        assertEquals(List.of("name,value_ms,count", "\"a, quoted \"\"b\"\"\",1.5,3", "c,,4"),
            Files.readAllLines(directory.resolve("table.csv")));
        assertEquals("[{\"name\":\"a, quoted \\\"b\\\"\",\"value_ms\":1.5,\"count\":3}," +
            "{\"name\":\"c\",\"value_ms\":null,\"count\":4}]", Files.readString(directory.resolve("table.json")));
    }
}
