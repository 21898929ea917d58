package io.pacelink.perf.soak;

import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.secure.HelloMac;
import io.pacelink.transport.secure.SecureSession;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.NoiseFrameFlyweight;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

/**
 * The datagrams of the soak's attack mix, one kind each, written with the wire package's writer as the hostile-peer
 * suite writes them (examples' {@code io.pacelink.hostile}): what an off-path attacker on one host can send without
 * ever completing a handshake. Each is answered (a RETRY or a refusal, always smaller than what it answers) or dropped
 * and counted by the server; none may cost it more than a hash, grow its memory or disturb its connections.
 */
enum AttackKind
{
    /**
     * Random bytes of random length.
     */
    GARBAGE
    {
        int write(final Context context)
        {
            final int length = 1 + context.random.nextInt(1_400);
            for (int i = 0; i < length; i++)
            {
                context.buffer.putByte(i, (byte)context.random.nextInt(256));
            }
            return length;
        }
    },

    /**
     * A plaintext hello in a datagram below the 1200-byte floor: dropped unanswered.
     */
    SHORT_HELLO
    {
        int write(final Context context)
        {
            return context.hello(600, null, null, 0, 0);
        }
    },

    /**
     * A full-size hello of wire version 2: refused in the client's version.
     */
    OLD_VERSION_HELLO
    {
        int write(final Context context)
        {
            final int length = context.hello(HELLO_BYTES, null, null, 0, 0);
            context.buffer.putByte(PacketHeaderFlyweight.VERSION_OFFSET, (byte)2);
            return length;
        }
    },

    /**
     * A plaintext hello to a secure server: refused for the mismatch.
     */
    PLAINTEXT_HELLO
    {
        int write(final Context context)
        {
            return context.hello(HELLO_BYTES, null, null, 0, 0);
        }
    },

    /**
     * A Noise NK hello whose MAC cannot check, without a token: a RETRY (with the server's key).
     */
    BAD_MAC_HELLO
    {
        int write(final Context context)
        {
            return context.hello(HELLO_BYTES, context.noiseMessage(), null, 0, context.nextClientId());
        }
    },

    /**
     * The same, echoing the last RETRY's token from this address: refused (AUTHENTICATION_FAILED), never any
     * public-key work.
     */
    BAD_MAC_HELLO_WITH_TOKEN
    {
        int write(final Context context)
        {
            final TokenMemory token = context.token;
            if (!token.isKnown())
            {
                return BAD_MAC_HELLO.write(context);
            }
            return context.hello(HELLO_BYTES, context.noiseMessage(), token.buffer(), token.length(),
                token.clientId());
        }
    },

    /**
     * A key request (an NK hello with an empty message): a RETRY carrying the server's key.
     */
    KEY_REQUEST
    {
        int write(final Context context)
        {
            return context.hello(HELLO_BYTES, new byte[0], null, 0, context.nextClientId());
        }
    },

    /**
     * A plaintext CLOSE to a random connection id: unknown, dropped.
     */
    FORGED_CLOSE
    {
        int write(final Context context)
        {
            final PacketWriter writer = context.wrap();
            writer.writeHeader(PacketType.CLOSE, context.random.nextLong(), context.random.nextLong() >>> 2);
            writer.appendClose(0, null, 0, 0);
            return context.seal(writer.length());
        }
    },

    /**
     * A plaintext PING to a random connection id: unknown, dropped.
     */
    FORGED_PING
    {
        int write(final Context context)
        {
            final PacketWriter writer = context.wrap();
            writer.writeHeader(PacketType.ONE_RTT, context.random.nextLong(), context.random.nextLong() >>> 2);
            writer.appendPing();
            return context.seal(writer.length());
        }
    },

    /**
     * A packet flagged sealed to a random connection id, random bytes for its frames and tag: unknown, dropped
     * before any decryption.
     */
    FORGED_SEALED
    {
        int write(final Context context)
        {
            final PacketWriter writer = context.wrap();
            writer.writeHeader(PacketType.ONE_RTT, context.random.nextLong(), context.random.nextLong() >>> 2);
            final int headerLength = writer.length();
            final PacketHeaderFlyweight header = new PacketHeaderFlyweight();
            header.wrap(context.buffer, 0);
            header.flags(PacketHeaderFlyweight.FLAG_SEALED);
            final int length = headerLength + 16 + context.random.nextInt(1_000);
            for (int i = headerLength; i < length; i++)
            {
                context.buffer.putByte(i, (byte)context.random.nextInt(256));
            }
            return length;
        }
    };

