package io.pacelink.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JitSettlingTest
{
    private static final long SAMPLE_NS = JitSettling.SAMPLE_NS;

    @Test
    void aProcessBelowATenthOfACoreOverASampleIsSettled()
    {
        assertTrue(JitSettling.isSettled(0, SAMPLE_NS));
        assertTrue(JitSettling.isSettled(SAMPLE_NS / 10 - 1, SAMPLE_NS));
        assertFalse(JitSettling.isSettled(SAMPLE_NS / 10, SAMPLE_NS), "a tenth of a core is not below it");
        assertFalse(JitSettling.isSettled(SAMPLE_NS, SAMPLE_NS), "a compiler thread at work");
        assertFalse(JitSettling.isSettled(2 * SAMPLE_NS, SAMPLE_NS), "two at work");
    }

    @Test
    void aShortSampleOrAnUnknownCpuTimeSaysNothing()
    {
        assertTrue(JitSettling.isSettled(0, SAMPLE_NS / 2));
        assertFalse(JitSettling.isSettled(0, SAMPLE_NS / 2 - 1), "cut short by the deadline");
        assertFalse(JitSettling.isSettled(0, 0));
        assertFalse(JitSettling.isSettled(-1, SAMPLE_NS), "the process table did not tell");
    }
}
