package io.pacelink.transport.cc;

import io.pacelink.transport.testing.TestControllerContext;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a window controller does when its peer acknowledges less often (draft-ietf-quic-ack-frequency): the transport
 * asks for fewer ACKs only after slow start and the recovery that answers its overshoot, and the send window allows
 * for the packets the peer may then hold unacknowledged, except during a rate reduction.
 */
class WindowControllerAckFrequencyTest
{
    private static final int MSS = TestControllerContext.DEFAULT_MAX_DATAGRAM_SIZE_BYTES;
    private static final long CWND_BYTES = 1_000L * MSS;

    private final TestControllerContext context = new TestControllerContext(ControllerParameters.EMPTY);
    private final Window window = new Window(context);

    @Test
    void theSendWindowIsTheCongestionWindowWhileThePeerAcknowledgesEverySecondPacket()
    {
        window.set(CWND_BYTES, 500L * MSS);
        assertEquals(CWND_BYTES, window.sendWindowBytes());
        assertEquals(CWND_BYTES, window.congestionWindowBytes());
    }

    @Test
    void theSendWindowAddsThePacketsThePeerMayHoldBeyondOne()
    {
        window.set(CWND_BYTES, 500L * MSS);
        context.peerAckElicitingThreshold(2);
        assertEquals(CWND_BYTES + MSS, window.sendWindowBytes(), "one more packet held than RFC 9000's one");
        context.peerAckElicitingThreshold(9);
        assertEquals(CWND_BYTES + 8L * MSS, window.sendWindowBytes(), "one ACK per 10 packets");
        assertEquals(CWND_BYTES, window.congestionWindowBytes(), "cwnd itself, and what is published, unchanged");
    }

    @Test
    void noAllowanceDuringARateReductionAndItReturnsWhenTheRecoveryEnds()
    {
        context.peerAckElicitingThreshold(9);
        window.set(CWND_BYTES, Long.MAX_VALUE);
        window.onCongestionEvent(congestion(CWND_BYTES));
        assertTrue(window.isInRateReduction());
        assertEquals(window.congestionWindowBytes(), window.sendWindowBytes(),
            "PRR's window is the flight plus what it lets the sender send");

        window.onAck(ack(CWND_BYTES / 2, false));
        assertEquals(window.congestionWindowBytes(), window.sendWindowBytes());

        window.onAck(ack(CWND_BYTES / 2, true));
        assertFalse(window.isInRateReduction());
        assertEquals(window.congestionWindowBytes() + 8L * MSS, window.sendWindowBytes());
    }

    @Test
    void startupLastsUntilTheRecoveryThatAnswersSlowStartsOvershootEnds()
    {
        window.set(CWND_BYTES, Long.MAX_VALUE);
        assertTrue(window.isInStartup(), "the initial slow start");

        window.onCongestionEvent(congestion(CWND_BYTES));
        assertTrue(window.isInRecovery());
        assertTrue(window.isInStartup(), "the recovery from slow start's overshoot");
        window.onAck(ack(CWND_BYTES / 2, false));
        assertTrue(window.isInStartup());

        window.onAck(ack(CWND_BYTES / 2, true));
        assertFalse(window.isInRecovery());
        assertFalse(window.isInStartup(), "over with that recovery");

        window.onCongestionEvent(congestion(window.congestionWindowBytes()));
        assertTrue(window.isInRecovery());
        assertFalse(window.isInStartup(), "a later recovery is not startup");
    }

    @Test
    void startupEndsWithoutARecoveryWhenSlowStartEndsWithoutALoss()
    {
        window.set(CWND_BYTES, Long.MAX_VALUE);
        assertTrue(window.isInStartup());
        window.set(CWND_BYTES, CWND_BYTES);
        assertFalse(window.isInStartup(), "HyStart set ssthresh, no recovery");
    }

    private static CongestionEvent congestion(final long bytesInFlight)
    {
        return fake(CongestionEvent.class, Map.of("startsRecovery", true, "bytesInFlight", bytesInFlight,
            "lostBytes", (long)MSS));
    }

    private static AckEvent ack(final long bytesInFlight, final boolean endsRecovery)
    {
        return fake(AckEvent.class, Map.of("endsRecovery", endsRecovery, "bytesInFlight", bytesInFlight,
            "newlyAckedBytes", 10L * MSS, "priorBytesInFlightBytes", bytesInFlight + 10L * MSS,
            "isCwndLimited", true));
    }

    /**
     * An event whose named methods return the given values and every other one its type's zero.
     */
    private static <T> T fake(final Class<T> type, final Map<String, Object> values)
    {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{ type },
            (proxy, method, args) ->
            {
                final Object value = values.get(method.getName());
                if (null != value)
                {
                    return value;
                }
                final Class<?> returned = method.getReturnType();
                if (boolean.class == returned)
                {
                    return false;
                }
                if (int.class == returned)
                {
                    return 0;
                }
                return 0L;
            }));
    }

    /**
     * The base class with a minimal loss response: ssthresh at 0.7 of cwnd, Proportional Rate Reduction down to it.
     */
    private static final class Window extends WindowController
    {
        Window(final ControllerContext context)
        {
            super(context);
        }

        void set(final long cwndBytes, final long ssthreshBytes)
        {
            congestionWindowBytes = cwndBytes;
            slowStartThresholdBytes = ssthreshBytes;
        }

        public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
        {
        }

        public void onAck(final AckEvent ack)
        {
            isRecoveryAck(ack);
        }

        public void onCongestionEvent(final CongestionEvent event)
        {
            if (startsRecovery(event))
            {
                slowStartThresholdBytes = congestionWindowBytes * 7 / 10;
                startRateReduction(event);
            }
        }

        public void onSpuriousLoss(final long nowNs)
        {
        }

        public String stateName()
        {
            return isInSlowStart() ? STATE_SLOW_START : STATE_CONGESTION_AVOIDANCE;
        }

        public List<String> stateNames()
        {
            return WINDOW_STATE_NAMES;
        }
    }
}
