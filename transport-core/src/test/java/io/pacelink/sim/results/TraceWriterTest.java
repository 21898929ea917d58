package io.pacelink.sim.results;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class TraceWriterTest
{
    private static final ConnectionSampler STARTUP = (nowNs, row) ->
        row.set(14_600, 2_500_000, 7_300, 1_250_000, 41_000_000, 40_000_000, "STARTUP");

    @Test
    void writesCsvWithHeaderAndJsonLines()
    {
        final StringWriter csv = new StringWriter();
        final StringWriter json = new StringWriter();
        final TraceWriter writer = new TraceWriter(csv, json);

        writer.sample(1_000_000, STARTUP);
        writer.write(2_000_000, new ConnectionSample().set(1, 2, 3, 4, 5, 6, "PROBE_\"BW\""));

        assertEquals(
            "time_ns,cwnd_bytes,pacing_rate_bytes_per_s,bytes_in_flight,delivery_rate_bytes_per_s,srtt_ns," +
            "min_rtt_ns,state\n" +
            "1000000,14600,2500000,7300,1250000,41000000,40000000,STARTUP\n" +
            "2000000,1,2,3,4,5,6,PROBE_\"BW\"\n",
            csv.toString());
        assertEquals(
            "{\"time_ns\":1000000,\"cwnd_bytes\":14600,\"pacing_rate_bytes_per_s\":2500000,\"bytes_in_flight\":7300," +
            "\"delivery_rate_bytes_per_s\":1250000,\"srtt_ns\":41000000,\"min_rtt_ns\":40000000," +
            "\"state\":\"STARTUP\"}\n" +
            "{\"time_ns\":2000000,\"cwnd_bytes\":1,\"pacing_rate_bytes_per_s\":2,\"bytes_in_flight\":3," +
            "\"delivery_rate_bytes_per_s\":4,\"srtt_ns\":5,\"min_rtt_ns\":6,\"state\":\"PROBE_\\\"BW\\\"\"}\n",
            json.toString());
        assertEquals(2, writer.rows());
    }

    @Test
    void hashDependsOnEveryValue()
    {
        final TraceWriter a = new TraceWriter(null, null);
        final TraceWriter b = new TraceWriter(null, null);
        final TraceWriter c = new TraceWriter(null, null);
        a.sample(1, STARTUP);
        b.sample(1, STARTUP);
        c.sample(1, (nowNs, row) -> row.set(14_600, 2_500_000, 7_300, 1_250_000, 41_000_000, 40_000_000, "DRAIN"));

        assertEquals(a.hash(), b.hash());
        assertNotEquals(a.hash(), c.hash());
        assertNotEquals(new TraceHash().update("ab").update("c").value(),
            new TraceHash().update("a").update("bc").value());
    }

    @Test
    void writesFiles(@TempDir final Path directory) throws IOException
    {
        final Path csv = directory.resolve("flow.csv");
        final Path json = directory.resolve("flow.jsonl");
        try (TraceWriter writer = TraceWriter.open(csv, json))
        {
            writer.sample(5, STARTUP);
        }

        final List<String> csvLines = Files.readAllLines(csv);
        assertEquals(2, csvLines.size());
        assertEquals("5,14600,2500000,7300,1250000,41000000,40000000,STARTUP", csvLines.get(1));
        assertEquals(1, Files.readAllLines(json).size());
    }
}
