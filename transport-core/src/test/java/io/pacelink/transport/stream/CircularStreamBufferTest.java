package io.pacelink.transport.stream;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CircularStreamBufferTest
{
    private static final int CAPACITY = 64;

    @Test
    void shouldWriteAndReadLittleEndianIntsThatStraddleTheEnd()
    {
        final CircularStreamBuffer store = new CircularStreamBuffer(CAPACITY, 1);
        for (int shift = 0; shift <= 4; shift++)
        {
            final long position = 10L * CAPACITY - 4 + shift;
            store.putIntLittleEndian(position, 0x0A0B0C0D + shift);
            assertEquals(0x0A0B0C0D + shift, store.getIntLittleEndian(position), "shift " + shift);
            assertEquals(
                (byte)(0x0D + shift), store.buffer().getByte(store.index(position)), "least significant first");
        }
        store.putIntLittleEndian(CAPACITY - 2, 0x11223344);
        assertEquals(0x3344, store.buffer().getShort(CAPACITY - 2, ByteOrder.LITTLE_ENDIAN));
        assertEquals(0x1122, store.buffer().getShort(0, ByteOrder.LITTLE_ENDIAN));
    }

    @Test
    void shouldCopyRangesThatWrapInTwoParts()
    {
        final CircularStreamBuffer store = new CircularStreamBuffer(CAPACITY, 1);
        final UnsafeBuffer source = new UnsafeBuffer(new byte[CAPACITY]);
        for (int i = 0; i < CAPACITY; i++)
        {
            source.putByte(i, (byte)i);
        }
        final long position = 3L * CAPACITY + 50;
        store.write(position, source, 1, 40);
        assertEquals(1, store.buffer().getByte(50));
        assertEquals(14, store.buffer().getByte(63));
        assertEquals(15, store.buffer().getByte(0));

        final UnsafeBuffer copy = new UnsafeBuffer(new byte[CAPACITY]);
        store.read(position, copy, 5, 40);
        for (int i = 0; i < 40; i++)
        {
            assertEquals(i + 1, copy.getByte(5 + i));
        }
    }

    @Test
    void shouldKeepPositionSlotsOutsideTheData()
    {
        final CircularStreamBuffer store = new CircularStreamBuffer(CAPACITY, 2);
        store.putRelease(0, 0, 11);
        store.putPlain(0, 1, 12);
        store.putRelease(1, 0, 21);
        assertEquals(11, store.getAcquire(0, 0));
        assertEquals(12, store.getPlain(0, 1));
        assertEquals(21, store.getAcquire(1, 0));
        assertTrue(store.compareAndSet(1, 0, 21, 22));
        assertFalse(store.compareAndSet(1, 0, 21, 23));
        assertEquals(22, store.getPlain(1, 0));
        for (int i = 0; i < CAPACITY; i++)
        {
            assertEquals(0, store.buffer().getByte(i), "data byte " + i);
        }
    }

    @Test
    void shouldRequireAPowerOfTwoCapacity()
    {
        assertThrows(IllegalArgumentException.class, () -> new CircularStreamBuffer(96, 1));
        assertThrows(IllegalArgumentException.class, () -> new CircularStreamBuffer(32, 1));
    }
}
