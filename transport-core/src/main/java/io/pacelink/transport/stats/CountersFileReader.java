package io.pacelink.transport.stats;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads another process's {@link CountersFile}: maps it read-only, checks the layout version and exposes the header
 * (pid, start times, heartbeat, description) and an Agrona {@link CountersReader} over its counters. Single-threaded;
 * {@link #close()} unmaps.
 */
public final class CountersFileReader implements AutoCloseable
{
    /**
     * A heartbeat older than this means the owner is not running its duty cycle (stopped, hung, or an application
     * that stopped invoking an INVOKER-mode endpoint); Aeron uses the same 10 s for its driver.
     */
    public static final long DEFAULT_HEARTBEAT_TIMEOUT_MS = 10_000;

    /**
     * Process start times read by two JVMs may differ by rounding; a reused pid starts far later.
     */
    private static final long PROCESS_START_TOLERANCE_MS = 1_000;

    /**
     * What a reader can tell about the process that owns a file.
     */
    public enum Liveness
    {
        /**
         * Running, heartbeat fresh.
         */
        ALIVE,

        /**
         * The process exists but its heartbeat is older than the timeout.
         */
        NOT_RESPONDING,

        /**
         * The process is gone (or its pid now belongs to another process): the file is stale.
         */
        DEAD
    }

    private final Path path;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer header;
    private final CountersReader countersReader;

    private CountersFileReader(final Path path, final MappedByteBuffer mapped)
    {
        this.path = path;
        this.mapped = mapped;
        header = new UnsafeBuffer(mapped, 0, CountersFile.HEADER_LENGTH);
        final int headerLength = header.getInt(CountersFile.HEADER_LENGTH_OFFSET);
        final int metadataLength = header.getInt(CountersFile.METADATA_LENGTH_OFFSET);
        final int valuesLength = header.getInt(CountersFile.VALUES_LENGTH_OFFSET);
        if (headerLength != CountersFile.HEADER_LENGTH || metadataLength < 0 || valuesLength < 0 ||
            (long)headerLength + metadataLength + valuesLength > mapped.capacity())
        {
            throw new IllegalStateException(path + " is not a valid counters file (lengths " + headerLength + ", " +
                metadataLength + ", " + valuesLength + " for " + mapped.capacity() + " bytes)");
        }
        countersReader = new CountersReader(
            new UnsafeBuffer(mapped, headerLength, metadataLength),
            new UnsafeBuffer(mapped, headerLength + metadataLength, valuesLength));
    }

    /**
     * @param path a counters file.
     * @return a reader, or empty if the file is gone, still being written (no layout version yet) or too short.
     * @throws IllegalStateException if the file has another layout version or inconsistent lengths.
     */
    public static Optional<CountersFileReader> open(final Path path)
    {
        final MappedByteBuffer mapped;
        try (FileChannel channel = FileChannel.open(path))
        {
            if (channel.size() < CountersFile.HEADER_LENGTH)
            {
                return Optional.empty();
            }
            mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
        }
        catch (final java.nio.file.NoSuchFileException ex)
        {
            return Optional.empty();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read counters file " + path, ex);
        }

        final int version = new UnsafeBuffer(mapped, 0, CountersFile.HEADER_LENGTH)
            .getIntAcquire(CountersFile.LAYOUT_VERSION_OFFSET);
        if (0 == version)
        {
            IoUtil.unmap(mapped);
            return Optional.empty();
        }
        if (CountersFile.LAYOUT_VERSION != version)
        {
            IoUtil.unmap(mapped);
            throw new IllegalStateException(path + " has counters file layout version " + version + "; this " +
                "version of pacelink reads version " + CountersFile.LAYOUT_VERSION);
        }
        try
        {
            return Optional.of(new CountersFileReader(path, mapped));
        }
        catch (final IllegalStateException ex)
        {
            IoUtil.unmap(mapped);
            throw ex;
        }
    }

    /**
     * @param directory a counters directory.
     * @return the counters files in it, sorted by name; empty if the directory does not exist.
     */
    public static List<Path> list(final Path directory)
    {
        if (!Files.isDirectory(directory))
        {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory))
        {
            final List<Path> paths = new ArrayList<>();
            files.filter((p) -> p.getFileName().toString().endsWith(CountersFile.FILE_SUFFIX))
                .sorted()
                .forEach(paths::add);
            return paths;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list counters directory " + directory, ex);
        }
    }

    /**
     * @return the file.
     */
    public Path path()
    {
        return path;
    }

    /**
     * @return the owner's process id.
     */
    public long pid()
    {
        return header.getLong(CountersFile.PID_OFFSET);
    }

    /**
     * @return when the owner's process started, epoch ms, or -1 if the owner's JVM could not tell.
     */
    public long processStartMs()
    {
        return header.getLong(CountersFile.PROCESS_START_MS_OFFSET);
    }

    /**
     * @return when the file was created, epoch ms.
     */
    public long createdMs()
    {
        return header.getLong(CountersFile.CREATED_MS_OFFSET);
    }

    /**
     * @return the owner's last heartbeat, epoch ms.
     */
    public long heartbeatMs()
    {
        return header.getLongVolatile(CountersFile.HEARTBEAT_MS_OFFSET);
    }

    /**
     * @return the owner's one-line description.
     */
    public String description()
    {
        return header.getStringAscii(CountersFile.DESCRIPTION_OFFSET);
    }

    /**
     * @return the counters.
     */
    public CountersReader countersReader()
    {
        return countersReader;
    }

    /**
     * @return false once the owner has closed (deleted) the file; the mapping stays readable.
     */
    public boolean exists()
    {
        return Files.exists(path);
    }

    /**
     * @param nowMs              the current time, epoch ms.
     * @param heartbeatTimeoutMs how old a heartbeat may be for a running owner.
     * @return whether the owner is alive: DEAD if no process has its pid or the process with its pid started at
     * another time (the pid was reused), NOT_RESPONDING if the heartbeat is too old, else ALIVE.
     */
    public Liveness liveness(final long nowMs, final long heartbeatTimeoutMs)
    {
        final Optional<ProcessHandle> process = ProcessHandle.of(pid());
        if (process.isEmpty() || !process.get().isAlive() || isPidReused(process.get()))
        {
            return Liveness.DEAD;
        }
        return nowMs - heartbeatMs() > heartbeatTimeoutMs ? Liveness.NOT_RESPONDING : Liveness.ALIVE;
    }

    private boolean isPidReused(final ProcessHandle process)
    {
        final long recordedStartMs = processStartMs();
        final long actualStartMs = process.info().startInstant().map((i) -> i.toEpochMilli()).orElse(-1L);
        return recordedStartMs > 0 && actualStartMs > 0 &&
            Math.abs(actualStartMs - recordedStartMs) > PROCESS_START_TOLERANCE_MS;
    }

    /**
     * Unmap the file (this reader's mapping only).
     */
    public void close()
    {
        IoUtil.unmap(mapped);
    }
}
