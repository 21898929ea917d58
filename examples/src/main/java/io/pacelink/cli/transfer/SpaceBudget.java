package io.pacelink.cli.transfer;

import io.pacelink.cli.Units;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Free space promised to accepted files: a file is accepted only if what it still needs fits in the usable space
 * less what the other accepted files (of every session) still need. Each promise shrinks as its file is written,
 * since the written bytes already show in the usable space.
 */
public final class SpaceBudget
{
    private final DiskSpace diskSpace;
    private final List<Promise> promises = new ArrayList<>();

    /**
     * Space promised to one file.
     */
    public final class Promise
    {
        private volatile long remainingBytes;

        private Promise(final long bytes)
        {
            this.remainingBytes = bytes;
        }

        /**
         * File thread of the promise's session: bytes were written.
         *
         * @param bytes how many.
         */
        public void written(final long bytes)
        {
            remainingBytes = Math.max(0, remainingBytes - bytes);
        }

        /**
         * The file is done (or gave up): its space is no longer promised.
         */
        public void release()
        {
            synchronized (SpaceBudget.this)
            {
                promises.remove(this);
            }
        }
    }

    /**
     * @param diskSpace where the usable space comes from.
     */
    public SpaceBudget(final DiskSpace diskSpace)
    {
        this.diskSpace = diskSpace;
    }

    /**
     * @param directory where the file goes.
     * @param bytes     what it still needs.
     * @return the promise, to {@link Promise#release()} when the file is done.
     * @throws RefusedException if it does not fit, saying how much there is.
     * @throws IOException      if the free space cannot be found out.
     */
    public synchronized Promise promise(final Path directory, final long bytes) throws RefusedException, IOException
    {
        final long usable = diskSpace.usableBytes(directory);
        long promised = 0;
        for (final Promise promise : promises)
        {
            promised += promise.remainingBytes;
        }
        if (bytes > usable - promised)
        {
            throw new RefusedException("not enough space on the receiver's disk: it needs " + Units.bytes(bytes) +
                ", " + Units.bytes(usable) + " are free" +
                (promised > 0 ? " and " + Units.bytes(promised) + " of that promised to other files" : ""));
        }
        final Promise promise = new Promise(bytes);
        promises.add(promise);
        return promise;
    }
}
