package io.pacelink.cli.transfer;

/**
 * The result of a whole transfer (sender) or session (receiver).
 *
 * @param succeeded      whether every entry arrived intact and the session ended properly: the exit status is 0
 *                       exactly when this is true.
 * @param entries        entries in the transfer.
 * @param entriesOk      entries confirmed OK or UNCHANGED.
 * @param entriesFailed  entries refused or failed (or never confirmed).
 * @param bytesTotal     file bytes in the transfer.
 * @param bytesMoved     file bytes that went over the network in this session.
 * @param bytesResumed   file bytes kept from earlier sessions and not sent again.
 * @param bytesResent    bytes an earlier session had delivered past the receiver's last durable point, sent again.
 * @param elapsedNs      how long it took.
 * @param retransmits    packets the connection retransmitted, or {@link ProgressSnapshot#NOT_SENDING} at a receiver.
 * @param integrityFailures packets the endpoint dropped because their CRC32C or AEAD tag did not check: corrupted on
 *                       the way (or forged), and recovered like losses.
 * @param failure        why the session failed as a whole (connection lost, protocol error, ...), or null.
 */
public record TransferSummary(
    boolean succeeded,
    int entries,
    int entriesOk,
    int entriesFailed,
    long bytesTotal,
    long bytesMoved,
    long bytesResumed,
    long bytesResent,
    long elapsedNs,
    long retransmits,
    long integrityFailures,
    String failure)
{
    /**
     * @return file bytes moved per second, in bits.
     */
    public double bitsPerSecond()
    {
        return bytesMoved * 8e9 / Math.max(1, elapsedNs);
    }
}
