package io.pacelink.cli.transfer;

import java.util.concurrent.TimeUnit;

/**
 * Progress of a transfer: updated by the file thread as files start and end, read by the network thread, which
 * adds the bytes moved so far (the sender: bytes its peer acknowledged; the receiver: bytes written) and the
 * retransmissions, and measures the rate over the last few seconds.
 */
public final class TransferProgress
{
    private static final int RATE_SAMPLES = 32;
    private static final long RATE_WINDOW_NS = TimeUnit.SECONDS.toNanos(3);

    private final long startNs;
    private final long[] sampleNs = new long[RATE_SAMPLES];
    private final long[] sampleBytes = new long[RATE_SAMPLES];
    private int samples;
    private volatile int entriesTotal;
    private volatile long bytesTotal;
    private volatile int entriesDone;
    private volatile long bytesSettled;
    private volatile String currentPath;
    private volatile long currentSize;
    private volatile long currentResumedFrom;
    private volatile long currentMark;

    /**
     * @param startNs when the transfer started.
     */
    public TransferProgress(final long startNs)
    {
        this.startNs = startNs;
    }

    /**
     * @param entries entries in the transfer.
     * @param bytes   file bytes in the transfer.
     */
    public void totals(final int entries, final long bytes)
    {
        entriesTotal = entries;
        bytesTotal = bytes;
    }

    /**
     * File thread: a file's data starts.
     *
     * @param path        its path.
     * @param size        its size.
     * @param resumedFrom bytes of it kept from an earlier transfer.
     * @param movedBefore bytes moved (in the network thread's count) before its first byte.
     */
    public void fileStarted(final String path, final long size, final long resumedFrom, final long movedBefore)
    {
        currentMark = movedBefore;
        currentResumedFrom = resumedFrom;
        currentSize = size;
        currentPath = path;
        bytesSettled += resumedFrom;
    }

    /**
     * File thread: an entry has its verdict.
     *
     * @param unmovedBytes bytes of it that will never be moved (a refused file's size, the rest of a failed one,
     *                     an unchanged file's size), so the total still adds up.
     */
    public void entryDone(final long unmovedBytes)
    {
        bytesSettled += unmovedBytes;
        entriesDone++;
    }

    /**
     * Network thread.
     *
     * @param nowNs       the time now.
     * @param movedBytes  file bytes moved so far.
     * @param retransmits packets retransmitted so far.
     * @return the progress now.
     */
    public ProgressSnapshot snapshot(final long nowNs, final long movedBytes, final long retransmits)
    {
        final int newest = samples % RATE_SAMPLES;
        sampleNs[newest] = nowNs;
        sampleBytes[newest] = movedBytes;
        samples++;
        int oldest = samples <= RATE_SAMPLES ? 0 : samples % RATE_SAMPLES;
        while (oldest != newest && nowNs - sampleNs[oldest] > RATE_WINDOW_NS)
        {
            oldest = (oldest + 1) % RATE_SAMPLES;
        }
        final long windowNs = nowNs - sampleNs[oldest];
        final double bitsPerSecond = windowNs > 0 ? (movedBytes - sampleBytes[oldest]) * 8e9 / windowNs : 0;

        final long size = currentSize;
        final long resumedFrom = currentResumedFrom;
        final long currentDone = resumedFrom + Math.min(size - resumedFrom, Math.max(0, movedBytes - currentMark));
        final long total = bytesTotal;
        return new ProgressSnapshot(
            nowNs - startNs,
            Math.min(total, bytesSettled + movedBytes),
            total,
            entriesDone,
            entriesTotal,
            currentPath,
            currentDone,
            size,
            bitsPerSecond,
            retransmits);
    }
}
