package io.pacelink.cli.transfer;

/**
 * Where a transfer reports: progress bars on a terminal, plain periodic lines otherwise, or JSON Lines for
 * scripts. Called from a session's network thread (progress) and file thread (everything else); implementations
 * are thread-safe.
 */
public interface TransferOutput extends AutoCloseable
{
    /**
     * @param address   where the receiver listens, {@code HOST:PORT}.
     * @param directory where it writes.
     */
    void listening(String address, String directory);

    /**
     * @param description what is being transferred, between whom.
     */
    void session(String description);

    /**
     * Called about every 100 ms; the output decides how often to show it.
     *
     * @param progress the progress now.
     */
    void progress(ProgressSnapshot progress);

    /**
     * @param outcome one entry's verdict.
     */
    void file(FileOutcome outcome);

    /**
     * @param text something the user should know that is not an entry's verdict (a skipped link, ...).
     */
    void warning(String text);

    /**
     * @param summary the transfer's or session's result.
     */
    void summary(TransferSummary summary);

    void close();
}
