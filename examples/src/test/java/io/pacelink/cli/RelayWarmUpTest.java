package io.pacelink.cli;

import io.pacelink.transport.port.NioDatagramPort;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RelayWarmUpTest
{
    @Test
    void everyDatagramComesBackThroughAPathThatLosesNone()
    {
        // At least every round trip: on a loaded machine an answer can come later than the warm-up's loss timer, and
        // then both the late copy and the one sent again come back (counted, as the warm-up counts what came back).
        final int answered = RelayWarmUp.run(PathArguments.pair("delay=1ms", null), 1, NioDatagramPort::open);
        assertTrue(answered >= RelayWarmUp.ROUND_TRIPS && answered < 2 * RelayWarmUp.ROUND_TRIPS,
            "every round trip back, none lost: " + answered);
    }

    @Test
    void aPathThatLosesEverythingEndsTheWarmUpByTimeWithNothingBack()
    {
        assertEquals(0, RelayWarmUp.run(PathArguments.pair("loss=100%", null), 1, NioDatagramPort::open));
    }

    @Test
    void aLossyPathStillGetsSomeBackAfterItsLossesAreGivenUp()
    {
        final int answered = RelayWarmUp.run(PathArguments.pair("loss=50%", null), 1, NioDatagramPort::open);
        assertEquals(true, answered > RelayWarmUp.IN_FLIGHT,
            "more than one window back: lost datagrams were given up and more sent (" + answered + ")");
    }
}
