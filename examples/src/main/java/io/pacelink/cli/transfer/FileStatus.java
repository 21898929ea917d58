package io.pacelink.cli.transfer;

/**
 * What became of one entry of a transfer, as the receiver confirms it (the VERDICT message carries the ordinal).
 */
public enum FileStatus
{
    /**
     * Written, its SHA-256 matched, and it is durable under its final name (or the directory exists).
     */
    OK,

    /**
     * Already there: the receiver's existing file has the same SHA-256 ({@code --resume}); nothing was sent.
     */
    UNCHANGED,

    /**
     * Not accepted: unsafe path, exists without {@code --overwrite}, not enough space, ...; nothing was written.
     */
    REFUSED,

    /**
     * Accepted but did not arrive intact: an I/O error, a SHA-256 mismatch, the sender could not read it, or the
     * session ended first.
     */
    FAILED;

    static final FileStatus[] VALUES = values();

    /**
     * @return whether the entry arrived (or was already there) intact.
     */
    public boolean isSuccess()
    {
        return this == OK || this == UNCHANGED;
    }
}
