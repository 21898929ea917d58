package io.pacelink.transport.stats;

import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * A process's counters in a memory-mapped file, so that {@code pacelink stat} can read them live from another
 * process, as AeronStat reads a media driver's CnC file. The owner writes its counters exactly as it would into
 * memory (an Agrona {@link CountersManager} over the mapped buffers, allocated and freed by one thread: the
 * endpoint's agent, or the relay that owns the file); readers map the same file.
 * <pre>
 *   0               4               8               12              16
 *   +---------------+---------------+---------------+---------------+
 *   | layout version| header length | metadata len  | values length |
 *   +---------------+---------------+---------------+---------------+
 *   | pid (long)                    | process start, epoch ms (long)|   16
 *   +-------------------------------+-------------------------------+
 *   | file created, epoch ms (long) | heartbeat, epoch ms (long)    |   32
 *   +-------------------------------+-------------------------------+
 *   | description length, ASCII description ...                     |   48
 *   +---------------------------------------------------------------+
 *   | counters metadata buffer (metadata length bytes)              |   HEADER_LENGTH
 *   +---------------------------------------------------------------+
 *   | counters values buffer (values length bytes)                  |
 *   +---------------------------------------------------------------+
 * </pre>
 * The layout version is written last (release), so a reader never trusts a half-written header. The heartbeat is
 * refreshed by the owner's duty cycle; with the pid it lets readers tell a live owner from a dead one
 * ({@link CountersFileReader#liveness}). The file is deleted on {@link #close()}; a process that dies leaves its file
 * behind, and {@code pacelink stat} removes it (this user's files only) when a refresh finds its owner gone, or keeps
 * and lists it as stale with {@code --keep-dead}.
 */
public final class CountersFile implements AutoCloseable
{
    /**
     * Bumped whenever the layout changes; readers refuse other versions.
     */
    public static final int LAYOUT_VERSION = 1;

    public static final int LAYOUT_VERSION_OFFSET = 0;
    public static final int HEADER_LENGTH_OFFSET = LAYOUT_VERSION_OFFSET + SIZE_OF_INT;
    public static final int METADATA_LENGTH_OFFSET = HEADER_LENGTH_OFFSET + SIZE_OF_INT;
    public static final int VALUES_LENGTH_OFFSET = METADATA_LENGTH_OFFSET + SIZE_OF_INT;
    public static final int PID_OFFSET = VALUES_LENGTH_OFFSET + SIZE_OF_INT;
    public static final int PROCESS_START_MS_OFFSET = PID_OFFSET + SIZE_OF_LONG;
    public static final int CREATED_MS_OFFSET = PROCESS_START_MS_OFFSET + SIZE_OF_LONG;
    public static final int HEARTBEAT_MS_OFFSET = CREATED_MS_OFFSET + SIZE_OF_LONG;
    public static final int DESCRIPTION_OFFSET = HEARTBEAT_MS_OFFSET + SIZE_OF_LONG;

    /**
     * Size of the header; the counters buffers follow it, page-aligned mapping plus 512 keeps them 8-byte aligned.
     */
    public static final int HEADER_LENGTH = 512;

    /**
     * Longest description kept; longer ones are cut.
     */
    public static final int MAX_DESCRIPTION_LENGTH = HEADER_LENGTH - DESCRIPTION_OFFSET - SIZE_OF_INT;

    /**
     * Suffix of every counters file.
     */
    public static final String FILE_SUFFIX = ".counters";

    /**
     * How often the owner refreshes the heartbeat.
     */
    public static final long HEARTBEAT_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private static final AtomicInteger FILES_CREATED = new AtomicInteger();

    private final Path path;
    private final AtomicBuffer header;
    private final CountersManager countersManager;
    private long nextHeartbeatNs;

    private CountersFile(final Path path, final MappedByteBuffer mapped, final int valuesBufferBytes)
    {
        this.path = path;
        final int metadataBufferBytes = CountersBuffers.metadataBufferBytes(valuesBufferBytes);
        header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        countersManager = new CountersManager(
            new UnsafeBuffer(mapped, HEADER_LENGTH, metadataBufferBytes),
            new UnsafeBuffer(mapped, HEADER_LENGTH + metadataBufferBytes, valuesBufferBytes));
    }

    /**
     * Create and map a new counters file named {@code <kind>-<pid>-<n>.counters}.
     *
     * @param directory         where; created if missing.
     * @param kind              what owns it, e.g. {@code endpoint} or {@code netem}: the start of the file name.
     * @param description       one line for people, e.g. the bound address (cut at {@link #MAX_DESCRIPTION_LENGTH}).
     * @param valuesBufferBytes size of the counters' values buffer.
     * @return the file, mapped, with its header written.
     * @throws UncheckedIOException saying which file could not be created and how to avoid it.
     */
    public static CountersFile create(
        final Path directory, final String kind, final String description, final int valuesBufferBytes)
    {
        final ProcessHandle self = ProcessHandle.current();
        final Path path = directory.resolve(
            kind + "-" + self.pid() + "-" + FILES_CREATED.incrementAndGet() + FILE_SUFFIX);
        final int metadataBufferBytes = CountersBuffers.metadataBufferBytes(valuesBufferBytes);
        final MappedByteBuffer mapped;
        try
        {
            Files.createDirectories(directory);
            // A file of this name can only be left over by a dead process that had our pid.
            Files.deleteIfExists(path);
            // Not zero-filled: the file is sparse, so only the pages of counters in use take memory.
            mapped = IoUtil.mapNewFile(path.toFile(), (long)HEADER_LENGTH + metadataBufferBytes + valuesBufferBytes,
                false);
        }
        catch (final IOException | IllegalStateException ex)
        {
            throw new UncheckedIOException(new IOException("cannot create counters file " + path + " (" + ex +
                "): make the directory writable, choose another with PacelinkContext.countersDirectory(...), or " +
                "turn the file off with countersFile(false)", ex));
        }

        final CountersFile file = new CountersFile(path, mapped, valuesBufferBytes);
        file.writeHeader(self, description, metadataBufferBytes, valuesBufferBytes);
        return file;
    }

    /**
     * @return the directory counters files go to by default: {@code /dev/shm/pacelink-<user>} where {@code /dev/shm}
     * exists (memory, never written to disk), else {@code pacelink-<user>} in the temp directory. One directory per
     * user, as Aeron does, so users do not trip over each other's permissions.
     */
    public static Path defaultDirectory()
    {
        final String name = "pacelink-" + System.getProperty("user.name", "default");
        final Path shm = Paths.get("/dev/shm");
        return Files.isDirectory(shm) ? shm.resolve(name) : Paths.get(IoUtil.tmpDirName()).resolve(name);
    }

    private void writeHeader(
        final ProcessHandle self, final String description, final int metadataBufferBytes, final int valuesBufferBytes)
    {
        final long nowMs = System.currentTimeMillis();
        header.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        header.putInt(METADATA_LENGTH_OFFSET, metadataBufferBytes);
        header.putInt(VALUES_LENGTH_OFFSET, valuesBufferBytes);
        header.putLong(PID_OFFSET, self.pid());
        header.putLong(PROCESS_START_MS_OFFSET, self.info().startInstant().map((i) -> i.toEpochMilli()).orElse(-1L));
        header.putLong(CREATED_MS_OFFSET, nowMs);
        header.putLong(HEARTBEAT_MS_OFFSET, nowMs);
        header.putStringAscii(DESCRIPTION_OFFSET, description.length() > MAX_DESCRIPTION_LENGTH ?
            description.substring(0, MAX_DESCRIPTION_LENGTH) : description);
        header.putIntRelease(LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
    }

    /**
     * @return the counters manager over the mapped buffers: register counters here, from one thread only.
     */
    public CountersManager countersManager()
    {
        return countersManager;
    }

    /**
     * @return where the file is.
     */
    public Path path()
    {
        return path;
    }

    /**
     * Refresh the heartbeat if {@link #HEARTBEAT_INTERVAL_NS} has passed; call it from the owner's duty cycle (one
     * comparison when nothing is due).
     *
     * @param nowNs the duty cycle's time.
     */
    public void heartbeat(final long nowNs)
    {
        if (nowNs >= nextHeartbeatNs)
        {
            nextHeartbeatNs = nowNs + HEARTBEAT_INTERVAL_NS;
            header.putLongRelease(HEARTBEAT_MS_OFFSET, System.currentTimeMillis());
        }
    }

    /**
     * Delete the file. The mapping itself is left to the garbage collector rather than unmapped here: application
     * threads may still read a closed connection's counters, and touching an unmapped page would crash the JVM.
     * Readers that still have the file mapped keep valid memory until they unmap it.
     */
    public void close()
    {
        IoUtil.deleteIfExists(path.toFile());
    }
}
