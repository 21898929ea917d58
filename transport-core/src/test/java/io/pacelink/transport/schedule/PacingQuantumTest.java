package io.pacelink.transport.schedule;

import org.junit.jupiter.api.Test;

import static io.pacelink.transport.schedule.PacingQuantum.MAX_QUANTUM_NS;
import static io.pacelink.transport.schedule.PacingQuantum.MIN_QUANTUM_NS;
import static io.pacelink.transport.schedule.PacingQuantum.catchUpHorizonNs;
import static io.pacelink.transport.schedule.PacingQuantum.quantumNs;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The pacing quantum as a function of the rate, the window and the datagram size: both sides of each bound.
 */
class PacingQuantumTest
{
    private static final int DATAGRAM = 1_472;
    private static final long BURST = 10L * DATAGRAM;
    private static final long NO_WINDOW = Long.MAX_VALUE;

    @Test
    void tenDatagramsAtTheRateBetweenTheShortestAndTheLongestQuantum()
    {
        assertEquals(2_355_200L, quantumNs(6_250_000L, NO_WINDOW, DATAGRAM), "50 Mbit/s: 14,720 B at 6.25 MB/s");
        assertEquals(1_177_600L, quantumNs(12_500_000L, NO_WINDOW, DATAGRAM), "100 Mbit/s");
        assertEquals(MIN_QUANTUM_NS, quantumNs(125_000_000L, NO_WINDOW, DATAGRAM), "1 Gbit/s: 118 µs, the minimum");
        assertEquals(MIN_QUANTUM_NS, quantumNs(62_500_000L, NO_WINDOW, DATAGRAM), "500 Mbit/s");
        assertEquals(MAX_QUANTUM_NS, quantumNs(625_000L, NO_WINDOW, DATAGRAM), "5 Mbit/s: 23.6 ms, the maximum");
        assertEquals(1_000_000L, quantumNs(1_000_000L, NO_WINDOW, 100), "small datagrams make a short burst");
    }

    @Test
    void theShortestQuantumHoldsOnBothSidesOfItsRate()
    {
        // 10 datagrams take exactly 750 µs at 19,626,666.67 B/s.
        assertEquals(MIN_QUANTUM_NS, quantumNs(19_626_667L, NO_WINDOW, DATAGRAM), "just faster: the minimum");
        assertEquals(750_038L, quantumNs(19_625_666L, NO_WINDOW, DATAGRAM), "just slower: the burst's time");
    }

    @Test
    void theLongestQuantumHoldsOnBothSidesOfItsRate()
    {
        // 10 datagrams take exactly 4 ms at 3,680,000 B/s.
        assertEquals(MAX_QUANTUM_NS, quantumNs(3_680_000L, NO_WINDOW, DATAGRAM), "at the rate: the maximum");
        assertEquals(MAX_QUANTUM_NS, quantumNs(3_679_999L, NO_WINDOW, DATAGRAM), "slower: the maximum");
        assertEquals(3_999_998L, quantumNs(3_680_001L, NO_WINDOW, DATAGRAM), "faster: the burst's time");
    }

    @Test
    void aBurstIsAtMostAQuarterOfTheWindow()
    {
        assertEquals(2_355_200L, quantumNs(6_250_000L, 4 * BURST, DATAGRAM), "a quarter is exactly ten datagrams");
        assertEquals(2_355_040L, quantumNs(6_250_000L, 4 * BURST - 4, DATAGRAM), "a quarter is a byte less");
        assertEquals(960_000L, quantumNs(6_250_000L, 24_000L, DATAGRAM), "6,000 B, the window's quarter, at 6.25 MB/s");
        assertEquals(MIN_QUANTUM_NS, quantumNs(6_250_000L, 16_000L, DATAGRAM), "below the minimum: the minimum");
        assertEquals(MIN_QUANTUM_NS, quantumNs(6_250_000L, 0, DATAGRAM));
        assertEquals(MIN_QUANTUM_NS, quantumNs(6_250_000L, -1, DATAGRAM), "a nonsense window bursts nothing");
    }

    @Test
    void unpacedFlowsAndNonsenseArgumentsGetTheShortestQuantumOrTheLongestNeverAnOverflow()
    {
        assertEquals(MIN_QUANTUM_NS, quantumNs(0, NO_WINDOW, DATAGRAM), "unpaced");
        assertEquals(MIN_QUANTUM_NS, quantumNs(Long.MAX_VALUE, NO_WINDOW, DATAGRAM), "unpaced");
        assertEquals(MIN_QUANTUM_NS, quantumNs(-5, NO_WINDOW, DATAGRAM));
        assertEquals(MIN_QUANTUM_NS, quantumNs(6_250_000L, NO_WINDOW, 0), "no datagram sent yet");
        assertEquals(MAX_QUANTUM_NS, quantumNs(1, NO_WINDOW, Integer.MAX_VALUE), "1 B/s");
        assertEquals(MIN_QUANTUM_NS, quantumNs(Long.MAX_VALUE - 1, NO_WINDOW, Integer.MAX_VALUE), "no overflow");
        assertEquals(2_000_000L, quantumNs(327_675_000L, NO_WINDOW, Integer.MAX_VALUE),
            "a datagram counts as at most 65,535 B: ten take 2 ms at 327.675 MB/s");
    }

    @Test
    void theHorizonGrowsByWhatTheQuantumExceedsTheShortestOneBy()
    {
        assertEquals(1_000_000L, catchUpHorizonNs(1_000_000L, MIN_QUANTUM_NS), "the default: 1 ms, as before");
        assertEquals(1_000_000L, catchUpHorizonNs(1_000_000L, MIN_QUANTUM_NS - 1), "never shorter than configured");
        assertEquals(1_000_001L, catchUpHorizonNs(1_000_000L, MIN_QUANTUM_NS + 1));
        assertEquals(2_605_200L, catchUpHorizonNs(1_000_000L, 2_355_200L), "50 Mbit/s: the quantum and 250 µs");
        assertEquals(6_605_200L, catchUpHorizonNs(5_000_000L, 2_355_200L), "a longer configured one, likewise");
        assertEquals(250_000L, catchUpHorizonNs(250_000L, MIN_QUANTUM_NS), "a shorter configured one is kept");
        assertEquals(0, catchUpHorizonNs(0, 2_355_200L), "0 forgets all lateness, whatever the quantum");
    }
}
