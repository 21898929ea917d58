package io.pacelink.cli;

import io.pacelink.transport.port.NioDatagramPort;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RelayWarmUpTest
{
    @Test
    void everyDatagramComesBackThroughAPathThatLosesNone()
    {
        assertEquals(RelayWarmUp.ROUND_TRIPS,
            RelayWarmUp.run(PathArguments.pair("delay=1ms", null), 1, NioDatagramPort::open));
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
