package io.pacelink.cli.transfer;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The file-transfer protocol's messages: one protocol message per Pacelink message, little-endian, the first byte
 * its type. {@code S} marks what the sender sends, {@code R} what the receiver sends (types from 0x41). Offsets are
 * bytes from the start of the message; {@code str} is a u16 length followed by that many bytes of UTF-8.
 *
 * <pre>
 * S HELLO   0x01 version u16 @1, flags u16 @3 (RESUME), magic i32 @5 ("PLFT"), entries i32 @9, total i64 @13
 * R WELCOME 0x41 version u16 @1, flags u16 @3 (OVERWRITE, RESUME_ONLY)
 * S ENTRY   0x02 index i32 @1, kind u8 @5 (file, directory), mode i32 @6 (-1 unknown), mtime ns i64 @10
 *                (Long.MIN_VALUE unknown), size i64 @18, path str @26 (relative, '/' separated)
 * R OFFER   0x42 index i32 @1, flags u8 @5 (COMPLETE), offset i64 @6, discarded i64 @14, proof 32 bytes @22
 * S START   0x03 index i32 @1, offset i64 @5
 * S DATA    0x04 index i32 @1, offset i64 @5, the file's bytes from @13
 * S END     0x05 index i32 @1, size i64 @5, sha256 32 bytes @13
 * S ABORT   0x06 index i32 @1, reason str @5
 * S FINISH  0x07 entries i32 @1
 * R VERDICT 0x43 index i32 @1, status u8 @5, bytes i64 @6, sha256 32 bytes @14, reason str @46
 * R DONE    0x44 ok i32 @1, failed i32 @5, reason str @9
 * </pre>
 *
 * Encoders write into a buffer at offset 0 and return the message's length; decoders read a message at offset 0
 * after {@link #checkLength} accepted it, and throw {@link ProtocolException} for anything malformed.
 */
public final class Messages
{
    /**
     * The receiver's UDP port when none is given.
     */
    public static final int DEFAULT_PORT = 7474;

    public static final byte HELLO = 0x01;
    public static final byte ENTRY = 0x02;
    public static final byte START = 0x03;
    public static final byte DATA = 0x04;
    public static final byte END = 0x05;
    public static final byte ABORT = 0x06;
    public static final byte FINISH = 0x07;
    public static final byte WELCOME = 0x41;
    public static final byte OFFER = 0x42;
    public static final byte VERDICT = 0x43;
    public static final byte DONE = 0x44;

    /**
     * "PLFT" read as a little-endian int: tells a file-transfer peer from any other Pacelink application.
     */
    public static final int MAGIC = 0x54464c50;
    public static final int VERSION = 1;

    public static final int HELLO_FLAG_RESUME = 1;
    public static final int WELCOME_FLAG_OVERWRITE = 1;
    public static final int WELCOME_FLAG_RESUME_ONLY = 2;

    /**
     * OFFER flag: the kept bytes are a file that already exists under the final name, not a partial one.
     */
    public static final int OFFER_FLAG_COMPLETE = 1;

    public static final byte KIND_FILE = 0;
    public static final byte KIND_DIRECTORY = 1;

    public static final int UNKNOWN_MODE = -1;
    public static final long UNKNOWN_MTIME = Long.MIN_VALUE;

    public static final int SHA256_BYTES = 32;

    /**
     * File bytes per DATA message: large enough that the per-message work is noise next to hashing and copying,
     * small enough that a few dozen in flight between threads cost a few MiB.
     */
    public static final int CHUNK_BYTES = 256 * 1024;

    public static final int DATA_HEADER_BYTES = 13;

    /**
     * The longest message either side sends; the endpoints' {@code maxMessageLengthBytes}, so the transport itself
     * rejects anything longer from a peer.
     */
    public static final int MAX_MESSAGE_BYTES = DATA_HEADER_BYTES + CHUNK_BYTES;

    /**
     * Linux PATH_MAX and NAME_MAX: a longer path or name could not be created on the receiver anyway.
     */
    public static final int MAX_PATH_BYTES = 4096;
    public static final int MAX_NAME_BYTES = 255;
    public static final int MAX_REASON_BYTES = 1024;

    /**
     * How many entries the sender may announce ahead of the one it is sending: the receiver answers their OFFERs
     * while earlier files are still streaming, so many small files cost no round trip each. It also bounds what
     * the receiver holds per session.
     */
    public static final int MAX_ENTRIES_AHEAD = 128;

    private static final int HELLO_BYTES = 21;
    private static final int WELCOME_BYTES = 5;
    private static final int ENTRY_PATH_OFFSET = 26;
    private static final int OFFER_BYTES = 54;
    private static final int START_BYTES = 13;
    private static final int END_BYTES = 45;
    private static final int ABORT_REASON_OFFSET = 5;
    private static final int FINISH_BYTES = 5;
    private static final int VERDICT_REASON_OFFSET = 46;
    private static final int DONE_REASON_OFFSET = 9;

    private Messages()
    {
    }

    /**
     * @param buffer a message.
     * @return its type.
     */
    public static byte type(final DirectBuffer buffer)
    {
        return buffer.getByte(0);
    }

    /**
     * @param buffer a message.
     * @param length its length.
     * @throws ProtocolException if it is shorter than its type needs, its strings overrun it, or the type is unknown.
     */
    public static void checkLength(final DirectBuffer buffer, final int length) throws ProtocolException
    {
        if (length < 1)
        {
            throw new ProtocolException("empty message");
        }
        final byte type = type(buffer);
        final int minimum = switch (type)
        {
            case HELLO -> HELLO_BYTES;
            case WELCOME -> WELCOME_BYTES;
            case ENTRY -> ENTRY_PATH_OFFSET + 2;
            case OFFER -> OFFER_BYTES;
            case START -> START_BYTES;
            case DATA -> DATA_HEADER_BYTES;
            case END -> END_BYTES;
            case ABORT -> ABORT_REASON_OFFSET + 2;
            case FINISH -> FINISH_BYTES;
            case VERDICT -> VERDICT_REASON_OFFSET + 2;
            case DONE -> DONE_REASON_OFFSET + 2;
            default -> throw new ProtocolException("unknown message type 0x" + Integer.toHexString(type & 0xff));
        };
        if (length < minimum)
        {
            throw new ProtocolException(name(type) + " of " + length + " bytes is shorter than its " + minimum);
        }
        final int stringOffset = switch (type)
        {
            case ENTRY -> ENTRY_PATH_OFFSET;
            case ABORT -> ABORT_REASON_OFFSET;
            case VERDICT -> VERDICT_REASON_OFFSET;
            case DONE -> DONE_REASON_OFFSET;
            default -> -1;
        };
        if (stringOffset >= 0 && stringOffset + 2 + (buffer.getShort(stringOffset) & 0xffff) != length)
        {
            throw new ProtocolException(name(type) + "'s text does not end where the message does");
        }
    }

    /**
     * @param type a message type.
     * @return its name, for messages.
     */
    public static String name(final byte type)
    {
        return switch (type)
        {
            case HELLO -> "HELLO";
            case WELCOME -> "WELCOME";
            case ENTRY -> "ENTRY";
            case OFFER -> "OFFER";
            case START -> "START";
            case DATA -> "DATA";
            case END -> "END";
            case ABORT -> "ABORT";
            case FINISH -> "FINISH";
            case VERDICT -> "VERDICT";
            case DONE -> "DONE";
            default -> "0x" + Integer.toHexString(type & 0xff);
        };
    }

    public static int hello(final MutableDirectBuffer buffer, final int flags, final int entries, final long total)
    {
        buffer.putByte(0, HELLO);
        buffer.putShort(1, (short)VERSION);
        buffer.putShort(3, (short)flags);
        buffer.putInt(5, MAGIC);
        buffer.putInt(9, entries);
        buffer.putLong(13, total);
        return HELLO_BYTES;
    }

    public static int helloVersion(final DirectBuffer buffer)
    {
        return buffer.getShort(1) & 0xffff;
    }

    public static int helloFlags(final DirectBuffer buffer)
    {
        return buffer.getShort(3) & 0xffff;
    }

    public static int helloMagic(final DirectBuffer buffer)
    {
        return buffer.getInt(5);
    }

    public static int helloEntries(final DirectBuffer buffer)
    {
        return buffer.getInt(9);
    }

    public static long helloTotalBytes(final DirectBuffer buffer)
    {
        return buffer.getLong(13);
    }

    public static int welcome(final MutableDirectBuffer buffer, final int flags)
    {
        buffer.putByte(0, WELCOME);
        buffer.putShort(1, (short)VERSION);
        buffer.putShort(3, (short)flags);
        return WELCOME_BYTES;
    }

    public static int welcomeVersion(final DirectBuffer buffer)
    {
        return buffer.getShort(1) & 0xffff;
    }

    public static int welcomeFlags(final DirectBuffer buffer)
    {
        return buffer.getShort(3) & 0xffff;
    }

    public static int entry(
        final MutableDirectBuffer buffer,
        final int index,
        final byte kind,
        final int mode,
        final long mtimeNs,
        final long size,
        final byte[] pathUtf8)
    {
        buffer.putByte(0, ENTRY);
        buffer.putInt(1, index);
        buffer.putByte(5, kind);
        buffer.putInt(6, mode);
        buffer.putLong(10, mtimeNs);
        buffer.putLong(18, size);
        return ENTRY_PATH_OFFSET + putBytes(buffer, ENTRY_PATH_OFFSET, pathUtf8);
    }

    public static int index(final DirectBuffer buffer)
    {
        return buffer.getInt(1);
    }

    public static byte entryKind(final DirectBuffer buffer)
    {
        return buffer.getByte(5);
    }

    public static int entryMode(final DirectBuffer buffer)
    {
        return buffer.getInt(6);
    }

    public static long entryMtimeNs(final DirectBuffer buffer)
    {
        return buffer.getLong(10);
    }

    public static long entrySize(final DirectBuffer buffer)
    {
        return buffer.getLong(18);
    }

    /**
     * @param buffer an ENTRY.
     * @return its path.
     * @throws ProtocolException if it is not valid UTF-8.
     */
    public static String entryPath(final DirectBuffer buffer) throws ProtocolException
    {
        return string(buffer, ENTRY_PATH_OFFSET);
    }

    public static int offer(
        final MutableDirectBuffer buffer,
        final int index,
        final int flags,
        final long offset,
        final long discarded,
        final byte[] proof)
    {
        buffer.putByte(0, OFFER);
        buffer.putInt(1, index);
        buffer.putByte(5, (byte)flags);
        buffer.putLong(6, offset);
        buffer.putLong(14, discarded);
        buffer.putBytes(22, proof, 0, SHA256_BYTES);
        return OFFER_BYTES;
    }

    public static int offerFlags(final DirectBuffer buffer)
    {
        return buffer.getByte(5) & 0xff;
    }

    public static long offerOffset(final DirectBuffer buffer)
    {
        return buffer.getLong(6);
    }

    public static long offerDiscarded(final DirectBuffer buffer)
    {
        return buffer.getLong(14);
    }

    public static byte[] offerProof(final DirectBuffer buffer)
    {
        return bytes(buffer, 22, SHA256_BYTES);
    }

    public static int start(final MutableDirectBuffer buffer, final int index, final long offset)
    {
        buffer.putByte(0, START);
        buffer.putInt(1, index);
        buffer.putLong(5, offset);
        return START_BYTES;
    }

    /**
     * @param buffer a START or a DATA.
     * @return the file offset its bytes start at.
     */
    public static long fileOffset(final DirectBuffer buffer)
    {
        return buffer.getLong(5);
    }

    /**
     * Write a DATA message's header; the caller puts the file's bytes from {@link #DATA_HEADER_BYTES}.
     *
     * @return the header's length.
     */
    public static int dataHeader(final MutableDirectBuffer buffer, final int index, final long offset)
    {
        buffer.putByte(0, DATA);
        buffer.putInt(1, index);
        buffer.putLong(5, offset);
        return DATA_HEADER_BYTES;
    }

    public static int end(final MutableDirectBuffer buffer, final int index, final long size, final byte[] sha256)
    {
        buffer.putByte(0, END);
        buffer.putInt(1, index);
        buffer.putLong(5, size);
        buffer.putBytes(13, sha256, 0, SHA256_BYTES);
        return END_BYTES;
    }

    public static long endSize(final DirectBuffer buffer)
    {
        return buffer.getLong(5);
    }

    public static byte[] endSha256(final DirectBuffer buffer)
    {
        return bytes(buffer, 13, SHA256_BYTES);
    }

    public static int abort(final MutableDirectBuffer buffer, final int index, final String reason)
    {
        buffer.putByte(0, ABORT);
        buffer.putInt(1, index);
        return ABORT_REASON_OFFSET + putBytes(buffer, ABORT_REASON_OFFSET, reason(reason));
    }

    public static String abortReason(final DirectBuffer buffer) throws ProtocolException
    {
        return string(buffer, ABORT_REASON_OFFSET);
    }

    public static int finish(final MutableDirectBuffer buffer, final int entries)
    {
        buffer.putByte(0, FINISH);
        buffer.putInt(1, entries);
        return FINISH_BYTES;
    }

    public static int finishEntries(final DirectBuffer buffer)
    {
        return buffer.getInt(1);
    }

    public static int verdict(
        final MutableDirectBuffer buffer,
        final int index,
        final FileStatus status,
        final long bytes,
        final byte[] sha256,
        final String reason)
    {
        buffer.putByte(0, VERDICT);
        buffer.putInt(1, index);
        buffer.putByte(5, (byte)status.ordinal());
        buffer.putLong(6, bytes);
        if (null == sha256)
        {
            buffer.setMemory(14, SHA256_BYTES, (byte)0);
        }
        else
        {
            buffer.putBytes(14, sha256, 0, SHA256_BYTES);
        }
        return VERDICT_REASON_OFFSET + putBytes(buffer, VERDICT_REASON_OFFSET, reason(reason));
    }

    /**
     * @param buffer a VERDICT.
     * @return its status.
     * @throws ProtocolException if the status is unknown.
     */
    public static FileStatus verdictStatus(final DirectBuffer buffer) throws ProtocolException
    {
        final int ordinal = buffer.getByte(5) & 0xff;
        if (ordinal >= FileStatus.VALUES.length)
        {
            throw new ProtocolException("unknown file status " + ordinal);
        }
        return FileStatus.VALUES[ordinal];
    }

    public static long verdictBytes(final DirectBuffer buffer)
    {
        return buffer.getLong(6);
    }

    public static byte[] verdictSha256(final DirectBuffer buffer)
    {
        return bytes(buffer, 14, SHA256_BYTES);
    }

    public static String verdictReason(final DirectBuffer buffer) throws ProtocolException
    {
        return string(buffer, VERDICT_REASON_OFFSET);
    }

    public static int done(final MutableDirectBuffer buffer, final int ok, final int failed, final String reason)
    {
        buffer.putByte(0, DONE);
        buffer.putInt(1, ok);
        buffer.putInt(5, failed);
        return DONE_REASON_OFFSET + putBytes(buffer, DONE_REASON_OFFSET, reason(reason));
    }

    public static int doneOk(final DirectBuffer buffer)
    {
        return buffer.getInt(1);
    }

    public static int doneFailed(final DirectBuffer buffer)
    {
        return buffer.getInt(5);
    }

    public static String doneReason(final DirectBuffer buffer) throws ProtocolException
    {
        return string(buffer, DONE_REASON_OFFSET);
    }

    /**
     * @param text a reason, or null.
     * @return its UTF-8, cut to {@link #MAX_REASON_BYTES} at a character boundary.
     */
    private static byte[] reason(final String text)
    {
        final byte[] bytes = (null == text ? "" : text).getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_REASON_BYTES)
        {
            return bytes;
        }
        int end = MAX_REASON_BYTES;
        while ((bytes[end] & 0xc0) == 0x80)
        {
            end--; // a continuation byte: do not split the character it belongs to
        }
        return Arrays.copyOf(bytes, end);
    }

    private static int putBytes(final MutableDirectBuffer buffer, final int offset, final byte[] bytes)
    {
        buffer.putShort(offset, (short)bytes.length);
        buffer.putBytes(offset + 2, bytes);
        return 2 + bytes.length;
    }

    private static byte[] bytes(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    private static String string(final DirectBuffer buffer, final int offset) throws ProtocolException
    {
        final byte[] bytes = bytes(buffer, offset + 2, buffer.getShort(offset) & 0xffff);
        try
        {
            return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
        }
        catch (final CharacterCodingException ex)
        {
            throw new ProtocolException("text that is not UTF-8");
        }
    }
}
