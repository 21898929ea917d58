package io.pacelink.cli;

import io.pacelink.cli.trust.ConfigDirectory;
import io.pacelink.cli.trust.HostKey;
import io.pacelink.cli.trust.HostKeyStore;
import io.pacelink.cli.trust.KnownHosts;
import io.pacelink.cli.trust.KnownHostsVerifier;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.SecurityConfig;
import io.pacelink.transport.keys.KeyFiles;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * The secure-mode options every networked tool shares (docs/security.md, "Secure mode" and "Secure with zero
 * setup"). The tools are secure unless {@code --insecure} is given, with no setup, as ssh is: a server without
 * {@code --key} or {@code --psk} answers with its host key (created once in the configuration directory,
 * {@link HostKeyStore}), and a client without {@code --peer-key} or {@code --psk} learns the server's key, proves
 * the server holds it, and trusts it on first use, refusing later a key that changed ({@link KnownHostsVerifier}).
 */
public final class SecurityOptions
{
    /**
     * The role a client applies the options in: toward its server.
     */
    public static final String CLIENT = "toward";

    /**
     * The role a server applies the options in: listening on its address.
     */
    public static final String SERVER = "listening on";

    @Option(names = "--key", paramLabel = "FILE",
        description = "This server's private key (from pacelink keygen) instead of its host key in " +
            "~/.config/pacelink: answer Noise NK hellos for it.")
    private Path privateKeyFile;

    @Option(names = "--peer-key", paramLabel = "FILE",
        description = "The server's public key to pin (from pacelink keygen, or its host.pub) instead of trusting " +
            "it on first use: fail unless the server proves it holds the private key.")
    private Path peerKeyFile;

    @Option(names = "--psk", paramLabel = "FILE",
        description = "A 32-byte pre-shared key both ends hold (pacelink keygen --psk): speak Noise NNpsk0.")
    private Path preSharedKeyFile;

    @Option(names = "--aead", paramLabel = "AEAD",
        description = "AESGCM or ChaChaPoly (default: AES-GCM where the CPU has AES instructions).")
    private String aead;

    @Option(names = "--strict-host-key",
        description = "Client: refuse a server whose key is not yet in ~/.config/pacelink/known_hosts (default: " +
            "trust it on first use and remember it).")
    private boolean strictHostKey;

    @Option(names = "--insecure",
        description = "Plaintext: no encryption, no authentication (a CRC32C still catches corruption); both ends " +
            "must give it.")
    private boolean insecure;

    private PrintStream notices = System.err;
    private HostKey hostKey;
    private KnownHostsVerifier verifier;

    /**
     * Configure the context's secure mode from the options: explicit keys, else the host key (a server) or trust on
     * first use (a client); nothing with {@code --insecure}.
     *
     * @param context the endpoint's context.
     * @param address the peer's address (a client) or the listening address (a server).
     * @param role    {@link #CLIENT} or {@link #SERVER}.
     * @throws IllegalArgumentException (a usage error) when the options contradict each other, a key file is bad,
     *                                  or the configuration directory cannot be used.
     */
    public void apply(final PacelinkContext context, final InetSocketAddress address, final String role)
    {
        if (insecure)
        {
            if (null != privateKeyFile || null != peerKeyFile || null != preSharedKeyFile || null != aead ||
                strictHostKey)
            {
                throw new IllegalArgumentException("--insecure turns the secure mode off: give it, or the secure " +
                    "mode's options (--key, --peer-key, --psk, --aead, --strict-host-key), not both");
            }
            return;
        }
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
        security.aead(null != aead || SERVER.equals(role) ? aead : CpuAes.defaultAead());
        if (SERVER.equals(role))
        {
            if (null == privateKeyFile && null == preSharedKeyFile)
            {
                security.serverPrivateKey(hostKey().privateKey());
            }
        }
        else if (null == peerKeyFile && null == preSharedKeyFile)
        {
            security.serverKeyVerifier(verifier());
        }
    }

    /**
     * @return true unless {@code --insecure} was given.
     */
    public boolean isSecure()
    {
        return !insecure;
    }

    /**
     * @param stream where the host key's fingerprint and first uses are announced (standard error by default).
     * @return this.
     */
    SecurityOptions notices(final PrintStream stream)
    {
        notices = stream;
        return this;
    }

    private HostKey hostKey()
    {
        if (null == hostKey)
        {
            final Path directory = ConfigDirectory.resolve();
            try
            {
                hostKey = HostKeyStore.loadOrCreate(directory);
            }
            catch (final IOException ex)
            {
                throw new IllegalArgumentException("cannot load or create this server's host key in " + directory +
                    " (" + ex + "): give --key FILE (pacelink keygen writes one), or set XDG_CONFIG_HOME to a " +
                    "writable directory", ex);
            }
            notices.println("pacelink: " + hostKey.describe());
        }
        return hostKey;
    }

    private KnownHostsVerifier verifier()
    {
        if (null == verifier)
        {
            final KnownHosts knownHosts = new KnownHosts(ConfigDirectory.resolve().resolve(KnownHosts.FILE_NAME));
            try
            {
                knownHosts.entries(); // fail fast on a damaged file, naming the line
            }
            catch (final IOException ex)
            {
                throw new IllegalArgumentException("cannot read " + knownHosts.file() + ": " + ex, ex);
            }
            verifier = new KnownHostsVerifier(knownHosts, strictHostKey, notices);
        }
        return verifier;
    }
}
