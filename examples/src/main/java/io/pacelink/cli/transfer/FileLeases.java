package io.pacelink.cli.transfer;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Which session of a receiver is writing which file, so two sessions never write the same one. A session that
 * wants a file another holds takes it over: the holder is asked to stop, keeps what it received for resuming and
 * lets go. This is what makes {@code --resume} work at once after a sender was killed: its old session would only
 * notice the dead peer at the transport's idle timeout.
 */
public final class FileLeases
{
    /**
     * How long a session waits for another to let go of a file before refusing it as busy.
     */
    public static final long TAKEOVER_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final Map<Path, SessionPipes> holders = new HashMap<>();

    /**
     * @param file      a file's final path.
     * @param session   the session that wants it.
     * @param newcomer  who wants it, for the holder's failure message, e.g. "a newer session from 10.0.0.1:4000".
     * @return true once the session holds the file; false if the holder did not let go in time.
     * @throws InterruptedException if interrupted while waiting.
     */
    public synchronized boolean acquire(final Path file, final SessionPipes session, final String newcomer)
        throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TAKEOVER_TIMEOUT_NS;
        SessionPipes holder;
        while (null != (holder = holders.get(file)) && holder != session)
        {
            holder.stop("'" + file.getFileName() + "' was taken over by " + newcomer);
            final long remainingNs = deadlineNs - System.nanoTime();
            if (remainingNs <= 0)
            {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, remainingNs);
        }
        holders.put(file, session);
        return true;
    }

    /**
     * @param file    a file's final path.
     * @param session the session letting go of it (nothing happens if another holds it).
     */
    public synchronized void release(final Path file, final SessionPipes session)
    {
        if (holders.get(file) == session)
        {
            holders.remove(file);
            notifyAll();
        }
    }
}
