package io.pacelink.cli.transfer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The entries a {@code pacelink send} command line names: each FILE argument arrives under its own name, each DIR
 * argument as a directory of that name with everything below it (as {@code scp -r} and {@code rsync} without a
 * trailing slash do). Symbolic links named on the command line are followed; links met inside a directory are not
 * (they could loop or point anywhere) and are listed as skipped, as are sockets, pipes and devices.
 */
public final class SourceTree
{
    private final List<SourceEntry> entries = new ArrayList<>();
    private final List<String> skipped = new ArrayList<>();
    private final Map<String, Path> origins = new HashMap<>();

    private SourceTree()
    {
    }

    /**
     * @param arguments the FILE and DIR arguments.
     * @return their entries, directories before what they contain.
     * @throws IllegalArgumentException for an argument that does not exist, is not a file or directory, or arrives
     *                                  under the same name as another.
     * @throws IOException              if a directory cannot be listed or a file's attributes read.
     */
    public static SourceTree collect(final List<Path> arguments) throws IOException
    {
        final SourceTree tree = new SourceTree();
        for (final Path argument : arguments)
        {
            tree.add(argument);
        }
        return tree;
    }

    /**
     * @return what to send, in order.
     */
    public List<SourceEntry> entries()
    {
        return entries;
    }

    /**
     * @return what was left out and why, e.g. {@code "dir/link: a symbolic link"}.
     */
    public List<String> skipped()
    {
        return skipped;
    }

    private void add(final Path argument) throws IOException
    {
        if (!Files.exists(argument))
        {
            throw new IllegalArgumentException("no such file or directory: " + argument);
        }
        final Path name = argument.toAbsolutePath().normalize().getFileName();
        if (null == name)
        {
            throw new IllegalArgumentException("cannot send " + argument + " itself; name the directories under it");
        }
        if (Files.isRegularFile(argument))
        {
            entries.add(entry(name.toString(), argument, Files.readAttributes(argument, BasicFileAttributes.class)));
        }
        else if (Files.isDirectory(argument))
        {
            walk(argument, name.toString());
        }
        else
        {
            throw new IllegalArgumentException(argument + " is not a regular file or a directory");
        }
    }

    private void walk(final Path root, final String rootName) throws IOException
    {
        // The root itself may be a link (named on the command line); nothing below it is followed.
        final Path start = root.toRealPath();
        Files.walkFileTree(start, new SimpleFileVisitor<>()
        {
            public FileVisitResult preVisitDirectory(final Path directory, final BasicFileAttributes attributes)
                throws IOException
            {
                entries.add(entry(relative(directory), directory, attributes));
                return FileVisitResult.CONTINUE;
            }

            public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes) throws IOException
            {
                if (relative(file).getBytes(StandardCharsets.UTF_8).length > Messages.MAX_PATH_BYTES)
                {
                    skipped.add(relative(file) + ": its path is longer than " + Messages.MAX_PATH_BYTES + " bytes");
                }
                else if (attributes.isRegularFile())
                {
                    entries.add(entry(relative(file), file, attributes));
                }
                else
                {
                    skipped.add(relative(file) + ": " + (attributes.isSymbolicLink() ? "a symbolic link" :
                        "not a regular file"));
                }
                return FileVisitResult.CONTINUE;
            }

            private String relative(final Path path)
            {
                final Path relative = start.relativize(path);
                return relative.toString().isEmpty() ? rootName :
                    rootName + "/" + relative.toString().replace(path.getFileSystem().getSeparator(), "/");
            }
        });
    }

    private SourceEntry entry(final String relativePath, final Path path, final BasicFileAttributes attributes)
        throws IOException
    {
        final Path earlier = origins.putIfAbsent(relativePath, path);
        if (null != earlier)
        {
            throw new IllegalArgumentException(earlier + " and " + path + " would both arrive as '" + relativePath +
                "'; send them in separate commands");
        }
        final boolean isDirectory = attributes.isDirectory();
        return new SourceEntry(
            relativePath,
            path,
            isDirectory ? Messages.KIND_DIRECTORY : Messages.KIND_FILE,
            isDirectory ? 0 : attributes.size(),
            mode(path),
            attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS));
    }

    private static int mode(final Path path) throws IOException
    {
        try
        {
            return FileModes.toMode(Files.readAttributes(path, PosixFileAttributes.class).permissions());
        }
        catch (final UnsupportedOperationException ex)
        {
            return Messages.UNKNOWN_MODE; // not a POSIX file system: the receiver's defaults apply
        }
    }
}
