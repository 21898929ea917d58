package io.pacelink.report;

import io.pacelink.link.MahimahiTrace;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CellularTraceTest
{
    private static final String RESOURCE = "/io/pacelink/report/suites/cellular-synthetic.trace";

    @Test
    void shippedTraceIsTheSeededGeneratorsOutput() throws IOException
    {
        try (InputStream shipped = Objects.requireNonNull(getClass().getResourceAsStream(RESOURCE), RESOURCE))
        {
            assertEquals(
                CellularTraceGenerator.generate(CellularTraceGenerator.SEED, CellularTraceGenerator.PERIOD_MS),
                new String(shipped.readAllBytes(), StandardCharsets.US_ASCII),
                "regenerate the trace with CellularTraceGenerator.main (see docs/report.md)");
        }
    }

    @Test
    void traceIsAVaryingLinkOfAboutElevenMegabitsThatRepeatsEveryThirtySeconds() throws URISyntaxException
    {
        final MahimahiTrace trace = MahimahiTrace.load(Path.of(getClass().getResource(RESOURCE).toURI()));

        assertEquals(30_000_000_000L, trace.periodNs());
        final double meanMbps = trace.nominalBitsPerSecond() / 1e6;
        assertTrue(meanMbps > 8 && meanMbps < 15, "mean rate " + meanMbps);
        double slowest = Double.MAX_VALUE;
        double fastest = 0;
        for (int second = 0; second < 30; second++)
        {
            final double mbps = trace.capacityBits(second * 1_000_000_000L, (second + 1) * 1_000_000_000L) / 1e6;
            slowest = Math.min(slowest, mbps);
            fastest = Math.max(fastest, mbps);
        }
        assertTrue(slowest < 0.5 * meanMbps && fastest > 2 * meanMbps,
            "per-second rates " + slowest + " to " + fastest + " Mbit/s: a cellular link varies several-fold");
    }

    @Test
    void sameSeedSameTraceOtherSeedOtherTrace()
    {
        assertEquals(CellularTraceGenerator.generate(7, 2000), CellularTraceGenerator.generate(7, 2000));
        assertTrue(!CellularTraceGenerator.generate(7, 2000).equals(CellularTraceGenerator.generate(8, 2000)));
    }
}