    /**
     * A full-size hello, as every honest client pads it.
     */
    static final int HELLO_BYTES = PacelinkContext.MIN_DATAGRAM_SIZE_BYTES;

    /**
     * @param context where to write and what to draw from.
     * @return the datagram's length, written at the start of {@link Context#buffer}.
     */
    abstract int write(Context context);

    /**
     * The RETRY token the attacker last received for one of its client ids (tokens are bound to the client id and
     * address they were minted for).
     */
    interface TokenMemory
    {
        boolean isKnown();

        DirectBuffer buffer();

        int length();

        long clientId();
    }

    /**
     * What every kind writes with: the buffer, the randomness, the last token.
     */
    static final class Context
    {
        final MutableDirectBuffer buffer;
        final SplittableRandom random;
        final TokenMemory token;
        private final PacketWriter writer = new PacketWriter();
        private final Crc32cPacketCheck crc = new Crc32cPacketCheck();

        Context(final MutableDirectBuffer buffer, final SplittableRandom random, final TokenMemory token)
        {
            this.buffer = buffer;
            this.random = random;
            this.token = token;
        }

        long nextClientId()
        {
            return random.nextLong() | 1;
        }

        byte[] noiseMessage()
        {
            final byte[] message = new byte[NoiseFrameFlyweight.MIN_MESSAGE_LENGTH];
            random.nextBytes(message);
            return message;
        }

        PacketWriter wrap()
        {
            buffer.setMemory(0, 64, (byte)0);
            return writer.wrap(buffer, 0, buffer.capacity() - Crc32cPacketCheck.TRAILER_LENGTH);
        }

        int seal(final int length)
        {
            return crc.seal(buffer, 0, length);
        }

        /**
         * @param datagramBytes the datagram's length, padding included.
         * @param noise         a NOISE frame's message (NK, AES-GCM, MAC of zeros), or null for a plaintext hello.
         * @param token         an address-validation token to echo, or null.
         * @param clientId      the client id, or 0 for a fresh one.
         */
        int hello(
            final int datagramBytes,
            final byte[] noise,
            final DirectBuffer token,
            final int tokenLength,
            final long clientId)
        {
            return hello(datagramBytes, null == noise ? null : (transcript) -> noise, null, token, tokenLength,
                clientId);
        }

        /**
         * A hello as {@link #hello(int, byte[], DirectBuffer, int, long)} writes it, with a NOISE frame whose message
         * may depend on the hello's clear parameters and, given the server's MAC, a MAC that checks: what a client
         * that knows the server's public key sends (the flood's valid-MAC hellos, {@link HelloFlood}).
         *
         * @param datagramBytes the datagram's length, padding included.
         * @param message       makes the NOISE frame's message from the transcript of the hello's clear parameters
         *                      (a Noise NK first message binds them, docs/wire-format.md "Secure mode"), or null for
         *                      a plaintext hello.
         * @param mac           the MAC of the server's key, or null for a MAC of zeros.
         * @param token         an address-validation token to echo, or null.
         * @param tokenLength   its length.
         * @param clientId      the client id, or 0 for a fresh one.
         */
        int hello(
            final int datagramBytes,
            final UnaryOperator<byte[]> message,
            final HelloMac mac,
            final DirectBuffer token,
            final int tokenLength,
            final long clientId)
        {
            final PacketWriter writer = wrap();
            writer.writeHeader(PacketType.HANDSHAKE, 0, 0);
            writer.appendHandshake(0 == clientId ? nextClientId() : clientId, false, 1472, 1_000, 30_000, 1 << 20,
                1 << 20, token, 0, tokenLength);
            if (null != message)
            {
                final int macOffset = writer.appendNoise(NoiseFrameFlyweight.PROFILE_NK, 1,
                    message.apply(transcript()));
                if (null != mac)
                {
                    mac.write(buffer, 0, macOffset);
                }
            }
            writer.appendPadding(datagramBytes - writer.length() - Crc32cPacketCheck.TRAILER_LENGTH);
            return seal(writer.length());
        }

        /**
         * @return the transcript of the clear parameters of the hello being written, as the server computes it: the
         * HANDSHAKE frame's fields from the client id up to the token (engine's {@code ConnectionHandshake}).
         */
        private byte[] transcript()
        {
            final int frameOffset = PacketHeaderFlyweight.HEADER_LENGTH;
            final int from = HandshakeFrameFlyweight.SOURCE_CONNECTION_ID_OFFSET;
            return SecureSession.transcript(
                buffer, frameOffset + from, HandshakeFrameFlyweight.TOKEN_LENGTH_OFFSET - from, null);
        }
    }
}
