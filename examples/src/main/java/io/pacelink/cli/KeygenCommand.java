package io.pacelink.cli;

import io.pacelink.transport.keys.KeyFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
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
            "clients), or with --psk a 32-byte pre-shared key. Existing files are never overwritten.",
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

    public Integer call() throws IOException
    {
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
        return 0;
    }
}
