package io.pacelink.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The AEAD a client proposes when none is given, decided from the CPU's flags as Linux lists them
 * ({@code /proc/cpuinfo}: {@code aes} among an x86 CPU's {@code flags} or an Arm CPU's {@code Features}) rather than
 * by asking HotSpot through JMX, which costs a command tens of milliseconds on its way to the handshake. The answer is
 * the transport's own default (AES-GCM where HotSpot uses the CPU's AES instructions, which it does by default exactly
 * when the CPU has them); where the file cannot be read or says nothing of it, the transport decides.
 */
final class CpuAes
{
    private static final Path CPU_INFO = Path.of("/proc/cpuinfo");
    private static final Pattern FLAGS_WITH_AES = Pattern.compile("(?m)^(flags|Features)\\s*:.*\\baes\\b");
    private static final Pattern FLAGS = Pattern.compile("(?m)^(flags|Features)\\s*:");

    private CpuAes()
    {
    }

    /**
     * @return {@code AESGCM} or {@code ChaChaPoly}, or null to leave it to the transport.
     */
    static String defaultAead()
    {
        try
        {
            return defaultAead(Files.readString(CPU_INFO, StandardCharsets.US_ASCII));
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
    }

    /**
     * @param cpuInfo the text of {@code /proc/cpuinfo}.
     * @return {@code AESGCM} if it lists AES among the CPU's flags, {@code ChaChaPoly} if it lists flags without
     * it, null if it lists none.
     */
    static String defaultAead(final String cpuInfo)
    {
        if (FLAGS_WITH_AES.matcher(cpuInfo).find())
        {
            return "AESGCM";
        }
        return FLAGS.matcher(cpuInfo).find() ? "ChaChaPoly" : null;
    }
}
