package io.pacelink.transport.stream;

import io.pacelink.transport.memory.MemoryBudget;
import io.pacelink.transport.memory.SegmentPool;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class CircularStreamBufferTest
{
    private static final int CAPACITY = 64;
    private static final int SEGMENT = 16;

    private final MemoryBudget budget = new MemoryBudget(1 << 20);
    private final SegmentPool pool = new SegmentPool(budget, SEGMENT, 4 * SEGMENT);

    @Test
    void shouldWriteAndReadLittleEndianIntsThatStraddleSegments()
    {
        final CircularStreamBuffer store = new CircularStreamBuffer(CAPACITY, 1, pool);
        for (int shift = 0; shift <= 4; shift++)
        {
            final long position = 10L * CAPACITY - 4 + shift;
            assertTrue(store.commit(position, position + 4) >= 0);
            store.putIntLittleEndian(position, 0x0A0B0C0D + shift);
            assertEquals(0x0A0B0C0D + shift, store.getIntLittleEndian(position), "shift " + shift);
            assertEquals((byte)(0x0D + shift), store.segment(position).getByte(store.indexInSegment(position)),
                "least significant first");
        }
    }

    @Test
    void shouldCopyAndCompareRangesAcrossSegmentsAndTheEnd()
    {
        final CircularStreamBuffer store = new CircularStreamBuffer(CAPACITY, 1, pool);
        final UnsafeBuffer source = new UnsafeBuffer(new byte[CAPACITY]);
        for (int i = 0; i < CAPACITY; i++)
        {
            source.putByte(i, (byte)i);
        }
        final long position = 3L * CAPACITY + 50;
        assertEquals(3, store.commit(position, position + 40));
        store.write(position, source, 1, 40);
        assertFalse(store.isWithinOneSegment(position, 40));
        assertTrue(store.isWithinOneSegment(position + 14, 2));

        final UnsafeBuffer copy = new UnsafeBuffer(new byte[CAPACITY]);
        store.read(position, copy, 5, 40);
        for (int i = 0; i < 40; i++)
        {
            assertEquals(i + 1, copy.getByte(5 + i));
        }
        assertTrue(store.matches(position, source, 1, 40));
        source.putByte(30, (byte)99);
        assertFalse(store.matches(position, source, 1, 40));
    }

    @Test
    void shouldCommitOnlyWhereDataIsAndGiveConsumedSegmentsBack()
    {
        final CircularStreamBuffer store = new CircularStreamBuffer(CAPACITY, 1, pool);
        assertEquals(0, budget.committedBytes(), "nothing before data");
        assertEquals(1, store.commit(40, 44));
        assertEquals(0, store.commit(41, 43), "already there");
        assertEquals(2, store.commit(0, 20));
        assertEquals(3, store.committedSegments());
        assertTrue(store.isCommitted(0, 48));
        assertFalse(store.isCommitted(0, 49));

        // Segments wholly below 40 (numbers 0 and 1) go back to the pool; the one holding 40 stays.
        assertEquals(2, store.releaseBelow(40));
        assertEquals(1, store.committedSegments());
        assertEquals(2, pool.freeSegments());
        assertEquals(0, store.releaseBelow(40));
        final UnsafeBuffer reused = store.segment(40);
        assertEquals(1, store.commit(48, 50));
        assertSame(reused, store.segment(40));
        assertEquals(1, pool.freeSegments(), "a new segment came from the pool, not the heap");
        assertEquals(3L * SEGMENT, budget.committedBytes());
    }

    @Test
    void theWalksCountTheSegmentsSpannedUpToOneLapOfTheTable()
    {
        // 64 bytes in 16-byte segments: a window spans up to five segments, so the table has eight slots.
        final CircularStreamBuffer store = new CircularStreamBuffer(CAPACITY, 1, pool);
        assertEquals(1, store.segmentsSpanned(0, 1));
        assertEquals(1, store.segmentsSpanned(0, SEGMENT));
        assertEquals(2, store.segmentsSpanned(0, SEGMENT + 1));
        assertEquals(2, store.segmentsSpanned(SEGMENT - 1, SEGMENT + 1));
        assertEquals(5, store.segmentsSpanned(5L * CAPACITY + 7, 6L * CAPACITY + 7));
        assertEquals(7, store.segmentsSpanned(0, 7L * SEGMENT));
        assertEquals(8, store.segmentsSpanned(0, 8L * SEGMENT), "the table's eight slots");
        assertEquals(8, store.segmentsSpanned(0, 8L * SEGMENT + 1), "a ninth segment would visit the first slot again");
        assertEquals(8, store.segmentsSpanned(0, Long.MAX_VALUE));
        assertEquals(2, store.segmentsSpanned(Long.MAX_VALUE - 20, Long.MAX_VALUE));
        assertEquals(0, store.segmentsSpanned(-SEGMENT, SEGMENT), "a last segment numbered below the first: none");
    }

    @Test
    void commitsAndChecksSegmentsAcrossTheTablesWrapAndAtTheTopOfThePositions()
    {
        final CircularStreamBuffer store = new CircularStreamBuffer(CAPACITY, 1, pool);
        // Segment 7 takes the last slot; 8 and 9 take slots 0 and 1.
        final long from = 7L * SEGMENT + 3;
        assertTrue(store.isCommitted(from, from), "an empty range");
        assertFalse(store.isCommitted(from, from + 1));
        assertEquals(3, store.commit(from, from + 2 * SEGMENT));
        assertTrue(store.isCommitted(from - 3, 10L * SEGMENT));
        assertFalse(store.isCommitted(from - 3, 10L * SEGMENT + 1));
        assertFalse(store.isCommitted(from - 4, 10L * SEGMENT));
        assertEquals(0, store.commitNext(from, from + 2 * SEGMENT), "none missing");
        assertEquals(1, store.commitNext(from, 10L * SEGMENT + 1), "the one after the wrap");

        final CircularStreamBuffer top = new CircularStreamBuffer(CAPACITY, 1, pool);
        assertEquals(2, top.commit(Long.MAX_VALUE - 20, Long.MAX_VALUE));
        assertTrue(top.isCommitted(Long.MAX_VALUE - 20, Long.MAX_VALUE));
        assertFalse(top.isCommitted(Long.MAX_VALUE - 40, Long.MAX_VALUE));
    }

    @Test
    void theWholeCapacityFitsWhateverTheOldestPosition()
    {
        final CircularStreamBuffer store = new CircularStreamBuffer(CAPACITY, 1, pool);
        final long oldest = 5L * CAPACITY + 7;
        // [oldest, oldest + capacity) spans five segments: the table has a slot for each.
        assertEquals(5, store.commit(oldest, oldest + CAPACITY));
        final UnsafeBuffer source = new UnsafeBuffer(new byte[CAPACITY]);
        source.setMemory(0, CAPACITY, (byte)7);
        store.write(oldest, source, 0, CAPACITY);
        assertTrue(store.matches(oldest, source, 0, CAPACITY));
    }

    @Test
    void aRefusedSegmentIsReported()
    {
        final SegmentPool tight = new SegmentPool(new MemoryBudget(2 * SEGMENT), SEGMENT, 0);
        final CircularStreamBuffer store = new CircularStreamBuffer(CAPACITY, 1, tight);
        assertEquals(-1, store.commit(0, 3 * SEGMENT));
        assertEquals(2, store.committedSegments(), "what was committed before the refusal stays");
    }

    @Test
    void shouldKeepPositionSlotsApartFromTheData()
    {
        final CircularStreamBuffer store = new CircularStreamBuffer(CAPACITY, 2, pool);
        store.putRelease(0, 0, 11);
        store.putPlain(0, 1, 12);
        store.putRelease(1, 0, 21);
        assertEquals(11, store.getAcquire(0, 0));
        assertEquals(12, store.getPlain(0, 1));
        assertEquals(21, store.getAcquire(1, 0));
        assertTrue(store.compareAndSet(1, 0, 21, 22));
        assertFalse(store.compareAndSet(1, 0, 21, 23));
        assertEquals(22, store.getPlain(1, 0));
    }

    @Test
    void shouldRequireAPowerOfTwoCapacityAndSegment()
    {
        assertThrows(IllegalArgumentException.class, () -> new CircularStreamBuffer(96, 1, pool));
        assertThrows(IllegalArgumentException.class, () -> new CircularStreamBuffer(32, 1, pool));
        assertThrows(IllegalArgumentException.class, () -> new CircularStreamBuffer(
            CAPACITY, 1, new SegmentPool(budget, 2 * CAPACITY, 0)));
    }

    @Test
    void thePositionSlotsAreEightByteAlignedWhereverAByteArraysDataStarts()
    {
        assertEquals(0, CircularStreamBuffer.alignmentPadBytes(16), "the classic object header");
        assertEquals(4, CircularStreamBuffer.alignmentPadBytes(12), "compact object headers");
        for (long baseOffset = 0; baseOffset < 32; baseOffset++)
        {
            final int pad = CircularStreamBuffer.alignmentPadBytes(baseOffset);
            assertTrue(pad >= 0 && pad < Long.BYTES && (baseOffset + pad) % Long.BYTES == 0, "offset " + baseOffset);
        }
        assertEquals(0, new CircularStreamBuffer(CAPACITY, 3, pool).positionsAddressOffset() % Long.BYTES,
            "on this JVM, whose byte[] data starts at " + BufferUtil.ARRAY_BASE_OFFSET);
    }

    /**
     * On a JVM with compact object headers a {@code byte[]}'s data starts 12 bytes into the object: the slots must be
     * aligned there too (a compare-and-set across two cache lines is a bus lock). Needs a JDK 25 or newer beside the
     * one running the tests (the machines this project builds on have Temurin 25); skipped without one.
     */
    @Test
    void thePositionSlotsAreAlignedOnAJvmWithCompactObjectHeaders() throws Exception
    {
        final Optional<Path> java = javaWithCompactObjectHeaders();
        assumeTrue(java.isPresent(), "no JDK with -XX:+UseCompactObjectHeaders under /usr/lib/jvm");
        final Process probe = new ProcessBuilder(java.get().toString(), "-XX:+UseCompactObjectHeaders",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
            "-cp", System.getProperty("java.class.path"), AlignmentProbe.class.getName())
            .redirectErrorStream(true).start();
        final String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(probe.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, probe.exitValue(), output);
        final String[] lastLine = output.substring(output.lastIndexOf('\n') + 1).split(" ");
        assertEquals("12", lastLine[0], "byte[] data starts 12 bytes in with compact headers: " + output);
        assertEquals(0, Long.parseLong(lastLine[1]) % Long.BYTES, "the slots' buffer starts aligned: " + output);
    }

    private static Optional<Path> javaWithCompactObjectHeaders() throws IOException
    {
        final Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms))
        {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms))
        {
            for (final Path home : homes.sorted().toList())
            {
                final Path java = home.resolve("bin/java");
                if (Files.isExecutable(java) && !Files.isSymbolicLink(home) && acceptsCompactHeaders(java))
                {
                    return Optional.of(java);
                }
            }
        }
        return Optional.empty();
    }

    private static boolean acceptsCompactHeaders(final Path java)
    {
        try
        {
            final Process version = new ProcessBuilder(List.of(java.toString(), "-XX:+UseCompactObjectHeaders",
                "-version")).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return version.waitFor(30, TimeUnit.SECONDS) && 0 == version.exitValue();
        }
        catch (final IOException | InterruptedException ex)
        {
            return false;
        }
    }

    /**
     * The child of {@link #thePositionSlotsAreAlignedOnAJvmWithCompactObjectHeaders}: prints where a byte[]'s data
     * starts and where a send log's position slots start from their array.
     */
    public static final class AlignmentProbe
    {
        public static void main(final String[] args)
        {
            final SegmentPool pool = new SegmentPool(new MemoryBudget(1 << 20), SEGMENT, 4 * SEGMENT);
            System.out.println(BufferUtil.ARRAY_BASE_OFFSET + " " +
                new CircularStreamBuffer(CAPACITY, 3, pool).positionsAddressOffset());
        }
    }
}
