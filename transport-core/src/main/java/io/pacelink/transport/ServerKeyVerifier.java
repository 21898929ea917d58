package io.pacelink.transport;

import java.net.InetSocketAddress;

/**
 * Decides whether a client trusts a server's static key it did not know in advance (docs/security.md, "Secure with
 * zero setup"), the part an SSH client's known_hosts file plays. Set with
 * {@link SecurityConfig#serverKeyVerifier(ServerKeyVerifier)} on a client that pins no key: the client asks the server
 * for its key (the server's RETRY carries it), runs Noise NK toward that key — which only a server holding the
 * matching private key completes — and then, before the connection is established, asks this verifier. A refusal
 * ends the connect with {@link CloseReason#AUTHENTICATION_FAILED}, its reason in the outcome's detail.
 * <p>
 * Called on the endpoint's agent thread, once per connection, between two handshake packets: keep it to a lookup and
 * perhaps a short file write (a known-hosts file), never a prompt or a network call. An exception it throws counts as
 * a refusal.
 */
@FunctionalInterface
public interface ServerKeyVerifier
{
    /**
     * @param server          the address the client connected to.
     * @param serverPublicKey the server's static X25519 public key (32 bytes; a copy the verifier may keep), proven:
     *                        the server completed the handshake with it.
     * @return null to trust it, or why not, in a user's words (e.g. that the key differs from the one on record, with
     * both fingerprints, {@code io.pacelink.transport.keys.KeyFingerprint}).
     */
    String verify(InetSocketAddress server, byte[] serverPublicKey);
}
