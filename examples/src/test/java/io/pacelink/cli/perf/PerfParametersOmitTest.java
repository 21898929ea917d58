package io.pacelink.cli.perf;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code omit_ns} field of a test's parameters as a server decodes it from any client (another build, or a
 * hostile one writing the JSON itself): values outside 0..600 s, with a byte count, or that would wrap the test's
 * length are refused with a reason (the server ends that control connection saying it), the largest accepted value
 * is accepted, and an older client's hello without the field means no omit.
 */
class PerfParametersOmitTest
{
    private static final long SECOND_NS = 1_000_000_000L;

    @Test
    void omitValuesFromAnyClientAreCheckedOnBothSidesOfTheLimit()
    {
        assertNull(decodedFrom(helloJson(2 * SECOND_NS, "0")).problem());
        assertNull(decodedFrom(helloJson(2 * SECOND_NS, Long.toString(PerfParameters.MAX_OMIT_NS))).problem());
        assertProblem("--omit must be 0..600 seconds",
            decodedFrom(helloJson(2 * SECOND_NS, Long.toString(PerfParameters.MAX_OMIT_NS + 1))));
        assertProblem("--omit must be 0..600 seconds", decodedFrom(helloJson(2 * SECOND_NS, "-1")));
        assertProblem("--omit must be 0..600 seconds",
            decodedFrom(helloJson(2 * SECOND_NS, Long.toString(Long.MIN_VALUE))));
        assertProblem("-t plus --omit is longer than a test can run",
            decodedFrom(helloJson(Long.MAX_VALUE - SECOND_NS, Long.toString(2 * SECOND_NS))));
    }

    @Test
    void anOmitWithAByteCountIsRefused()
    {
        final String byteCountHello = helloJson(2 * SECOND_NS, Long.toString(SECOND_NS))
            .replace("\"duration_ns\":" + 2 * SECOND_NS, "\"duration_ns\":0")
            .replace("\"bytes\":0", "\"bytes\":1048576");
        assertProblem("--omit needs a timed test", decodedFrom(byteCountHello));
    }

    @Test
    void aHelloWithoutTheFieldMeansNoOmit()
    {
        final String json = helloJson(2 * SECOND_NS, "0").replace(",\"omit_ns\":0", "").replace("\"omit_ns\":0,", "");
        assertTrue(!json.contains("omit_ns"), json);
        final PerfParameters parameters = decodedFrom(json);
        assertEquals(0, parameters.omitNs());
        assertNull(parameters.problem());
    }

    private static void assertProblem(final String expected, final PerfParameters parameters)
    {
        final String problem = parameters.problem();
        assertNotNull(problem, parameters.toString());
        assertTrue(problem.startsWith(expected), problem);
    }

    /**
     * A client's hello as JSON text, its omit written as given (any digits a client may put there).
     */
    private static String helloJson(final long durationNs, final String omitNs)
    {
        final PerfParameters parameters =
            new PerfParameters("cubic", durationNs, 0, 1, false, false, 128 * 1024, 0, 0, false, false, 0);
        final UnsafeBuffer encoded = PerfCodec.encode(
            new PerfMessage.Hello(PerfMessage.PROTOCOL_VERSION, PerfMessage.Role.CONTROL, "0", 0, parameters, ""));
        final String json = encoded.getStringWithoutLengthUtf8(0, encoded.capacity());
        assertTrue(json.contains("\"omit_ns\":0"), json);
        return json.replace("\"omit_ns\":0", "\"omit_ns\":" + omitNs);
    }

    private static PerfParameters decodedFrom(final String json)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(json.getBytes(StandardCharsets.UTF_8));
        return ((PerfMessage.Hello)PerfCodec.decode(buffer, 0, buffer.capacity(), "a client")).parameters();
    }
}
