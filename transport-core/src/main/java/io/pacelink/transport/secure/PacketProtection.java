package io.pacelink.transport.secure;

import java.nio.charset.StandardCharsets;

/**
 * The secure mode's per-packet protection of one connection (docs/security.md, "Secure mode"), after RFC 9001
 * section 5: the 20-byte header travels in the clear and is the AEAD's associated data, so nobody can change the
 * connection id, packet number or flags; the frames are encrypted; a 16-byte tag ends the datagram. The nonce is the
 * direction's 12-byte IV XOR the packet number (RFC 9001 section 5.3): packet numbers are never reused, so neither is
 * a nonce. Each direction's key and IV come from its Noise transport key with HKDF-Expand (RFC 5869).
 * <p>
 * <b>Key update</b>, the handshake of RFC 9001 section 6: the key phase is the connection's, both directions move
 * together. After {@code keyUpdateIntervalPackets} packets — never more than the AEAD's confidentiality limit of
 * section 6.6 — an endpoint initiates: it moves its sending key to the next one, {@code HKDF-Expand(secret,
 * "pacelink ku", 32)}, and flips the header's key-phase flag (section 6.1) — but never before the peer acknowledged
 * a packet it sent in the current phase and three probe timeouts more passed (section 6.5,
 * {@link #onLargestAcknowledged}, {@link #permitKeyUpdate}), so it cannot run ahead of its peer by two updates, nor
 * update while the peer still needs its previous key for late packets. The peer derives the next receiving key when
 * it sees the flip, and only a packet that opens under it switches keys (section 6.3: garbage with the flag flipped
 * changes nothing, and the next key is derived once, not per packet); it then answers with its own update, its next
 * packet in the new phase (section 6.2). The previous receiving key stays for packets of the old phase that arrive
 * late (a lower packet number than the first of the new phase, section 6.4) until the connection discards it, three
 * probe timeouts after the switch (section 6.5, {@link #discardPreviousReceiveKeys}). Old keys cannot be derived
 * from new ones.
 * <p>
 * <b>Integrity limit</b>: a connection whose peer's packets failed to open more often than the AEAD's limit of
 * section 6.6 must close ({@link #isIntegrityLimitReached()}).
 * <p>
 * Works on heap arrays: the JCA cipher's array overloads need no buffer views. Not thread safe: the agent's.
 */
public final class PacketProtection
{
    /**
     * Bytes a sealed packet adds: the tag.
     */
    public static final int TRAILER_LENGTH = AeadAlgorithm.TAG_LENGTH;

