package io.pacelink.reno;

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

/**
 * Registration under "reno" and validation of the {@code reno.*} parameters.
 */
class NewRenoFactoryTest
{
    private final CongestionControllerFactory factory = CongestionControlRegistry.load().factory("reno");

    @Test
    void isRegisteredAsReno()
    {
        assertInstanceOf(NewRenoFactory.class, factory);
        final TestControllerContext context = new TestControllerContext(ControllerParameters.EMPTY);
        final NewRenoController reno = assertInstanceOf(NewRenoController.class, factory.newController(context));
        assertEquals(NewRenoController.STATE_SLOW_START, reno.stateName());
        assertEquals(context.initialWindowBytes(), context.counter(NewRenoController.CWND_COUNTER));
        assertEquals(Long.MAX_VALUE, context.counter(NewRenoController.SSTHRESH_COUNTER));
    }

    @Test
    void acceptsItsParameterAndIgnoresOtherControllers()
    {
        factory.validate(ControllerParameters.parse("reno.lossReduction=0.7,cubic.beta=0.1,bbr.anything=x"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "reno.lossReductin=0.5|unknown controller parameter reno.lossReductin; known: [reno.lossReduction]",
        "reno.lossReduction=0.2|controller parameter reno.lossReduction=0.2 is out of range; expected 0.5..0.9",
        "reno.lossReduction=half|controller parameter reno.lossReduction=half is not a number; expected 0.5..0.9",
    })
    void rejectsWithAMessageNamingTheParameter(final String parameters, final String message)
    {
        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class, () -> factory.validate(ControllerParameters.parse(parameters)));
        assertEquals(message, ex.getMessage());
    }
}
