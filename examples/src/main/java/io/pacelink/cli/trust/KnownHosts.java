package io.pacelink.cli.trust;

import io.pacelink.transport.SecurityConfig;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/**
 * The servers a client has trusted, as OpenSSH's {@code known_hosts}: one line per server,
 * {@code HOST:PORT x25519 KEY} (the key in base64, as {@code pacelink keygen} prints it), {@code #} comments and blank
 * lines ignored. A server is named as the user named it — a host name stays a name, an IPv6 address is written in
 * brackets — and its port, because one host may run servers of several users, each with its own key.
 * <p>
 * Any malformed line fails every lookup, naming the file and line, rather than being skipped: a damaged entry for the
 * very server being contacted must not turn into a first use. Adding takes an exclusive lock on the file and reads it
 * again under the lock, so clients that meet the same new server at once record it once. The file is created
 * readable by its owner only and never rewritten, only appended to.
 */
public final class KnownHosts
{
    /**
     * The file's name in the configuration directory.
     */
    public static final String FILE_NAME = "known_hosts";

    /**
     * The key type written in every line.
     */
    static final String KEY_TYPE = "x25519";

    /**
     * Largest file read: far more servers than anyone trusts, small enough that a runaway file cannot exhaust memory.
     */
    private static final long MAX_FILE_BYTES = 16L << 20;

    private final Path file;

    /**
     * @param file the known-hosts file (it need not exist).
     */
    public KnownHosts(final Path file)
    {
        this.file = file;
    }

    /**
     * @return the file.
     */
    public Path file()
    {
        return file;
    }

    /**
     * @param server a server's address.
     * @return its name in the file: {@code host:port} as the user gave the host (lower case), {@code [v6]:port}.
     */
    public static String name(final InetSocketAddress server)
    {
        final String host = server.getHostString().toLowerCase(Locale.ROOT);
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + server.getPort();
    }

    /**
     * @param name a server's name ({@link #name}).
     * @return its entries, in file order (usually none or one).
     * @throws IOException if the file cannot be read.
     * @throws IllegalArgumentException if a line is malformed, naming it.
     */
    public List<Entry> lookup(final String name) throws IOException
    {
        final List<Entry> found = new ArrayList<>();
        for (final Entry entry : entries())
        {
            if (entry.name.equals(name))
            {
                found.add(entry);
            }
        }
        return found;
    }

    /**
     * @return every entry.
     * @throws IOException if the file cannot be read.
     * @throws IllegalArgumentException if a line is malformed, naming it.
     */
    public List<Entry> entries() throws IOException
    {
        final byte[] content;
        try
        {
            if (Files.size(file) > MAX_FILE_BYTES)
            {
                throw new IllegalArgumentException(file + " is larger than " + (MAX_FILE_BYTES >> 20) + " MiB: it " +
                    "is not a known-hosts file; move it away");
            }
            content = Files.readAllBytes(file);
        }
        catch (final NoSuchFileException ex)
        {
            return List.of();
        }
        return parse(new String(content, StandardCharsets.UTF_8));
    }

    /**
     * Record a server's key, unless that very entry is there already.
     *
     * @param name a server's name ({@link #name}).
     * @param key  its 32-byte public key.
     * @return the entry, with its line.
     * @throws IOException if the file cannot be written.
     * @throws IllegalArgumentException if a line is malformed, naming it.
     */
    public Entry add(final String name, final byte[] key) throws IOException
    {
        if (!isValidName(name) || SecurityConfig.KEY_LENGTH != key.length)
        {
            throw new IllegalArgumentException("not a server name and key: " + name);
        }
        ConfigDirectory.ensure(file.toAbsolutePath().getParent());
        // FileChannel locks are per process; threads of one process queue here first.
        synchronized (KnownHosts.class)
        {
            try (FileChannel channel = FileChannel.open(file,
                EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                FileLock ignore = channel.lock())
            {
                final List<Entry> entries = entries();
                for (final Entry entry : entries)
                {
                    if (entry.name.equals(name) && Arrays.equals(entry.key, key))
                    {
                        return entry;
                    }
                }
                final StringBuilder text = new StringBuilder();
                final long size = channel.size();
                if (0 == size)
                {
                    text.append("# Pacelink known hosts: HOST:PORT x25519 KEY, one server a line (docs/security.md)\n");
                }
                else if (!endsWithNewline(channel, size))
                {
                    text.append('\n');
                }
                text.append(name).append(' ').append(KEY_TYPE).append(' ')
                    .append(Base64.getEncoder().encodeToString(key)).append('\n');
                channel.write(ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)), size);
                channel.force(true);
                return new Entry(lineCount(), name, key);
            }
        }
    }

    private int lineCount() throws IOException
    {
        int lines = 0;
        for (final byte b : Files.readAllBytes(file))
        {
            if ('\n' == b)
            {
                lines++;
            }
        }
        return lines;
    }

    private static boolean endsWithNewline(final FileChannel channel, final long size) throws IOException
    {
        final ByteBuffer last = ByteBuffer.allocate(1);
        channel.read(last, size - 1);
        return '\n' == last.get(0);
    }

    private List<Entry> parse(final String content)
    {
        final List<Entry> entries = new ArrayList<>();
        final String[] lines = content.split("\n", -1);
        for (int i = 0; i < lines.length; i++)
        {
            final String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            final String[] fields = line.split("\\s+");
            if (3 != fields.length || !KEY_TYPE.equals(fields[1]) || !isValidName(fields[0]))
            {
                throw malformed(i + 1, "expected 'HOST:PORT " + KEY_TYPE + " KEY'");
            }
            final byte[] key;
            try
            {
                key = Base64.getDecoder().decode(fields[2]);
            }
            catch (final IllegalArgumentException ex)
            {
                throw malformed(i + 1, "the key is not base64");
            }
            if (SecurityConfig.KEY_LENGTH != key.length)
            {
                throw malformed(i + 1, "the key is " + key.length + " bytes, not " + SecurityConfig.KEY_LENGTH);
            }
            entries.add(new Entry(i + 1, fields[0], key));
        }
        return entries;
    }

    private IllegalArgumentException malformed(final int line, final String problem)
    {
        return new IllegalArgumentException(file + " line " + line + " is malformed (" + problem + "): fix or " +
            "delete that line");
    }

    private static boolean isValidName(final String name)
    {
        final int colon = name.lastIndexOf(':');
        if (colon <= 0 || colon == name.length() - 1 || name.length() > 300)
        {
            return false;
        }
        for (int i = 0; i < name.length(); i++)
        {
            final char c = name.charAt(i);
            if (c <= ' ' || c > '~')
            {
                return false;
            }
        }
        try
        {
            final int port = Integer.parseInt(name.substring(colon + 1));
            return port > 0 && port <= 65_535;
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }

    /**
     * One line of the file.
     */
    public static final class Entry
    {
        private final int line;
        private final String name;
        private final byte[] key;

        Entry(final int line, final String name, final byte[] key)
        {
            this.line = line;
            this.name = name;
            this.key = key;
        }

        /**
         * @return its line number, from 1.
         */
        public int line()
        {
            return line;
        }

        /**
         * @return the server's name.
         */
        public String name()
        {
            return name;
        }

        /**
         * @return the server's public key.
         */
        public byte[] key()
        {
            return key.clone();
        }

        /**
         * @param other a key.
         * @return true if it is this entry's.
         */
        public boolean hasKey(final byte[] other)
        {
            return Arrays.equals(key, other);
        }
    }
}
