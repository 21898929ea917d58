package io.pacelink.cli.perf;

import io.pacelink.cli.net.TransportFailure;
import io.pacelink.cli.net.TransportWaits;
import io.pacelink.transport.Connection;

import java.util.List;

/**
 * The start of a ping connection in the perf protocol: the client's hello with role {@code ping}, the server's
 * answer; from then on the server echoes every message ({@link EchoSession}).
 */
public final class PingGreeting
{
    private PingGreeting()
    {
    }

    /**
     * @param connection an established connection to a perf server.
     * @param waits      runs the endpoint while waiting.
     * @param timeoutNs  longest wait for the answer.
     * @return the server's name and version.
     * @throws TransportFailure if the server refuses or does not answer.
     */
    public static String greet(final Connection connection, final TransportWaits waits, final long timeoutNs)
    {
        final ControlChannel channel = new ControlChannel(connection, "the server");
        channel.send(new PerfMessage.Hello(PerfMessage.PROTOCOL_VERSION, PerfMessage.Role.PING, null, 0, null,
            PerfJson.software()));
        final PerfMessage[] answer = new PerfMessage[1];
        waits.await(() -> null != (answer[0] = channel.poll()), timeoutNs, () -> "the server to accept the ping",
            "the server", List.of(connection));
        if (answer[0] instanceof PerfMessage.Accepted accepted)
        {
            return accepted.software();
        }
        throw new TransportFailure(answer[0] instanceof PerfMessage.Failed failed ?
            "the server refused the ping: " + failed.message() : "the server answered the ping's hello with " +
            answer[0].getClass().getSimpleName());
    }
}