    private static final int HEADER_LENGTH = 20;
    private static final int FLAGS_OFFSET = 2;
    private static final int PACKET_NUMBER_OFFSET = 12;
    private static final int FLAG_SEALED = 0x1;
    private static final int FLAG_KEY_PHASE = 0x2;
    private static final byte[] KEY_LABEL = "pacelink key".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] IV_LABEL = "pacelink iv".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEY_UPDATE_LABEL = "pacelink ku".getBytes(StandardCharsets.US_ASCII);

    private final AeadAlgorithm algorithm;
    private final long keyUpdateIntervalPackets;
    private final byte[] nonce = new byte[AeadAlgorithm.NONCE_LENGTH];

    private DirectionKeys sendKeys;
    private long sealedInPhase;
    private int sendPhase;
    private long keyUpdates;
    private long firstSentPacketNumberInPhase;
    private boolean isCurrentPhaseAcknowledged;
    private boolean isUpdatePermitted;
    private boolean isReceivePhaseChanged;

    private DirectionKeys receiveKeys;
    private DirectionKeys previousReceiveKeys;
    private DirectionKeys nextReceiveKeys;
    private int receivePhase;
    private long firstPacketNumberInPhase;
    private long authenticationFailures;

    /**
     * @param algorithm                the AEAD.
     * @param sendSecret               this side's 32-byte transport key from the handshake.
     * @param receiveSecret            the peer's.
     * @param keyUpdateIntervalPackets packets sealed under one key before the next; capped at the AEAD's limit.
     */
    public PacketProtection(
        final AeadAlgorithm algorithm,
        final byte[] sendSecret,
        final byte[] receiveSecret,
        final long keyUpdateIntervalPackets)
    {
        this.algorithm = algorithm;
        this.keyUpdateIntervalPackets = Math.min(keyUpdateIntervalPackets, algorithm.confidentialityLimitPackets());
        this.sendKeys = new DirectionKeys(sendSecret);
        this.receiveKeys = new DirectionKeys(receiveSecret);
    }

    /**
     * Seal a packet: set the sealed and key-phase flags in its header, then write the header and the encrypted frames
     * with their tag to {@code output}.
     *
     * @param packet the plaintext packet from offset 0: header, then frames.
     * @param length of the plaintext packet.
     * @param output receives the sealed datagram from offset 0; may not be {@code packet}.
     * @return the sealed datagram's length: {@code length + } {@link #TRAILER_LENGTH}.
     */
    public int seal(final byte[] packet, final int length, final byte[] output)
    {
        final long packetNumber = packetNumber(packet);
        if (sealedInPhase >= keyUpdateIntervalPackets && isUpdatePermitted && sendPhase == receivePhase)
        {
            updateSendKeys(packetNumber); // initiate (RFC 9001 section 6.1)
        }
        else if (0 == sealedInPhase)
        {
            firstSentPacketNumberInPhase = packetNumber;
        }
        final int flags = (packet[FLAGS_OFFSET] & ~FLAG_KEY_PHASE) | FLAG_SEALED | (sendPhase * FLAG_KEY_PHASE);
        packet[FLAGS_OFFSET] = (byte)flags;
        System.arraycopy(packet, 0, output, 0, HEADER_LENGTH);
        sendKeys.nonce(packetNumber);
        sealedInPhase++;
        return HEADER_LENGTH + sendKeys.cipher.seal(
            nonce, packet, 0, HEADER_LENGTH, packet, HEADER_LENGTH, length - HEADER_LENGTH, output, HEADER_LENGTH);
    }

    /**
     * Open a sealed datagram.
     *
     * @param datagram the sealed datagram from offset 0.
     * @param length   of the datagram.
     * @param output   receives the plaintext packet from offset 0 (header, then frames); may not be {@code datagram}.
     * @return the plaintext packet's length, or -1 if it failed authentication (counted).
     */
    public int open(final byte[] datagram, final int length, final byte[] output)
    {
        if (length < HEADER_LENGTH + TRAILER_LENGTH)
        {
            authenticationFailures++;
            return -1;
        }
        final long packetNumber = packetNumber(datagram);
        final int phase = (datagram[FLAGS_OFFSET] & FLAG_KEY_PHASE) == 0 ? 0 : 1;
        DirectionKeys keys = receiveKeys;
        boolean isNextPhase = false;
        if (phase != receivePhase)
        {
            if (null != previousReceiveKeys && packetNumber < firstPacketNumberInPhase)
            {
                keys = previousReceiveKeys;
            }
            else
            {
                if (null == nextReceiveKeys)
                {
                    nextReceiveKeys = receiveKeys.next();
                }
                keys = nextReceiveKeys;
                isNextPhase = true;
            }
        }
        keys.nonce(packetNumber);
        final int plaintextLength = keys.cipher.open(
            nonce, datagram, 0, HEADER_LENGTH, datagram, HEADER_LENGTH, length - HEADER_LENGTH, output, HEADER_LENGTH);
        if (plaintextLength < 0)
        {
            authenticationFailures++;
            return -1;
        }
        if (isNextPhase)
        {
            previousReceiveKeys = receiveKeys;
            receiveKeys = nextReceiveKeys;
            nextReceiveKeys = null;
            receivePhase = phase;
            firstPacketNumberInPhase = packetNumber;
            isReceivePhaseChanged = true;
            if (sendPhase != receivePhase)
            {
                // The peer initiated: answer with this side's own update, its next packet in the new phase
                // (RFC 9001 section 6.2). Its own initiation, answered, needs nothing more.
                updateSendKeys(-1);
            }
        }
        else if (keys == receiveKeys && packetNumber < firstPacketNumberInPhase)
        {
            firstPacketNumberInPhase = packetNumber;
        }
        System.arraycopy(datagram, 0, output, 0, HEADER_LENGTH);
        return HEADER_LENGTH + plaintextLength;
    }

    private void updateSendKeys(final long firstPacketNumber)
    {
        sendKeys = sendKeys.next();
        sendPhase ^= 1;
        sealedInPhase = 0;
        keyUpdates++;
        isCurrentPhaseAcknowledged = false;
        isUpdatePermitted = false;
        firstSentPacketNumberInPhase = firstPacketNumber < 0 ? Long.MAX_VALUE : firstPacketNumber;
    }

    /**
     * The peer acknowledged packets up to this number.
     *
     * @param largestAcknowledged the largest packet number the peer acknowledged, -1 for none.
     * @return true the first time that covers a packet sent in the current key phase: the peer has the current keys,
     * and after three probe timeouts — while the peer may still open late packets of the phase before with its
     * previous key — the next update may be initiated ({@link #permitKeyUpdate()}, RFC 9001 section 6.5).
     */
    public boolean onLargestAcknowledged(final long largestAcknowledged)
    {
        if (!isCurrentPhaseAcknowledged && sealedInPhase > 0 && largestAcknowledged >= firstSentPacketNumberInPhase)
        {
            isCurrentPhaseAcknowledged = true;
            return true;
        }
        return false;
    }

    /**
     * The next key update may be initiated, once {@code keyUpdateIntervalPackets} packets were sealed in this phase
     * (called three probe timeouts after {@link #onLargestAcknowledged} confirmed the phase).
     */
    public void permitKeyUpdate()
    {
        isUpdatePermitted = isCurrentPhaseAcknowledged;
    }

    /**
     * @return true once since the receiving keys moved to a new phase (the connection then starts the timer that
     * discards the previous ones); reading it clears it.
     */
    public boolean takeReceivePhaseChange()
    {
        final boolean changed = isReceivePhaseChanged;
        isReceivePhaseChanged = false;
        return changed;
    }

    /**
     * Forget the previous phase's receiving key (RFC 9001 section 6.5: kept about three probe timeouts after the
     * switch, long enough for the packets reordering delays): a packet of the old phase no longer opens.
     */
    public void discardPreviousReceiveKeys()
    {
        previousReceiveKeys = null;
    }

    /**
     * @return true while the previous phase's receiving key is kept.
     */
    public boolean hasPreviousReceiveKeys()
    {
        return null != previousReceiveKeys;
    }

    /**
     * @return the key phase this side sends in, 0 or 1.
     */
    public int sendKeyPhase()
    {
        return sendPhase;
    }

    /**
     * @return the key phase of the peer's newest keys, 0 or 1.
     */
    public int receiveKeyPhase()
    {
        return receivePhase;
    }

    /**
     * @return the AEAD.
     */
    public AeadAlgorithm algorithm()
    {
        return algorithm;
    }

    /**
     * @return key updates this side has made to its sending key, initiated or answered.
     */
    public long keyUpdates()
    {
        return keyUpdates;
    }

    /**
     * @return packets that failed to open.
     */
    public long authenticationFailures()
    {
        return authenticationFailures;
    }

    /**
     * @return true once more packets failed to open than the AEAD's integrity limit allows (RFC 9001 section 6.6):
     * the connection must close.
     */
    public boolean isIntegrityLimitReached()
    {
        return authenticationFailures >= algorithm.integrityLimitPackets();
    }

    private static long packetNumber(final byte[] packet)
    {
        long number = 0;
        for (int i = Long.BYTES - 1; i >= 0; i--)
        {
            number = (number << Byte.SIZE) | (packet[PACKET_NUMBER_OFFSET + i] & 0xFF);
        }
        return number;
    }

    /**
     * One direction's secret, key and IV, and its cipher.
     */
    private final class DirectionKeys
    {
        private final byte[] secret;
        private final byte[] iv;
        private final AeadCipher cipher;

        DirectionKeys(final byte[] secret)
        {
            this.secret = secret.clone();
            this.iv = Hkdf.ofThisThread().expand(secret, IV_LABEL, AeadAlgorithm.NONCE_LENGTH);
            this.cipher =
                new AeadCipher(algorithm, Hkdf.ofThisThread().expand(secret, KEY_LABEL, AeadAlgorithm.KEY_LENGTH));
        }

        DirectionKeys next()
        {
            return new DirectionKeys(Hkdf.ofThisThread().expand(secret, KEY_UPDATE_LABEL, Hkdf.HASH_LENGTH));
        }

        /**
         * The nonce of a packet: the IV with the packet number XORed into its last 8 bytes, big-endian.
         */
        void nonce(final long packetNumber)
        {
            System.arraycopy(iv, 0, nonce, 0, AeadAlgorithm.NONCE_LENGTH);
            for (int i = 0; i < Long.BYTES; i++)
            {
                nonce[AeadAlgorithm.NONCE_LENGTH - 1 - i] ^= (byte)(packetNumber >>> (i * Byte.SIZE));
            }
        }
    }
}
