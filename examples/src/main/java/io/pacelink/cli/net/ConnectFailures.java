package io.pacelink.cli.net;

import io.pacelink.cli.Units;
import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionOutcome;

import java.net.InetSocketAddress;

/**
 * Why a tool's connect failed, in words that say what it is and what to do (docs/security.md, "Every failure says
 * what it is"): a key that is not the server's (pinned, or changed since it was trusted), a server key not yet trusted
 * ({@code --strict-host-key}), pre-shared keys that differ, one end secure and the other plaintext, a refusal with the
 * server's reason, nothing listening (ICMP port unreachable), or no answer at all. The transport tells them apart
 * ({@link CloseReason}, with the details in {@link ConnectionOutcome#detail()}); only silence is a guess.
 */
public final class ConnectFailures
{
    private ConnectFailures()
    {
    }

    /**
     * @param connection the connection that did not get established (closed, or still connecting when given up on).
     * @param address    the server.
     * @param timeoutNs  how long the tool waited.
     * @param serverName what the server is, e.g. {@code pacelink receive}.
     * @return the message, e.g. "cannot connect to 10.0.0.2:7474: authentication failed (...)".
     */
    public static String describe(
        final Connection connection, final InetSocketAddress address, final long timeoutNs, final String serverName)
    {
        final String where = "cannot connect to " + address.getHostString() + ":" + address.getPort() + ": ";
        final ConnectionOutcome outcome = connection.outcome();
        if (!outcome.isClosed() || CloseReason.HANDSHAKE_TIMEOUT == outcome.reason())
        {
            return where + "no answer within " + Units.seconds(timeoutNs) + ": is `" + serverName + "` running " +
                "there, and is UDP port " + address.getPort() + " reachable (no firewall dropping it)?";
        }
        final String detail = outcome.detail().isEmpty() ? "" : " (" + outcome.detail() + ")";
        final String text = where + outcome.reason().description() + detail;
        return switch (outcome.reason())
        {
            case PEER_UNREACHABLE -> text + "; is `" + serverName + "` running there?";
            case SECURITY_MISMATCH -> text + "; with the pacelink tools, give --insecure at both ends or at neither";
            default -> text;
        };
    }
}
