package io.pacelink.cli.transfer;

/**
 * Progress of a transfer at one moment, for the progress output.
 *
 * @param elapsedNs         since the transfer started.
 * @param bytesDone         file bytes delivered, kept from earlier transfers, or settled (refused or failed files).
 * @param bytesTotal        file bytes in the whole transfer.
 * @param entriesDone       entries with a verdict.
 * @param entriesTotal      entries in the whole transfer.
 * @param currentPath       the file being moved, or null.
 * @param currentDone       its bytes done.
 * @param currentSize       its size.
 * @param bitsPerSecond     file bytes moved per second over the last few seconds, in bits.
 * @param retransmits       packets the connection retransmitted so far, or {@link #NOT_SENDING} at a receiver,
 *                          whose connection carries only its answers (retransmitting those says nothing of the
 *                          transfer).
 */
public record ProgressSnapshot(
    long elapsedNs,
    long bytesDone,
    long bytesTotal,
    int entriesDone,
    int entriesTotal,
    String currentPath,
    long currentDone,
    long currentSize,
    double bitsPerSecond,
    long retransmits)
{
    /**
     * {@link #retransmits()} at a receiver: not shown.
     */
    public static final long NOT_SENDING = -1;

    /**
     * @return seconds until done at the current rate, or -1 if unknown.
     */
    public long etaSeconds()
    {
        final long remaining = bytesTotal - bytesDone;
        if (remaining <= 0)
        {
            return 0;
        }
        return bitsPerSecond > 0 ? (long)Math.ceil(remaining * 8 / bitsPerSecond) : -1;
    }
}
