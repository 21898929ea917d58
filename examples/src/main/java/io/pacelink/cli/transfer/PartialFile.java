package io.pacelink.cli.transfer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A file being received: written under a temporary name in its final directory ({@code .NAME.pacelink-part}),
 * and published under its final name only after its SHA-256 matched: fsync, permissions and modification time,
 * then an atomic rename (or, without {@code --overwrite}, a hard link that fails if the name was taken meanwhile)
 * and an fsync of the directory, so the final name never shows anything half-written, even after a power loss.
 * <p>
 * For resuming, a small state file beside it ({@code .NAME.pacelink-resume}) records the durable offset: every
 * {@link #CHECKPOINT_INTERVAL_BYTES} or {@link #CHECKPOINT_INTERVAL_NS} the data is fsync'd, then the offset is
 * written to a new state file, fsync'd and renamed over the old one. Bytes past the recorded offset may not have
 * survived a crash, so a later session keeps only the recorded prefix (and proves it to the sender by its hash).
 */
public final class PartialFile
{
    /**
     * Most data a receiver crash can cost (it is sent again), against one fsync per interval while receiving.
     */
    public static final long CHECKPOINT_INTERVAL_BYTES = 64L << 20;
    public static final long CHECKPOINT_INTERVAL_NS = TimeUnit.SECONDS.toNanos(2);

    private static final String TEMP_SUFFIX = ".pacelink-part";
    private static final String STATE_SUFFIX = ".pacelink-resume";
    private static final String STATE_HEADER = "pacelink-partial 1";
    private static final int MAX_STATE_BYTES = 256;

    private final Path target;
    private final Path temp;
    private final Path state;
    private final FileChannel channel;
    private long position;
    private long durableOffset;
    private long lastCheckpointNs;
    private boolean directorySynced;

    /**
     * What an interrupted transfer left of a file.
     *
     * @param offset the durable offset recorded in its state file.
     * @param length the partial file's length (bytes past the offset may not have survived a crash).
     */
    public record Kept(long offset, long length)
    {
    }

    private PartialFile(final Path target, final FileChannel channel, final long position)
    {
        this.target = target;
        this.temp = tempPath(target);
        this.state = statePath(target);
        this.channel = channel;
        this.position = position;
        this.durableOffset = position;
        this.lastCheckpointNs = System.nanoTime();
    }

    /**
     * @param target a file's final path.
     * @return its temporary path, in the same directory.
     */
    public static Path tempPath(final Path target)
    {
        return sibling(target, TEMP_SUFFIX);
    }

    /**
     * @param target a file's final path.
     * @return the path of its resume state.
     */
    public static Path statePath(final Path target)
    {
        return sibling(target, STATE_SUFFIX);
    }

    /**
     * @param target a file's final path.
     * @return what an interrupted transfer left of it, or null if nothing usable (no partial file, no state, or a
     * state that does not fit the file).
     * @throws IOException if they exist but cannot be read.
     */
    public static Kept kept(final Path target) throws IOException
    {
        final Path temp = tempPath(target);
        final Path state = statePath(target);
        if (!Files.isRegularFile(temp, LinkOption.NOFOLLOW_LINKS) ||
            !Files.isRegularFile(state, LinkOption.NOFOLLOW_LINKS) || Files.size(state) > MAX_STATE_BYTES)
        {
            return null;
        }
        final List<String> lines = Files.readAllLines(state, StandardCharsets.UTF_8);
        if (2 != lines.size() || !STATE_HEADER.equals(lines.get(0)) || !lines.get(1).startsWith("offset "))
        {
            return null;
        }
        final long offset;
        try
        {
            offset = Long.parseLong(lines.get(1).substring("offset ".length()));
        }
        catch (final NumberFormatException ex)
        {
            return null;
        }
        final long length = Files.size(temp);
        return offset > 0 && offset <= length ? new Kept(offset, length) : null;
    }

    /**
     * Start a file afresh, replacing whatever an earlier transfer left.
     *
     * @param target the file's final path.
     * @return the open partial file, empty.
     * @throws IOException if it cannot be created.
     */
    public static PartialFile create(final Path target) throws IOException
    {
        Files.deleteIfExists(statePath(target));
        Files.deleteIfExists(tempPath(target));
        return new PartialFile(target, FileChannel.open(tempPath(target), StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), 0);
    }

    /**
     * Continue a partial file after its kept prefix.
     *
     * @param target the file's final path.
     * @param offset the kept prefix; anything after it is cut off.
     * @return the open partial file.
     * @throws IOException if it cannot be opened.
     */
    public static PartialFile resume(final Path target, final long offset) throws IOException
    {
        final FileChannel channel = FileChannel.open(
            tempPath(target), StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        try
        {
            channel.truncate(offset);
        }
        catch (final IOException ex)
        {
            channel.close();
            throw ex;
        }
        return new PartialFile(target, channel, offset);
    }

    /**
     * @param target the file's final path.
     * @return an open channel on its partial file, for hashing the kept prefix.
     * @throws IOException if it cannot be opened.
     */
    public static FileChannel openForReading(final Path target) throws IOException
    {
        return FileChannel.open(tempPath(target), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Append bytes.
     *
     * @param bytes what to write, from its position to its limit.
     * @throws IOException if they cannot be written (a full disk: "No space left on device").
     */
    public void write(final ByteBuffer bytes) throws IOException
    {
        while (bytes.hasRemaining())
        {
            position += channel.write(bytes, position);
        }
    }

    /**
     * Record the durable offset if a checkpoint interval has passed.
     *
     * @param nowNs the time now.
     * @throws IOException if the data cannot be synced or the state written.
     */
    public void checkpointIfDue(final long nowNs) throws IOException
    {
        if (position - durableOffset >= CHECKPOINT_INTERVAL_BYTES ||
            position > durableOffset && nowNs - lastCheckpointNs >= CHECKPOINT_INTERVAL_NS)
        {
            checkpoint();
            lastCheckpointNs = nowNs;
        }
    }

    /**
     * Keep what arrived for a later {@code --resume}: sync it, record the offset and close. Best effort: a
     * failure leaves an older (smaller) durable offset, which is still correct.
     */
    public void keep()
    {
        try
        {
            checkpoint();
        }
        catch (final IOException ignore)
        {
            // The previous state file still holds a smaller offset that was durable.
        }
        closeQuietly();
    }

    /**
     * Delete the partial file and its state (the data is worthless, e.g. its hash did not match).
     */
    public void discard()
    {
        closeQuietly();
        try
        {
            Files.deleteIfExists(state);
            Files.deleteIfExists(temp);
        }
        catch (final IOException ignore)
        {
            // Left behind: a later transfer of the same file replaces it.
        }
    }

    /**
     * Make the file visible under its final name: fsync, set its attributes, rename, fsync the directory, and drop
     * the resume state.
     *
     * @param replace  whether an existing file of that name may be replaced.
     * @param mode     permission bits to set, or {@link Messages#UNKNOWN_MODE}.
     * @param mtimeNs  modification time to set, or {@link Messages#UNKNOWN_MTIME}.
     * @throws RefusedException if the name was taken meanwhile and may not be replaced.
     * @throws IOException      if any step fails (the partial file is then still there).
     */
    public void publish(final boolean replace, final int mode, final long mtimeNs)
        throws RefusedException, IOException
    {
        channel.force(true);
        channel.close();
        if (Messages.UNKNOWN_MODE != mode)
        {
            try
            {
                Files.setPosixFilePermissions(temp, FileModes.toPermissions(mode));
            }
            catch (final UnsupportedOperationException ignore)
            {
                // Not a POSIX file system: the file keeps its default permissions.
            }
        }
        if (Messages.UNKNOWN_MTIME != mtimeNs)
        {
            Files.setLastModifiedTime(temp, FileTime.from(mtimeNs, TimeUnit.NANOSECONDS));
        }
        if (replace)
        {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        }
        else
        {
            publishWithoutReplacing();
        }
        syncDirectory(target.getParent());
        Files.deleteIfExists(state);
    }

    /**
     * rename(2) replaces an existing file without a word; link(2) fails if the name exists, so a file created under
     * the final name after the receiver checked it is never overwritten without {@code --overwrite}.
     */
    private void publishWithoutReplacing() throws RefusedException, IOException
    {
        boolean linked = false;
        try
        {
            Files.createLink(target, temp);
            linked = true;
        }
        catch (final FileAlreadyExistsException ex)
        {
            throw appearedMeanwhile();
        }
        catch (final UnsupportedOperationException | IOException ex)
        {
            // No hard links on this file system (FAT, some network file systems): check, then rename below.
        }
        if (linked)
        {
            Files.delete(temp);
            return;
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS))
        {
            throw appearedMeanwhile();
        }
        try
        {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final AtomicMoveNotSupportedException ex)
        {
            Files.move(temp, target);
        }
    }

    private RefusedException appearedMeanwhile()
    {
        return new RefusedException("a file named '" + target.getFileName() + "' appeared while this one was " +
            "received; run the receiver with --overwrite to replace it");
    }

    private void checkpoint() throws IOException
    {
        if (position == durableOffset && Files.exists(state))
        {
            return;
        }
        channel.force(false);
        final Path next = sibling(target, STATE_SUFFIX + ".tmp");
        try (FileChannel stateChannel = FileChannel.open(next, StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))
        {
            stateChannel.write(ByteBuffer.wrap((STATE_HEADER + "\noffset " + position + "\n")
                .getBytes(StandardCharsets.UTF_8)));
            stateChannel.force(true);
        }
        Files.move(next, state, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        if (!directorySynced)
        {
            // The partial file's own directory entry must be durable before its state says it has data.
            syncDirectory(target.getParent());
            directorySynced = true;
        }
        durableOffset = position;
    }

    private void closeQuietly()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ignore)
        {
            // Nothing more can be done with it.
        }
    }

    private static void syncDirectory(final Path directory)
    {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ))
        {
            channel.force(true);
        }
        catch (final IOException ignore)
        {
            // Some platforms cannot open or sync a directory; the rename is then as durable as they make it.
        }
    }

    /**
     * {@code .NAME.SUFFIX} beside the file, or, for a name too long for that, {@code .pacelink-HASH.SUFFIX}.
     */
    private static Path sibling(final Path target, final String suffix)
    {
        final String name = target.getFileName().toString();
        final String sibling = "." + name + suffix;
        if (sibling.getBytes(StandardCharsets.UTF_8).length <= Messages.MAX_NAME_BYTES)
        {
            return target.resolveSibling(sibling);
        }
        final byte[] hash = Sha256.newDigest().digest(name.getBytes(StandardCharsets.UTF_8));
        return target.resolveSibling(".pacelink-" + Sha256.hex(hash).substring(0, 32) + suffix);
    }
}
