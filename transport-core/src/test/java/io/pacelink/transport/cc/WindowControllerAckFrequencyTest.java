package io.pacelink.transport.cc;

import io.pacelink.transport.testing.TestControllerContext;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When a window controller lets the transport ask its peer to acknowledge less often (draft-ietf-quic-ack-frequency):
 * only after slow start and the recovery that answers its overshoot. Its window is cwnd, whatever the peer holds
 * unacknowledged, as Linux's is (perf/FINDINGS.md, branch {@code cpu10}).
 */
class WindowControllerAckFrequencyTest
{
    private static final int MSS = TestControllerContext.DEFAULT_MAX_DATAGRAM_SIZE_BYTES;
    private static final long CWND_BYTES = 1_000L * MSS;

    private final TestControllerContext context = new TestControllerContext(ControllerParameters.EMPTY);
    private final Window window = new Window(context);

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
