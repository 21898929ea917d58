package io.pacelink.transport.engine;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * What an endpoint does when its own code throws while acting for a connection: an exception from the transport or a
 * congestion controller is a bug, never the peer's doing — what a peer sends is checked, dropped and counted before
 * anything acts on it (docs/security.md). The exception is counted ({@code errors}) and handed to the context's error
 * handler; the endpoint and its other connections go on.
 * <p>
 * The connection it came from is ended with {@link io.pacelink.transport.CloseReason#INTERNAL_ERROR}: its state can
 * no longer be trusted (an ACK half applied, a packet recorded but never handed to the port), and left running it
 * could stall without a word, which would lose what its application sent silently. Its peer is told with a CLOSE
 * (RFC 9000 section 10.2's immediate close, error INTERNAL_ERROR as in section 20.1), so neither side waits for an
 * idle timeout. Building that CLOSE runs the connection's code again; if that fails too, or the connection was
 * already closing, it is removed at once and its peer learns it from the next packet it sends (a stateless reset
 * from a server, an idle timeout otherwise).
 */
final class ConnectionFailures
{
    private final ErrorHandler errorHandler;
    private final AtomicCounter errors;
    private final ConnectionTable connections;

    ConnectionFailures(final ErrorHandler errorHandler, final AtomicCounter errors, final ConnectionTable connections)
    {
        this.errorHandler = errorHandler;
        this.errors = errors;
        this.connections = connections;
    }

    /**
     * @param connection the connection the endpoint was acting for, or null if none (the exception is only counted
     *                   and reported).
     * @param failure    what was thrown.
     */
    void onFailure(final ConnectionCore connection, final Throwable failure)
    {
        report(failure);
        if (null == connection || connection.tableIndex() < 0)
        {
            return;
        }
        if (connection.failInternally(describe(failure)))
        {
            connections.mark(connection); // its CLOSE goes out in the next duty cycle's send phase
            return;
        }
        try
        {
            connection.finishClose();
        }
        catch (final RuntimeException again)
        {
            report(again);
        }
        connections.remove(connection);
    }

    private void report(final Throwable failure)
    {
        errors.incrementRelease();
        errorHandler.onError(failure);
    }

    /**
     * @return the exception and where it was thrown, for the connection's outcome.
     */
    static String describe(final Throwable failure)
    {
        final StackTraceElement[] frames = failure.getStackTrace();
        return failure + (frames.length > 0 ? " (at " + frames[0] + ")" : "");
    }
}
