package io.pacelink.cli.trust;

import io.pacelink.transport.ServerKeyVerifier;
import io.pacelink.transport.keys.KeyFingerprint;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Trust on first use with a {@link KnownHosts} file, as OpenSSH's {@code StrictHostKeyChecking=accept-new} does: a
 * server the file knows must present a key the file holds for it; a server it does not know is recorded — once the
 * handshake proved the server holds the key — and announced with its fingerprint on the notice stream, so the user
 * can compare it with the one the server printed. With {@code strict}, an unknown server is refused instead,
 * showing its fingerprint. A changed key is always refused, loudly, with both fingerprints and the line to delete if
 * the change was intended.
 * <p>
 * Non-interactive by design: the tools run in scripts and tests as often as on a terminal, and the check runs
 * inside the handshake, where a prompt would hold it; the notice and {@code strict} take the prompt's place.
 */
public final class KnownHostsVerifier implements ServerKeyVerifier
{
    private final KnownHosts knownHosts;
    private final boolean strict;
    private final PrintStream notices;

    /**
     * @param knownHosts the file.
     * @param strict     true to refuse servers the file does not know.
     * @param notices    where a first use is announced (standard error).
     */
    public KnownHostsVerifier(final KnownHosts knownHosts, final boolean strict, final PrintStream notices)
    {
        this.knownHosts = knownHosts;
        this.strict = strict;
        this.notices = notices;
    }

    public String verify(final InetSocketAddress server, final byte[] serverPublicKey)
    {
        final String name = KnownHosts.name(server);
        final String fingerprint = KeyFingerprint.of(serverPublicKey);
        try
        {
            final List<KnownHosts.Entry> entries = knownHosts.lookup(name);
            for (final KnownHosts.Entry entry : entries)
            {
                if (entry.hasKey(serverPublicKey))
                {
                    return null;
                }
            }
            if (!entries.isEmpty())
            {
                final KnownHosts.Entry known = entries.get(0);
                return "the server's key has changed: " + name + " proved it holds " + fingerprint + ", but " +
                    knownHosts.file() + " line " + known.line() + " trusts " + KeyFingerprint.of(known.key()) +
                    " for it. Someone may be intercepting the connection (a man in the middle), or the server's " +
                    "host key was replaced. If you know it was replaced, delete line " + known.line() + " of " +
                    knownHosts.file() + " and connect again";
            }
            if (strict)
            {
                return "unknown server key: " + name + " is not in " + knownHosts.file() + " (--strict-host-key); " +
                    "its key is " + fingerprint + ". If that is the fingerprint the server printed, connect once " +
                    "without --strict-host-key to record it, or pin its public key file with --peer-key";
            }
            final KnownHosts.Entry added = knownHosts.add(name, serverPublicKey);
            notices.println("pacelink: " + name + " is a new server; trusting its key " + fingerprint +
                " from now on (" + knownHosts.file() + " line " + added.line() + "). Check it against the " +
                "fingerprint the server printed.");
            return null;
        }
        catch (final IOException | IllegalArgumentException ex)
        {
            return "cannot check the server's key " + fingerprint + " against " + knownHosts.file() + ": " +
                ex.getMessage();
        }
    }
}
