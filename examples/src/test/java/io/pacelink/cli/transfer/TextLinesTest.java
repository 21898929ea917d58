package io.pacelink.cli.transfer;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The file-transfer commands' lines: a retransmission count only where it says something of the transfer, at the
 * sender; the receiver's connection carries only its answers, so its lines have no such column.
 */
class TextLinesTest
{
    private static ProgressSnapshot progress(final long retransmits)
    {
        return new ProgressSnapshot(TimeUnit.SECONDS.toNanos(3), 45L << 20, 256L << 20, 2, 10, "big.bin", 45L << 20,
            256L << 20, 112.3e6, retransmits);
    }

    private static TransferSummary summary(final long retransmits)
    {
        return new TransferSummary(true, 1, 1, 0, 1 << 20, 1 << 20, 0, 0, TimeUnit.SECONDS.toNanos(1), retransmits,
            0, null);
    }

    @Test
    void theSendersLinesCountRetransmissions()
    {
        final String line = TextLines.progress(progress(120));
        assertTrue(line.contains("  retr 120  files 2/10  big.bin 18%"), line);
        assertTrue(TextLines.summary(summary(7), "sent").contains("; 7 packets retransmitted, 0 corrupted packets"),
            TextLines.summary(summary(7), "sent"));
    }

    @Test
    void theReceiversLinesHaveNoRetransmissionColumn()
    {
        final String line = TextLines.progress(progress(ProgressSnapshot.NOT_SENDING));
        assertFalse(line.contains("retr"), line);
        assertTrue(line.matches(".*  ETA [0-9:]+  files 2/10  big.bin 18%"), line);
        final String summary = TextLines.summary(summary(ProgressSnapshot.NOT_SENDING), "received");
        assertFalse(summary.contains("retransmit"), summary);
        assertEquals(2, summary.lines().count(), summary);
    }

    @Test
    void aFailedSessionCountsItsEntriesInWords()
    {
        final TransferSummary one = new TransferSummary(false, 1, 0, 1, 1, 0, 0, 0, 1, 0, 0, "cannot connect");
        assertTrue(TextLines.summary(one, "sent").endsWith("FAILED: cannot connect (1 entry not confirmed)"),
            TextLines.summary(one, "sent"));
        final TransferSummary three = new TransferSummary(false, 3, 0, 3, 1, 0, 0, 0, 1, 0, 0, null);
        assertTrue(TextLines.summary(three, "sent").endsWith("FAILED: 3 entries did not arrive (see above)"),
            TextLines.summary(three, "sent"));
    }
}
