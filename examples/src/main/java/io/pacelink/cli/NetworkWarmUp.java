package io.pacelink.cli;

import io.pacelink.transport.port.BatchedPortSupport;
import io.pacelink.transport.secure.AeadAlgorithm;
import io.pacelink.transport.secure.AeadCipher;
import io.pacelink.transport.secure.Hkdf;
import io.pacelink.transport.secure.X25519;

import java.util.Set;

/**
 * The one-time work a network command's endpoint and first handshake need, started on a second thread the moment
 * {@code main} runs, so it overlaps picocli building and parsing the command instead of following it: the batched
 * port's probe (its native library copied out of the jar and loaded, two loopback sockets exchanging a GSO message;
 * {@link BatchedPortSupport}) and the JCE's start-up for the algorithms every secure handshake uses (provider and
 * policy loading, X25519, HMAC-SHA-256, the AEADs).
 * <p>
 * Nothing here changes what the command does or says: the probe's answer is the one the endpoint would have found (it
 * is computed once per JVM, and an endpoint that asks while it runs waits for it), the cryptography runs on fixed
 * throwaway keys, and a failure here is ignored, so the command meets it again on its own path and reports it as it
 * always did. The thread is a daemon: a command that fails on its arguments exits without waiting for it.
 */
final class NetworkWarmUp
{
    /**
     * The commands that open an endpoint at once; the others ({@code stat}, {@code sim}, {@code --version}, ...)
     * would only pay for it.
     */
    private static final Set<String> NETWORK_COMMANDS = Set.of("perf", "ping", "send", "receive");

    private NetworkWarmUp()
    {
    }

    /**
     * @param args the command line.
     * @return the warm-up thread, started, or null if the command opens no endpoint.
     */
    static Thread startFor(final String[] args)
    {
        if (0 == args.length || !NETWORK_COMMANDS.contains(args[0]))
        {
            return null;
        }
        final Thread thread = new Thread(NetworkWarmUp::run, "pacelink-warm-up");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /**
     * The work itself; any failure is left for the command's own path to meet and report.
     */
    static void run()
    {
        try
        {
            BatchedPortSupport.current();
            final X25519 x25519 = new X25519();
            final byte[] privateKey = new byte[X25519.KEY_LENGTH];
            privateKey[0] = 1;
            final byte[] secret = x25519.agree(privateKey, x25519.publicKey(privateKey));
            final Hkdf hkdf = new Hkdf();
            final byte[] key = hkdf.expand(hkdf.extract(new byte[0], secret), new byte[0], AeadAlgorithm.KEY_LENGTH);
            final byte[] nonce = new byte[AeadAlgorithm.NONCE_LENGTH];
            final byte[] plain = new byte[1];
            final byte[] sealed = new byte[plain.length + AeadAlgorithm.TAG_LENGTH];
            for (final AeadAlgorithm algorithm : AeadAlgorithm.values())
            {
                new AeadCipher(algorithm, key).seal(nonce, plain, 0, 0, plain, 0, plain.length, sealed, 0);
            }
        }
        catch (final RuntimeException | LinkageError ex)
        {
            // The command's own path meets the same problem and says what it is.
        }
    }
}
