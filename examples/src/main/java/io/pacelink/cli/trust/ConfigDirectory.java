package io.pacelink.cli.trust;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * Where the tools keep what they remember between runs: a server's host key and a client's known hosts
 * (docs/security.md, "Secure with zero setup"). In order: the system property {@value #PROPERTY} (tests give each run
 * its own), {@code $XDG_CONFIG_HOME/pacelink} when that variable holds an absolute path (the XDG Base Directory
 * Specification), else {@code ~/.config/pacelink}. The directory is created readable by its owner only, as OpenSSH
 * keeps {@code ~/.ssh}.
 */
public final class ConfigDirectory
{
    /**
     * System property naming the directory outright.
     */
    public static final String PROPERTY = "pacelink.config.dir";

    private ConfigDirectory()
    {
    }

    /**
     * @return the directory for this process (it may not exist yet).
     */
    public static Path resolve()
    {
        return resolve(System.getProperty(PROPERTY), System.getenv(), System.getProperty("user.home"));
    }

    /**
     * @param property    the value of {@value #PROPERTY}, or null.
     * @param environment the process environment.
     * @param home        the user's home directory.
     * @return the directory those give.
     */
    static Path resolve(final String property, final Map<String, String> environment, final String home)
    {
        if (null != property && !property.isBlank())
        {
            return Path.of(property).toAbsolutePath();
        }
        final String xdg = environment.get("XDG_CONFIG_HOME");
        if (null != xdg && Path.of(xdg).isAbsolute())
        {
            return Path.of(xdg, "pacelink");
        }
        return Path.of(home, ".config", "pacelink");
    }

    /**
     * @param directory the directory to create if it does not exist (its parents too), mode 700.
     * @return it.
     * @throws IOException if it cannot be created, or exists as something else.
     */
    public static Path ensure(final Path directory) throws IOException
    {
        if (Files.isDirectory(directory))
        {
            return directory;
        }
        Files.createDirectories(directory.getParent());
        try
        {
            Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        }
        catch (final FileAlreadyExistsException ex)
        {
            if (!Files.isDirectory(directory))
            {
                throw new IOException(directory + " exists and is not a directory", ex);
            }
        }
        catch (final UnsupportedOperationException ex)
        {
            Files.createDirectories(directory); // a file system without POSIX permissions
        }
        return directory;
    }
}
