package io.pacelink.cubic;

import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.testing.TestControllerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Registration under "cubic" and validation of the {@code cubic.*} parameters.
 */
class CubicFactoryTest
{
    private final CongestionControllerFactory factory = CongestionControlRegistry.load().factory("cubic");

    @Test
    void isRegisteredAsCubic()
    {
        assertInstanceOf(CubicFactory.class, factory);
        final TestControllerContext context = new TestControllerContext(ControllerParameters.EMPTY);
        final CubicController cubic = assertInstanceOf(CubicController.class, factory.newController(context));
        assertEquals(CubicController.STATE_SLOW_START, cubic.stateName());
        assertEquals(context.initialWindowBytes(), context.counter(CubicController.CWND_COUNTER));
        assertEquals(Long.MAX_VALUE, context.counter(CubicController.SSTHRESH_COUNTER));
    }

    @Test
    void acceptsKnownParametersAndIgnoresOtherControllers()
    {
        factory.validate(ControllerParameters.parse(
            "cubic.beta=0.8,cubic.c=0.4,cubic.hystart=false,cubic.fastConvergence=true,bbr.unknown=1,reno.x=2"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "cubic.betta=0.7|unknown controller parameter cubic.betta; known: " +
            "[cubic.beta, cubic.c, cubic.fastConvergence, cubic.hystart]",
        "cubic.beta=1.2|controller parameter cubic.beta=1.2 is out of range; expected 0.5..0.9",
        "cubic.beta=0.3|controller parameter cubic.beta=0.3 is out of range; expected 0.5..0.9",
        "cubic.c=fast|controller parameter cubic.c=fast is not a number; expected 0.01..10.0",
        "cubic.c=0|controller parameter cubic.c=0 is out of range; expected 0.01..10.0",
        "cubic.hystart=yes|controller parameter cubic.hystart=yes is not one of rfc9406, linux, off, true, false",
        "cubic.fastConvergence=1|controller parameter cubic.fastConvergence=1 is not a boolean; expected true or false",
    })
    void rejectsWithAMessageNamingTheParameter(final String parameters, final String message)
    {
        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class, () -> factory.validate(ControllerParameters.parse(parameters)));
        assertEquals(message, ex.getMessage());

        final TestControllerContext context = new TestControllerContext(ControllerParameters.parse(parameters));
        assertThrows(IllegalArgumentException.class, () -> factory.newController(context));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({ "rfc9406, RFC9406", "RFC9406, RFC9406", "true, RFC9406", "linux, LINUX", "off, OFF", "false, OFF" })
    void hyStartTakesTheModeOrTheEarlierBoolean(final String value, final CubicParameters.HyStartMode mode)
    {
        final CubicParameters parameters = CubicParameters.from(ControllerParameters.parse("cubic.hystart=" + value));
        assertEquals(mode, parameters.hyStartMode());
    }

    @Test
    void defaultsAreTheRfcConstants()
    {
        final CubicParameters parameters = CubicParameters.from(ControllerParameters.EMPTY);
        assertEquals(0.7, parameters.beta());
        assertEquals(0.4, parameters.c());
        assertEquals(CubicParameters.HyStartMode.RFC9406, parameters.hyStartMode());
        assertTrue(parameters.isFastConvergenceEnabled());
    }
}
