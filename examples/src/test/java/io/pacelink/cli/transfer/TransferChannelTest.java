package io.pacelink.cli.transfer;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionOutcome;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.MessageHandler;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A session's network thread ends when its connection's outcome is decided — the peer aborted it — while the
 * connection still drains (state CLOSING for three probe timeouts): it used to poll until CLOSED, some 3 s, for every
 * connection a client opened and dropped (`pacelink receive` under the flood's connect probe).
 */
class TransferChannelTest
{
    @Test
    void aSessionEndsWhenThePeerAbortedNotWhenTheConnectionHasDrained()
    {
        final AtomicInteger polls = new AtomicInteger();
        final Connection draining = connection(ConnectionState.CLOSING,
            new ConnectionOutcome(CloseReason.PEER_ABORTED, "", false, 0, 0, 0, 0), polls);
        final SessionPipes pipes = new SessionPipes(new SlotPipe(4, 64), new SlotPipe(4, 64),
            new BackoffIdleStrategy(1, 1, 1_000, TimeUnit.MILLISECONDS.toNanos(1)));
        final TransferChannel channel = new TransferChannel(draining, pipes,
            new BackoffIdleStrategy(1, 1, 1_000, TimeUnit.MILLISECONDS.toNanos(1)), "sender",
            TimeUnit.SECONDS.toNanos(30), 0);

        // A guard against the old behaviour's endless wait (the state never turns CLOSED here), not a timing check.
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> channel.run(() -> { }));
        assertEquals("the sender: aborted by the peer", pipes.failure());
        assertEquals(1, polls.get(), "judged after one poll that found nothing");
    }

    @Test
    void anOpenConnectionWithNothingToDoKeepsTheSessionGoing()
    {
        final AtomicInteger polls = new AtomicInteger();
        final Connection open = connection(ConnectionState.CONNECTED, ConnectionOutcome.OPEN, polls);
        final SessionPipes pipes = new SessionPipes(new SlotPipe(4, 64), new SlotPipe(4, 64),
            new BackoffIdleStrategy(1, 1, 1_000, TimeUnit.MILLISECONDS.toNanos(1)));
        final TransferChannel channel = new TransferChannel(open, pipes,
            new BackoffIdleStrategy(1, 1, 1_000, TimeUnit.MILLISECONDS.toNanos(1)), "sender",
            TimeUnit.SECONDS.toNanos(30), 0);
        final Thread network = new Thread(() -> channel.run(() -> { }), "test-network");
        network.start();
        while (polls.get() < 100)
        {
            Thread.onSpinWait();
        }
        assertEquals(null, pipes.failure(), "still open after 100 polls that found nothing");
        pipes.stop("the test ends");
        pipes.finish();
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> network.join());
    }

    @Test
    void aRefusedOfferStillHandsOverWhatThePeerSentBeforeItClosed()
    {
        final AtomicInteger polls = new AtomicInteger();
        final Connection closed = closedWithOneMessageLeft(polls);
        final SessionPipes pipes = new SessionPipes(new SlotPipe(4, 64), new SlotPipe(4, 64),
            new BackoffIdleStrategy(1, 1, 1_000, TimeUnit.MILLISECONDS.toNanos(1)));
        final Slot outgoing = pipes.outbound().claim();
        pipes.send(outgoing, 8); // the file thread still had something to send when the peer closed
        final TransferChannel channel = new TransferChannel(closed, pipes,
            new BackoffIdleStrategy(1, 1, 1_000, TimeUnit.MILLISECONDS.toNanos(1)), "receiver",
            TimeUnit.SECONDS.toNanos(30), 0);

        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> channel.run(() -> { }));
        final Slot last = pipes.poll();
        assertEquals(42, null == last ? -1 : last.buffer().getByte(0), "the peer's last message, handed over");
        assertEquals("the receiver closed the connection before the session was complete", pipes.failure());
    }

    private static Connection closedWithOneMessageLeft(final AtomicInteger polls)
    {
        final ConnectionOutcome outcome = new ConnectionOutcome(CloseReason.PEER_CLOSE, "", false, 1, 8, 0, 0);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[]{ 42 });
        return (Connection)Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[]{ Connection.class },
            (proxy, method, args) -> switch (method.getName())
            {
                case "state" -> ConnectionState.CLOSED;
                case "outcome" -> outcome;
                case "closeReason" -> outcome.reason();
                case "isEndOfStream" -> false;
                case "offer" -> Connection.CLOSED;
                case "poll" ->
                {
                    if (0 != polls.getAndIncrement())
                    {
                        yield 0;
                    }
                    ((MessageHandler)args[0]).onMessage(message, 0, 1);
                    yield 1;
                }
                case "close", "closeNow" -> null;
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                case "toString" -> "a closed test connection";
                default -> throw new UnsupportedOperationException(method.getName());
            });
    }

    private static Connection connection(
        final ConnectionState state, final ConnectionOutcome outcome, final AtomicInteger polls)
    {
        return (Connection)Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[]{ Connection.class },
            (proxy, method, args) -> switch (method.getName())
            {
                case "state" -> state;
                case "outcome" -> outcome;
                case "closeReason" -> outcome.reason();
                case "isEndOfStream" -> false;
                case "poll" ->
                {
                    polls.incrementAndGet();
                    yield 0;
                }
                case "close", "closeNow" -> null;
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                case "toString" -> "a test connection " + state;
                default -> throw new UnsupportedOperationException(method.getName());
            });
    }
}
