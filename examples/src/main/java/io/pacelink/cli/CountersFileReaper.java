package io.pacelink.cli;

import io.pacelink.transport.stats.CountersFileReader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * Removes the counters files of processes that are gone, for {@code pacelink stat}: never a live process's file,
 * never a file still being created, never another user's file.
 * <ul>
 * <li>Dead is what {@link CountersFileReader#liveness} calls {@code DEAD}: no process has the recorded pid, or the
 * process with it started at another time (the pid was reused). A live process whose heartbeat is old (hung, stopped,
 * an INVOKER endpoint nobody invokes) is not dead and is kept.</li>
 * <li>A file being created has no layout version yet (its creator writes it last, after the pid and start time);
 * {@link CountersFileReader#open} returns nothing for it, and it is kept.</li>
 * <li>Another user's file (a directory given with {@code --dir} may be shared) is kept: its owner decides.</li>
 * <li>The name of a dead process's file can be taken again by a new process that got the same pid (its first file
 * has the same name, and {@code CountersFile.create} replaces the old one). So the file is first renamed to a name
 * of its own (rename(2) is atomic: the renamed file is the one judged, whatever happens to the name), judged again
 * under that name, and only then deleted; if the second look finds a live owner, the file is renamed back.</li>
 * </ul>
 */
final class CountersFileReaper
{
    /**
     * What became of one file.
     */
    enum Outcome
    {
        /**
         * Its owner is gone and it was this user's: deleted.
         */
        REMOVED,

        /**
         * Its owner is gone, but the file is another user's: kept.
         */
        OTHER_USERS,

        /**
         * Its owner is alive (or the file is not complete yet, or already gone): kept, or nothing to do.
         */
        KEPT
    }

    private static final String REAPING_SUFFIX = ".reaping-" + ProcessHandle.current().pid();

    private final String user;

    /**
     * @param user the user whose files may be removed: this process's, {@code user.name}.
     */
    CountersFileReaper(final String user)
    {
        this.user = user;
    }

    /**
     * @param file  a counters file, open.
     * @param nowMs the current time, epoch ms.
     * @return true if its owner is gone.
     */
    static boolean isDead(final CountersFileReader file, final long nowMs)
    {
        return CountersFileReader.Liveness.DEAD ==
            file.liveness(nowMs, CountersFileReader.DEFAULT_HEARTBEAT_TIMEOUT_MS);
    }

    /**
     * Remove the file if its owner is gone and it is this user's.
     *
     * @param path  a counters file.
     * @param nowMs the current time, epoch ms.
     * @return what became of it.
     * @throws IOException if the file's owner cannot be read or the file cannot be renamed or deleted (a file that
     *                     is gone meanwhile is {@link Outcome#KEPT}: nothing to do).
     */
    Outcome reap(final Path path, final long nowMs) throws IOException
    {
        if (!isDeadFile(path, nowMs))
        {
            return Outcome.KEPT;
        }
        final Path held = path.resolveSibling(path.getFileName() + REAPING_SUFFIX);
        try
        {
            if (!Files.getOwner(path).getName().equals(user))
            {
                return Outcome.OTHER_USERS;
            }
            Files.move(path, held, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final NoSuchFileException ex)
        {
            // Gone meanwhile: its owner's close, or another stat that removed it first.
            return Outcome.KEPT;
        }
        if (!isDeadFile(held, nowMs))
        {
            // The name was taken by a new process between the two looks: give its file back.
            Files.move(held, path, StandardCopyOption.ATOMIC_MOVE);
            return Outcome.KEPT;
        }
        Files.deleteIfExists(held);
        return Outcome.REMOVED;
    }

    private static boolean isDeadFile(final Path path, final long nowMs)
    {
        final Optional<CountersFileReader> opened;
        try
        {
            opened = CountersFileReader.open(path);
        }
        catch (final RuntimeException ex)
        {
            // Another layout version or not a counters file: not ours to judge.
            return false;
        }
        if (opened.isEmpty())
        {
            return false;
        }
        try (CountersFileReader file = opened.get())
        {
            return isDead(file, nowMs);
        }
    }
}
