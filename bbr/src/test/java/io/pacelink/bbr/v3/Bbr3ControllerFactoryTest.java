package io.pacelink.bbr.v3;

import io.pacelink.transport.testing.ScriptedPath;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.ControllerParameters;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Bbr3ControllerFactoryTest
{
    private static final long MS = 1_000_000L;

    private final Bbr3ControllerFactory factory = new Bbr3ControllerFactory();

    @Test
    void isFoundByNameOnTheClassPath()
    {
        assertInstanceOf(Bbr3ControllerFactory.class, CongestionControlRegistry.load().factory("bbr3"));
        assertEquals("bbr3", factory.name());
    }

    @Test
    void acceptsDefaultsTheLinuxAlternativesAndOtherControllersParameters()
    {
        factory.validate(ControllerParameters.EMPTY);
        factory.validate(ControllerParameters.parse(
            "bbr3.drainPacingGain=0.347,bbr3.downPacingGain=0.91,bbr3.drainRoundsTimeout=0,cubic.beta=0.7"));
    }

    @Test
    void rejectsUnknownBbr3ParametersNamingTheKnownOnes()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> factory.validate(ControllerParameters.parse("bbr3.drainGain=0.5")));

        assertTrue(ex.getMessage().contains("bbr3.drainGain"), ex.getMessage());
        assertTrue(ex.getMessage().contains("bbr3.drainPacingGain"), ex.getMessage());
    }

    @Test
    void rejectsOutOfRangeAndMalformedValues()
    {
        final IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
            () -> factory.validate(ControllerParameters.parse("bbr3.lossThreshold=0.9")));
        assertTrue(range.getMessage().contains("bbr3.lossThreshold=0.9"), range.getMessage());

        final IllegalArgumentException number = assertThrows(IllegalArgumentException.class,
            () -> factory.validate(ControllerParameters.parse("bbr3.beta=high")));
        assertTrue(number.getMessage().contains("bbr3.beta"), number.getMessage());

        final IllegalArgumentException rounds = assertThrows(IllegalArgumentException.class,
            () -> factory.validate(ControllerParameters.parse("bbr3.drainRoundsTimeout=1.5")));
        assertTrue(rounds.getMessage().contains("bbr3.drainRoundsTimeout"), rounds.getMessage());
    }

    @Test
    void rejectsAProbeRttIntervalLongerThanTheMinRttFilter()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> factory.validate(ControllerParameters.parse("bbr3.probeRttIntervalMs=12000")));

        assertTrue(ex.getMessage().contains("bbr3.minRttFilterLengthMs"), ex.getMessage());
    }

    @Test
    void startsInStartupWithTheInitialWindowAndPacingFromIt()
    {
        final Bbr3Run bbr = new Bbr3Run(1, "");

        assertEquals("STARTUP", bbr.stateName());
        assertEquals(14_720, bbr.congestionWindowBytes());
        // Draft InitPacingRate: 4 ln 2 * InitialCwnd / 1 ms before any RTT sample.
        assertEquals(4 * Math.log(2) * 14_720_000, bbr.pacingRateBytesPerSecond(), 1.0);
        assertEquals(bbr.pacingRateBytesPerSecond() / 1000, bbr.sendQuantumBytes());
        assertEquals(Bbr3State.STARTUP.code(), bbr.counter(Bbr3Counters.STATE));
        assertEquals(2773, bbr.counter(Bbr3Counters.PACING_GAIN));
        assertEquals(2000, bbr.counter(Bbr3Counters.CWND_GAIN));
        assertEquals(0, bbr.counter(Bbr3Counters.MAX_BW));
        assertEquals(Bbr3Counters.UNBOUNDED, bbr.counter(Bbr3Counters.BW_SHORTTERM));
        assertEquals(Bbr3Counters.UNBOUNDED, bbr.counter(Bbr3Counters.INFLIGHT_LONGTERM));
        assertEquals(Bbr3Counters.UNBOUNDED, bbr.counter(Bbr3Counters.INFLIGHT_SHORTTERM));
        assertEquals(Bbr3Counters.UNBOUNDED, bbr.counter(Bbr3Counters.MIN_RTT));
        assertEquals(0, bbr.counter(Bbr3Counters.EXTRA_ACKED));
        assertEquals(0, bbr.counter(Bbr3Counters.ROUND_COUNT));
    }

    @Test
    void downPacingGainIsConfigurable()
    {
        final long[] gains = {-1, -1};
        for (final String parameters : new String[] {"", "bbr3.downPacingGain=0.91"})
        {
            final Bbr3Run bbr = new Bbr3Run(1, parameters);
            final ScriptedPath path = bbr.path(2_500_000L, 40 * MS, 0, 1);
            final int index = parameters.isEmpty() ? 0 : 1;
            path.listener((p) ->
            {
                if ("PROBE_BW_DOWN".equals(bbr.stateName()))
                {
                    gains[index] = bbr.counter(Bbr3Counters.PACING_GAIN);
                }
            });
            path.runUntil(4_000 * MS);
        }

        assertEquals(900, gains[0]);
        assertEquals(910, gains[1]);
    }
}
