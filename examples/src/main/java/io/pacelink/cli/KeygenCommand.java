package io.pacelink.cli;

import io.pacelink.transport.keys.KeyFiles;
import io.pacelink.transport.keys.KeyFingerprint;
import io.pacelink.transport.secure.X25519;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code pacelink keygen}: an X25519 key pair for a server's secure mode (Noise NK), or a pre-shared key (NNpsk0),
 * from the JDK's {@code SecureRandom}; secrets are written readable by their owner only and never overwritten.
 */
@Command(
    name = "keygen",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Write a key for the secure mode: a server's key pair (NAME.key, private, and NAME.pub, to give its " +
            "clients), or with --psk a 32-byte pre-shared key. Existing files are never overwritten. Not needed " +
            "for the defaults: a server makes its host key in ~/.config/pacelink, and clients trust it on first use.",
        "Example: pacelink keygen server   then   pacelink receive --key server.key   and   " +
            "pacelink send FILE HOST --peer-key server.pub%n"
    })
public final class KeygenCommand implements Callable<Integer>
{
    @Parameters(arity = "0..1", paramLabel = "NAME", defaultValue = "pacelink",
        description = "Base name of the key pair's files (default ${DEFAULT-VALUE}: pacelink.key and pacelink.pub).")
    private String name;

    @Option(names = "--psk", paramLabel = "FILE",
        description = "Write a pre-shared key to FILE instead, for both ends' --psk.")
    private Path preSharedKeyFile;

    @Option(names = { "-l", "--fingerprint" }, paramLabel = "FILE",
        description = "Print the fingerprint of a public or private key file instead (as ssh-keygen -l does), to " +
            "compare with the one a server or client printed.")
    private Path fingerprintFile;

    public Integer call() throws IOException
    {
        if (null != fingerprintFile)
        {
            System.out.println(KeyFingerprint.of(publicKeyOf(fingerprintFile)) + " " + fingerprintFile);
            return 0;
        }
        if (null != preSharedKeyFile)
        {
            KeyFiles.writePreSharedKey(preSharedKeyFile);
            System.out.println("pre-shared key written to " + preSharedKeyFile + " (mode 600); copy it to the " +
                "other end over a channel you trust, and give both ends --psk " + preSharedKeyFile);
            return 0;
        }
        final Path privateFile = Path.of(name + ".key");
        final Path publicFile = Path.of(name + ".pub");
        final byte[] publicKey = KeyFiles.writeKeyPair(privateFile, publicFile);
        System.out.println("private key: " + privateFile + " (mode 600; keep it on the server: --key " +
            privateFile + ")");
        System.out.println("public key:  " + publicFile + " (give it to clients: --peer-key " + publicFile + ")");
        System.out.println("public key (base64): " + KeyFiles.display(publicKey));
        System.out.println("fingerprint: " + KeyFingerprint.of(publicKey));
        return 0;
    }

    /**
     * A PEM private key gives its public key; anything else is read as a public key (a raw 32-byte file is taken as
     * one: the raw form does not say which it is).
     */
    private static byte[] publicKeyOf(final Path file) throws IOException
    {
        if (!Files.isReadable(file))
        {
            throw new IllegalArgumentException("cannot read " + file + ": it does not exist or is not readable");
        }
        final String text = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII);
        return text.contains("PRIVATE KEY-----") ?
            new X25519().publicKey(KeyFiles.readPrivateKey(file)) : KeyFiles.readPublicKey(file);
    }
}
