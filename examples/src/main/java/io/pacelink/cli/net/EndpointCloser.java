package io.pacelink.cli.net;

import io.pacelink.transport.Endpoint;

/**
 * Closes a tool's endpoint at once ({@link Endpoint#closeNow()}) when a try-with-resources block ends, where
 * {@link Endpoint#close()} would wait out every connection's draining period (three PTOs, seconds on a slow path)
 * and linger for undelivered data. A tool closes its connections itself first and waits only for their outcomes
 * ({@link ClosingConnections}); what is still open when the block ends (a run that failed or was interrupted) is
 * aborted, which its peer is told.
 *
 * @param endpoint the endpoint.
 */
public record EndpointCloser(Endpoint endpoint) implements AutoCloseable
{
    public void close()
    {
        endpoint.closeNow();
    }
}
