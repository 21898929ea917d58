package io.pacelink.cli;

import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.SecurityConfig;
import io.pacelink.transport.keys.KeyFiles;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * The secure-mode options every networked tool shares (docs/security.md, "Secure mode"): a tool speaks the secure
 * mode whenever a key or pre-shared key is given, and refuses to run plaintext toward (or listening on) an address
 * other than loopback unless {@code --insecure} says the operator means it.
 */
public final class SecurityOptions
{
    @Option(names = "--key", paramLabel = "FILE",
        description = "This server's private key (from pacelink keygen): answer Noise NK hellos only.")
    private Path privateKeyFile;

    @Option(names = "--peer-key", paramLabel = "FILE",
        description = "The server's public key to pin (from pacelink keygen): speak Noise NK, and fail unless the " +
            "server proves it holds the private key.")
    private Path peerKeyFile;

    @Option(names = "--psk", paramLabel = "FILE",
        description = "A 32-byte pre-shared key both ends hold (pacelink keygen --psk): speak Noise NNpsk0.")
    private Path preSharedKeyFile;

    @Option(names = "--aead", paramLabel = "AEAD",
        description = "AESGCM or ChaChaPoly (default: AES-GCM where the CPU has AES instructions).")
    private String aead;

    @Option(names = "--insecure",
        description = "Allow plaintext (no encryption, no authentication; a CRC32C still catches corruption) " +
            "toward an address other than loopback.")
    private boolean insecure;

    /**
     * Load the keys given into the context and apply the plaintext rule.
     *
     * @param context the endpoint's context.
     * @param address the peer's address (a client) or the listening address (a server).
     * @param role    "toward" or "listening on", for the message.
     * @throws IllegalArgumentException (a usage error) when plaintext is refused or a key file is bad.
     */
    public void apply(final PacelinkContext context, final InetSocketAddress address, final String role)
    {
        final SecurityConfig security = context.security();
        try
        {
            if (null != privateKeyFile)
            {
                security.serverPrivateKey(KeyFiles.readPrivateKey(privateKeyFile));
            }
            if (null != peerKeyFile)
            {
                security.serverPublicKey(KeyFiles.readPublicKey(peerKeyFile));
            }
            if (null != preSharedKeyFile)
            {
                security.preSharedKey(KeyFiles.readPreSharedKey(preSharedKeyFile));
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read key file " + ex.getMessage() + ": give a file written " +
                "by pacelink keygen", ex);
        }
        security.aead(aead);
        if (!security.isSecure() && !insecure && !isLoopback(address))
        {
            throw new IllegalArgumentException("refusing to run plaintext " + role + " " + address.getHostString() +
                ": anyone on the path could read and change the data. Give a key (--peer-key FILE to pin the " +
                "server's, --key FILE on a server, or --psk FILE on both; pacelink keygen writes them), or " +
                "--insecure if you mean it");
        }
    }

    /**
     * @return true if a key or pre-shared key was given.
     */
    public boolean isSecure()
    {
        return null != privateKeyFile || null != peerKeyFile || null != preSharedKeyFile;
    }

    private static boolean isLoopback(final InetSocketAddress address)
    {
        return null != address.getAddress() && address.getAddress().isLoopbackAddress();
    }
}
