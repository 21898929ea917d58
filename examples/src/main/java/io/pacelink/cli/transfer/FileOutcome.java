package io.pacelink.cli.transfer;

/**
 * What became of one entry, as the receiver confirmed it (and as both sides report it).
 *
 * @param path         the entry's relative path.
 * @param directory    whether it is a directory.
 * @param status       the receiver's verdict.
 * @param size         the file's size.
 * @param resumedFrom  bytes kept from an earlier, interrupted transfer and not sent again (0 if none).
 * @param resentBytes  bytes an earlier transfer had delivered past the receiver's last durable point, which had to
 *                     be sent again.
 * @param sha256       the SHA-256 both sides computed, in hex, or null if the file did not arrive.
 * @param reason       why it was refused or failed, or what is worth knowing (e.g. that it was sent again from the
 *                     start because the source changed); null if nothing.
 */
public record FileOutcome(
    String path,
    boolean directory,
    FileStatus status,
    long size,
    long resumedFrom,
    long resentBytes,
    String sha256,
    String reason)
{
}
