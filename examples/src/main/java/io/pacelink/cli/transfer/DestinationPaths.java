package io.pacelink.cli.transfer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Where the receiver may write: only below its directory. A sender's path is checked as text first (relative,
 * '/' separated, no empty, "." or ".." names, no NUL or backslash, within Linux's PATH_MAX and NAME_MAX), then
 * resolved on disk one directory at a time: a missing directory is created, an existing one may be a symbolic link
 * only if its real path stays inside the directory, and the parent's real path is checked once more at the end,
 * so neither ".." nor a link planted in the tree can lead a write outside.
 */
public final class DestinationPaths
{
    private final Path root;

    /**
     * @param directory the receiver's directory; must exist.
     * @throws IOException if its real path cannot be read.
     */
    public DestinationPaths(final Path directory) throws IOException
    {
        this.root = directory.toRealPath();
    }

    /**
     * @return the directory's real path.
     */
    public Path root()
    {
        return root;
    }

    /**
     * Check a file's path and create the directories above it.
     *
     * @param relativePath the path the sender gave.
     * @return the file's path under the real path of its directory (the file itself may or may not exist).
     * @throws RefusedException saying why the path is not acceptable.
     * @throws IOException      if a directory cannot be created.
     */
    public Path file(final String relativePath) throws RefusedException, IOException
    {
        final Path lexical = lexical(relativePath);
        final Path parent = directory(lexical.getParent(), relativePath);
        return parent.resolve(lexical.getFileName().toString());
    }

    /**
     * Check a directory's path and create it and the directories above it.
     *
     * @param relativePath the path the sender gave.
     * @return the directory's real path.
     * @throws RefusedException saying why the path is not acceptable.
     * @throws IOException      if a directory cannot be created.
     */
    public Path directory(final String relativePath) throws RefusedException, IOException
    {
        return directory(lexical(relativePath), relativePath);
    }

    private Path lexical(final String relativePath) throws RefusedException
    {
        if (relativePath.isEmpty())
        {
            throw refuse(relativePath, "it is empty");
        }
        if (relativePath.getBytes(StandardCharsets.UTF_8).length > Messages.MAX_PATH_BYTES)
        {
            throw refuse(relativePath, "it is longer than " + Messages.MAX_PATH_BYTES + " bytes");
        }
        if (relativePath.indexOf('\0') >= 0)
        {
            throw refuse(relativePath, "it contains a NUL character");
        }
        if (relativePath.indexOf('\\') >= 0)
        {
            throw refuse(relativePath, "it contains a backslash (only '/' separates names)");
        }
        if (relativePath.startsWith("/"))
        {
            throw refuse(relativePath, "it is absolute; only paths relative to the receiver's directory are " +
                "accepted");
        }
        Path path = root;
        for (final String name : relativePath.split("/", -1))
        {
            if (name.isEmpty() || ".".equals(name))
            {
                throw refuse(relativePath, "it has an empty or '.' name");
            }
            if ("..".equals(name))
            {
                throw refuse(relativePath, "'..' would leave the receiver's directory");
            }
            if (name.getBytes(StandardCharsets.UTF_8).length > Messages.MAX_NAME_BYTES)
            {
                throw refuse(relativePath, "a name is longer than " + Messages.MAX_NAME_BYTES + " bytes");
            }
            path = path.resolve(name);
        }
        if (!path.normalize().startsWith(root) || path.equals(root))
        {
            throw refuse(relativePath, "it does not name anything inside the receiver's directory");
        }
        return path;
    }

    /**
     * Walk from the root down to a directory, creating what is missing and following only links that stay inside.
     */
    private Path directory(final Path lexical, final String relativePath) throws RefusedException, IOException
    {
        if (lexical.equals(root))
        {
            return root;
        }
        Path path = root;
        for (final Path name : root.relativize(lexical))
        {
            path = path.resolve(name);
            if (Files.isSymbolicLink(path))
            {
                final Path real = path.toRealPath();
                if (!real.startsWith(root))
                {
                    throw refuse(relativePath, "'" + root.relativize(path) + "' is a symbolic link that leads " +
                        "outside the receiver's directory");
                }
                if (!Files.isDirectory(real))
                {
                    throw inTheWay(relativePath, path);
                }
            }
            else if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS))
            {
                create(path, relativePath);
            }
        }
        final Path real = path.toRealPath();
        if (!real.startsWith(root))
        {
            throw refuse(relativePath, "it leads outside the receiver's directory");
        }
        return real;
    }

    private void create(final Path directory, final String relativePath) throws RefusedException, IOException
    {
        try
        {
            Files.createDirectory(directory);
        }
        catch (final FileAlreadyExistsException ex)
        {
            if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS))
            {
                throw inTheWay(relativePath, directory);
            }
        }
    }

    private RefusedException inTheWay(final String relativePath, final Path path)
    {
        return new RefusedException("cannot create '" + relativePath + "': '" + root.relativize(path) +
            "' is in the way, and it is not a directory");
    }

    private static RefusedException refuse(final String relativePath, final String why)
    {
        return new RefusedException("unsafe path '" + relativePath + "': " + why);
    }
}
