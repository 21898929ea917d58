package io.pacelink.cli.transfer;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MessagesTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(Messages.MAX_MESSAGE_BYTES));

    @Test
    void everyMessageReadsBackWhatWasWritten() throws ProtocolException
    {
        int length = Messages.hello(buffer, Messages.HELLO_FLAG_RESUME, 1001, 5L << 32);
        Messages.checkLength(buffer, length);
        assertEquals(Messages.MAGIC, Messages.helloMagic(buffer));
        assertEquals(Messages.VERSION, Messages.helloVersion(buffer));
        assertEquals(Messages.HELLO_FLAG_RESUME, Messages.helloFlags(buffer));
        assertEquals(1001, Messages.helloEntries(buffer));
        assertEquals(5L << 32, Messages.helloTotalBytes(buffer), "sizes past 4 GiB");

        final byte[] path = "dir/ü/file.bin".getBytes(StandardCharsets.UTF_8);
        length = Messages.entry(buffer, 7, Messages.KIND_FILE, 0640, -123L, 6L << 30, path);
        Messages.checkLength(buffer, length);
        assertEquals(7, Messages.index(buffer));
        assertEquals(0640, Messages.entryMode(buffer));
        assertEquals(-123L, Messages.entryMtimeNs(buffer));
        assertEquals(6L << 30, Messages.entrySize(buffer));
        assertEquals("dir/ü/file.bin", Messages.entryPath(buffer));

        final byte[] hash = new byte[Messages.SHA256_BYTES];
        hash[31] = 9;
        length = Messages.offer(buffer, 7, Messages.OFFER_FLAG_COMPLETE, 5L << 31, 4096, hash);
        Messages.checkLength(buffer, length);
        assertEquals(5L << 31, Messages.offerOffset(buffer));
        assertEquals(4096, Messages.offerDiscarded(buffer));
        assertArrayEquals(hash, Messages.offerProof(buffer));

        length = Messages.verdict(buffer, 7, FileStatus.REFUSED, 0, null, "it exists");
        Messages.checkLength(buffer, length);
        assertEquals(FileStatus.REFUSED, Messages.verdictStatus(buffer));
        assertEquals("it exists", Messages.verdictReason(buffer));

        length = Messages.done(buffer, 1000, 1, "");
        Messages.checkLength(buffer, length);
        assertEquals(1000, Messages.doneOk(buffer));
        assertEquals(1, Messages.doneFailed(buffer));
    }

    @Test
    void malformedMessagesAreRejectedWithTheReason()
    {
        Messages.start(buffer, 1, 0);
        assertTrue(assertThrows(ProtocolException.class, () -> Messages.checkLength(buffer, 12)).getMessage()
            .contains("START of 12 bytes is shorter than its 13"));

        buffer.putByte(0, (byte)0x7f);
        assertTrue(assertThrows(ProtocolException.class, () -> Messages.checkLength(buffer, 20)).getMessage()
            .contains("unknown message type 0x7f"));

        final int length = Messages.abort(buffer, 1, "short");
        assertThrows(ProtocolException.class, () -> Messages.checkLength(buffer, length + 1),
            "a string must end where the message ends");

        buffer.putShort(5, (short)2);
        buffer.putByte(7, (byte)0xc3);
        buffer.putByte(8, (byte)0x28);
        assertThrows(ProtocolException.class, () -> Messages.abortReason(buffer), "invalid UTF-8");
    }

    @Test
    void aLongReasonIsCutAtACharacterBoundary() throws ProtocolException
    {
        final String reason = "é".repeat(Messages.MAX_REASON_BYTES);
        final int length = Messages.abort(buffer, 3, reason);
        Messages.checkLength(buffer, length);
        final String read = Messages.abortReason(buffer);
        assertEquals(Messages.MAX_REASON_BYTES / 2, read.length());
        assertTrue(reason.startsWith(read));
    }
}
