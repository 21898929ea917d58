package io.pacelink.transport.agent;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The agent's poll for a hello's answer, on given times (no clock, no thread): how long it polls after each hello,
 * what it learns from each answer, and that it never polls for a distant server or on an endpoint that connects to
 * nothing.
 */
class AnswerSpinTest
{
    private static final long T0_NS = 1_000_000_000L;
    private static final long US = TimeUnit.MICROSECONDS.toNanos(1);

    /**
     * A connection whose state the test sets; every other call is unsupported.
     */
    static Connection connection(final AtomicReference<ConnectionState> state)
    {
        return (Connection)Proxy.newProxyInstance(AnswerSpinTest.class.getClassLoader(),
            new Class<?>[] {Connection.class}, (proxy, method, args) ->
            {
                if ("state".equals(method.getName()))
                {
                    return state.get();
                }
                throw new UnsupportedOperationException(method.getName());
            });
    }

    @Test
    void anEndpointThatConnectsToNothingNeverPolls()
    {
        final AnswerSpin spin = new AnswerSpin();
        assertEquals(AnswerSpin.NONE, spin.spinEndNs(T0_NS));
        spin.onConnect(null);
        assertEquals(AnswerSpin.NONE, spin.spinEndNs(T0_NS));
    }

    @Test
    void theFirstHelloIsPolledForAtMostTheLongestPollFromTheEndOfTheCycleThatSentIt()
    {
        final AnswerSpin spin = new AnswerSpin();
        final AtomicReference<ConnectionState> state = new AtomicReference<>(ConnectionState.CONNECTING);
        spin.onConnect(connection(state));
        final long sentNs = T0_NS + 300 * US; // the cycle that built and sent the hello took 300 us
        assertEquals(sentNs + AnswerSpin.MAX_SPIN_NS, spin.spinEndNs(sentNs));
        assertEquals(sentNs + AnswerSpin.MAX_SPIN_NS, spin.spinEndNs(sentNs + AnswerSpin.MAX_SPIN_NS - 1));
        assertEquals(AnswerSpin.NONE, spin.spinEndNs(sentNs + AnswerSpin.MAX_SPIN_NS));
    }

    @Test
    void anAnswerIsTimedAndTheNextHelloIsPolledForTwiceThatLong()
    {
        final AnswerSpin spin = new AnswerSpin();
        final AtomicReference<ConnectionState> first = new AtomicReference<>(ConnectionState.CONNECTING);
        spin.onConnect(connection(first));
        assertEquals(T0_NS + AnswerSpin.MAX_SPIN_NS, spin.spinEndNs(T0_NS));
        first.set(ConnectionState.CONNECTED);
        assertEquals(AnswerSpin.NONE, spin.spinEndNs(T0_NS + 300 * US), "answered: no more polling");
        assertEquals(300 * US, spin.lastAnswerNs());
        assertEquals(1, spin.answersTimed());

        final long t1Ns = T0_NS + 5_000 * US;
        spin.onConnect(connection(new AtomicReference<>(ConnectionState.CONNECTING)));
        assertEquals(t1Ns + AnswerSpin.SPIN_ANSWER_MULTIPLE * 300 * US, spin.spinEndNs(t1Ns));
    }

    @Test
    void aDistantServerIsNotPolledForAndEachAnswerIsTimedAgain()
    {
        final AnswerSpin spin = new AnswerSpin();
        final AtomicReference<ConnectionState> first = new AtomicReference<>(ConnectionState.CONNECTING);
        spin.onConnect(connection(first));
        spin.spinEndNs(T0_NS);
        first.set(ConnectionState.CONNECTED);
        final long rttNs = TimeUnit.MILLISECONDS.toNanos(20);
        spin.spinEndNs(T0_NS + rttNs);
        assertEquals(rttNs, spin.lastAnswerNs());

        final AtomicReference<ConnectionState> second = new AtomicReference<>(ConnectionState.CONNECTING);
        spin.onConnect(connection(second));
        final long t1Ns = T0_NS + 2 * rttNs;
        assertEquals(AnswerSpin.NONE, spin.spinEndNs(t1Ns), "an answer 20 ms away is not polled for");
        second.set(ConnectionState.CONNECTED);
        spin.spinEndNs(t1Ns + 200 * US);
        assertEquals(200 * US, spin.lastAnswerNs(), "the server moved near: the next hello is polled for again");
        spin.onConnect(connection(new AtomicReference<>(ConnectionState.CONNECTING)));
        assertEquals(t1Ns + 1_000 * US + 400 * US, spin.spinEndNs(t1Ns + 1_000 * US));
    }

    @Test
    void aFirstHelloUnansweredWithinTheLongestPollMarksTheServerAsDistant()
    {
        final AnswerSpin spin = new AnswerSpin();
        spin.onConnect(connection(new AtomicReference<>(ConnectionState.CONNECTING)));
        spin.spinEndNs(T0_NS);
        assertEquals(AnswerSpin.NONE, spin.spinEndNs(T0_NS + AnswerSpin.MAX_SPIN_NS + 1));
        assertEquals(AnswerSpin.MAX_SPIN_NS + 1, spin.lastAnswerNs());
        spin.onConnect(connection(new AtomicReference<>(ConnectionState.CONNECTING)));
        assertEquals(AnswerSpin.NONE, spin.spinEndNs(T0_NS + 2 * AnswerSpin.MAX_SPIN_NS));
    }

    @Test
    void aConnectThatFailsTeachesNothing()
    {
        final AnswerSpin spin = new AnswerSpin();
        final AtomicReference<ConnectionState> state = new AtomicReference<>(ConnectionState.CONNECTING);
        spin.onConnect(connection(state));
        spin.spinEndNs(T0_NS);
        state.set(ConnectionState.CLOSED);
        assertEquals(AnswerSpin.NONE, spin.spinEndNs(T0_NS + 100 * US));
        assertEquals(-1, spin.lastAnswerNs());
        assertEquals(0, spin.answersTimed());
        spin.onConnect(connection(new AtomicReference<>(ConnectionState.CLOSED)));
        assertEquals(AnswerSpin.NONE, spin.spinEndNs(T0_NS + 200 * US), "refused at once: nothing to poll for");
    }
}
