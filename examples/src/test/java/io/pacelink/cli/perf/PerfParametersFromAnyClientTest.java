package io.pacelink.cli.perf;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A test's parameters as a server decodes them from any client (another build, or a hostile one writing the JSON
 * itself): {@code omit_ns} outside 0..600 s or with a byte count, {@code interval_ns} outside 0 or 0.1..60 s, and
 * {@code duration_ns} over a day are refused with a reason (the server ends that control connection saying it); the
 * values at each limit are accepted, and an older client's hello without {@code omit_ns} means no omit.
 */
class PerfParametersFromAnyClientTest
{
    private static final long SECOND_NS = 1_000_000_000L;

    @Test
    void omitValuesFromAnyClientAreCheckedOnBothSidesOfTheLimit()
    {
        assertNull(decodedFrom(hello(2 * SECOND_NS, "omit_ns", "0")).problem());
        assertNull(decodedFrom(hello(2 * SECOND_NS, "omit_ns", Long.toString(PerfParameters.MAX_OMIT_NS))).problem());
        assertProblem("--omit must be 0..600 seconds",
            decodedFrom(hello(2 * SECOND_NS, "omit_ns", Long.toString(PerfParameters.MAX_OMIT_NS + 1))));
        assertProblem("--omit must be 0..600 seconds", decodedFrom(hello(2 * SECOND_NS, "omit_ns", "-1")));
        assertProblem("--omit must be 0..600 seconds",
            decodedFrom(hello(2 * SECOND_NS, "omit_ns", Long.toString(Long.MIN_VALUE))));
    }

    @Test
    void anOmitWithAByteCountIsRefused()
    {
        final String byteCountHello = hello(2 * SECOND_NS, "omit_ns", Long.toString(SECOND_NS))
            .replace("\"duration_ns\":" + 2 * SECOND_NS, "\"duration_ns\":0")
            .replace("\"bytes\":0", "\"bytes\":1048576");
        assertProblem("--omit needs a timed test", decodedFrom(byteCountHello));
    }

    @Test
    void aHelloWithoutTheOmitMeansNone()
    {
        final String json =
            hello(2 * SECOND_NS, "omit_ns", "0").replace(",\"omit_ns\":0", "").replace("\"omit_ns\":0,", "");
        assertTrue(!json.contains("omit_ns"), json);
        final PerfParameters parameters = decodedFrom(json);
        assertEquals(0, parameters.omitNs());
        assertNull(parameters.problem());
    }

    @Test
    void intervalsFromAnyClientAreNoneOrATenthOfASecondToAMinute()
    {
        for (final long accepted : new long[] {0, PerfParameters.MIN_INTERVAL_NS, PerfParameters.MAX_INTERVAL_NS})
        {
            assertNull(decodedFrom(hello(2 * SECOND_NS, "interval_ns", Long.toString(accepted))).problem(),
                "interval " + accepted + " ns");
        }
        for (final long refused : new long[] {1, PerfParameters.MIN_INTERVAL_NS - 1, PerfParameters.MAX_INTERVAL_NS + 1,
            -1, Long.MIN_VALUE, Long.MAX_VALUE})
        {
            assertProblem("-i must be 0 (no interval reports) or 0.1..60 seconds",
                decodedFrom(hello(2 * SECOND_NS, "interval_ns", Long.toString(refused))));
        }
    }

    @Test
    void aTestRunsAtMostADayAndItsOmitCannotWrapItsLength()
    {
        assertNull(decodedFrom(hello(PerfParameters.MAX_DURATION_NS, "omit_ns",
            Long.toString(PerfParameters.MAX_OMIT_NS))).problem());
        assertProblem("-t must be at most 86400 seconds",
            decodedFrom(hello(PerfParameters.MAX_DURATION_NS + 1, "omit_ns", "0")));
        // runNs() adds the two: a peer's duration near the largest long must not wrap the test's end into the past.
        assertProblem("-t must be at most 86400 seconds",
            decodedFrom(hello(Long.MAX_VALUE - SECOND_NS, "omit_ns", Long.toString(2 * SECOND_NS))));
    }

    private static void assertProblem(final String expected, final PerfParameters parameters)
    {
        final String problem = parameters.problem();
        assertNotNull(problem, parameters.toString());
        assertTrue(problem.startsWith(expected), problem);
    }

    /**
     * A client's hello as JSON text with one numeric field written as given (any digits a client may put there).
     */
    private static String hello(final long durationNs, final String field, final String value)
    {
        final PerfParameters parameters = new PerfParameters("cubic", durationNs, 0, 1, false, false, 128 * 1024, 0,
            SECOND_NS, false, false, 0);
        final UnsafeBuffer encoded = PerfCodec.encode(
            new PerfMessage.Hello(PerfMessage.PROTOCOL_VERSION, PerfMessage.Role.CONTROL, "0", 0, parameters, ""));
        final String json = encoded.getStringWithoutLengthUtf8(0, encoded.capacity());
        final String written = "\"" + field + "\":" + ("omit_ns".equals(field) ? 0 : SECOND_NS);
        assertTrue(json.contains(written), json);
        return json.replace(written, "\"" + field + "\":" + value);
    }

    private static PerfParameters decodedFrom(final String json)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(json.getBytes(StandardCharsets.UTF_8));
        return ((PerfMessage.Hello)PerfCodec.decode(buffer, 0, buffer.capacity(), "a client")).parameters();
    }
}
