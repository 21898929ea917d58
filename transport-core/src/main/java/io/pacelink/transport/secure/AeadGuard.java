package io.pacelink.transport.secure;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * A keyed secure connection's guard: its {@link PacketProtection} seals and opens packets. The JDK's AEAD works on
 * arrays with the least garbage — on a direct buffer, as the send and receive batches are, Java 17's ciphers copy
 * through temporary arrays of their own on every call, three times the garbage of the array path (docs/security.md,
 * "Cost") — so a packet is assembled in a staging array and its sealed datagram copied once into the batch; a
 * received datagram is copied once into an array and opened into another. The arrays are the endpoint's
 * ({@link Buffers}), shared by its connections: the agent seals and opens one packet at a time.
 * <p>
 * Counts the key updates of its sending key, initiated or answered (RFC 9001 section 6). Not thread safe.
 */
public final class AeadGuard implements PacketGuard
{
    private final PacketProtection protection;
    private final Buffers buffers;
    private final AtomicCounter keyUpdates;
    private long keyUpdatesCounted;

    /**
     * @param protection the connection's packet protection.
     * @param buffers    the endpoint's arrays for sealing and opening.
     * @param keyUpdates incremented for every key update a seal makes.
     */
    public AeadGuard(final PacketProtection protection, final Buffers buffers, final AtomicCounter keyUpdates)
    {
        this.protection = protection;
        this.buffers = buffers;
        this.keyUpdates = keyUpdates;
    }

    /**
     * @return the packet protection.
     */
    public PacketProtection protection()
    {
        return protection;
    }

    /**
     * {@inheritDoc}
     */
    public int trailerLength()
    {
        return PacketProtection.TRAILER_LENGTH;
    }

    /**
     * {@inheritDoc}
     *
     * @return the staging buffer: the packet is sealed from an array.
     */
    public MutableDirectBuffer assemblyBuffer(final MutableDirectBuffer datagramBuffer)
    {
        return buffers.stagingBuffer;
    }

    /**
     * {@inheritDoc}
     */
    public int assemblyOffset(final int datagramOffset)
    {
        return 0;
    }

    /**
     * {@inheritDoc}
     */
    public int seal(final MutableDirectBuffer datagramBuffer, final int datagramOffset, final int packetLength)
    {
        final int sealedLength = protection.seal(buffers.staging, packetLength, buffers.sealed);
        datagramBuffer.putBytes(datagramOffset, buffers.sealed, 0, sealedLength);
        countKeyUpdates();
        return sealedLength;
    }

    /**
     * {@inheritDoc}
     * <p>
     * A datagram longer than the arrays fails.
     */
    public int open(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length > buffers.sealedInput.length)
        {
            return -1;
        }
        buffer.getBytes(offset, buffers.sealedInput, 0, length);
        final int openedLength = protection.open(buffers.sealedInput, length, buffers.opened);
        countKeyUpdates();
        return openedLength;
    }

    private void countKeyUpdates()
    {
        final long updates = protection.keyUpdates();
        if (updates != keyUpdatesCounted)
        {
            keyUpdates.getAndAddRelease(updates - keyUpdatesCounted);
            keyUpdatesCounted = updates;
        }
    }

    /**
     * {@inheritDoc}
     */
    public DirectBuffer openedBuffer()
    {
        return buffers.openedBuffer;
    }

    /**
     * {@inheritDoc}
     */
    public int openedOffset()
    {
        return 0;
    }

    /**
     * {@inheritDoc}
     */
    public boolean isIntegrityLimitReached()
    {
        return protection.isIntegrityLimitReached();
    }

    /**
     * The arrays an endpoint's {@link AeadGuard}s seal and open through: one of each, for the largest datagram.
     */
    public static final class Buffers
    {
        private final byte[] staging;
        private final byte[] sealed;
        private final byte[] sealedInput;
        private final byte[] opened;
        private final UnsafeBuffer stagingBuffer;
        private final UnsafeBuffer openedBuffer;

        /**
         * @param maxDatagramBytes the largest datagram sealed or opened.
         */
        public Buffers(final int maxDatagramBytes)
        {
            staging = new byte[maxDatagramBytes];
            sealed = new byte[maxDatagramBytes];
            sealedInput = new byte[maxDatagramBytes];
            opened = new byte[maxDatagramBytes];
            stagingBuffer = new UnsafeBuffer(staging);
            openedBuffer = new UnsafeBuffer(opened);
        }
    }
}
