package io.pacelink.transport.port;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * Loads the JNI shim of {@link NativeUdp} once per class loader from the class path, where the build put it
 * ({@code io/pacelink/transport/port/native/linux-<arch>/libpacelink-udp.so}, inside the module's jar and the shaded
 * {@code pacelink.jar}): the library is copied to a private temporary file (mode 600), loaded, and the file deleted
 * at once (Linux keeps a loaded library mapped), so nothing is left behind and nobody else can swap it.
 * <p>
 * The library is absent where the build found no gcc or JNI headers, or ran on another operating system; then
 * {@link #unavailableReason()} says why in one line and {@link BatchedDatagramPort} reports itself unavailable.
 */
final class NativeLibrary
{
    /**
     * The library's name: {@code lib<name>.so}.
     */
    static final String NAME = "pacelink-udp";

    private static final String REASON = loadOnce();

    private NativeLibrary()
    {
    }

    /**
     * @return null once the library is loaded, else why it could not be (one line).
     */
    static String unavailableReason()
    {
        return REASON;
    }

    /**
     * @throws IllegalStateException saying why if the library could not be loaded.
     */
    static void load()
    {
        if (null != REASON)
        {
            throw new IllegalStateException(REASON);
        }
    }

    /**
     * @return where the build puts the library for this operating system and processor, on the class path.
     */
    static String resourcePath()
    {
        return "/io/pacelink/transport/port/native/linux-" + System.getProperty("os.arch") + "/lib" + NAME + ".so";
    }

    private static String loadOnce()
    {
        final String os = System.getProperty("os.name", "?");
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux"))
        {
            return "sendmmsg, recvmmsg and UDP GSO are Linux system calls; this is " + os;
        }
        final String resource = resourcePath();
        try (InputStream library = NativeLibrary.class.getResourceAsStream(resource))
        {
            if (null == library)
            {
                return "the native library " + resource.substring(resource.lastIndexOf('/') + 1) + " for " +
                    System.getProperty("os.arch") + " is not in this build (it is compiled by gcc during the " +
                    "Maven build; gcc or the JDK's JNI headers were missing there)";
            }
            final Path file = Files.createTempFile(
                "lib" + NAME + "-", ".so", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                    "rw-------")));
            try
            {
                Files.copy(library, file, StandardCopyOption.REPLACE_EXISTING);
                System.load(file.toAbsolutePath().toString());
            }
            finally
            {
                Files.deleteIfExists(file);
            }
            return null;
        }
        catch (final IOException | UnsatisfiedLinkError | SecurityException | UnsupportedOperationException ex)
        {
            return "cannot load the native library " + resource + ": " + ex;
        }
    }
}
