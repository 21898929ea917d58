package io.pacelink.transport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PacelinkContext#unsentLowWatermarkBytes(int)}: its defaults (off, but for an INVOKER endpoint), both ends of
 * its range, and values outside it refused at once with a message that names the setting and the range.
 */
class UnsentLowWatermarkSettingTest
{
    @Test
    void byDefaultTheMarkIsOffAtTheLargestSendBuffer()
    {
        final PacelinkContext context = new PacelinkContext();
        assertEquals(1 << 30, context.unsentLowWatermarkBytes());
        assertEquals(PacelinkContext.DEFAULT_UNSENT_LOW_WATERMARK_BYTES, context.unsentLowWatermarkBytes());
        assertEquals(PacelinkContext.MAX_UNSENT_LOW_WATERMARK_BYTES, context.unsentLowWatermarkBytes());
        context.sendBufferBytes(1 << 30);
        assertTrue(context.unsentLowWatermarkBytes() >= context.sendBufferBytes(), "never binds, whatever the buffer");
    }

    @Test
    void byDefaultOnlyAnInvokerEndpointHasAMarkOfOneMebibyteOrOneDutyCyclesSends()
    {
        final PacelinkContext context = new PacelinkContext();
        assertEquals(PacelinkContext.DEFAULT_UNSENT_LOW_WATERMARK_BYTES, context.unsentLowWatermarkBytes(),
            "DEDICATED, the default mode: off");
        context.threadingMode(ThreadingMode.SHARED);
        assertEquals(PacelinkContext.DEFAULT_UNSENT_LOW_WATERMARK_BYTES, context.unsentLowWatermarkBytes(), "SHARED");
        context.threadingMode(ThreadingMode.INVOKER);
        assertEquals(1 << 20, context.unsentLowWatermarkBytes(), "128 datagrams of 1,472 bytes are less than 1 MiB");
        assertEquals(PacelinkContext.DEFAULT_INVOKER_UNSENT_LOW_WATERMARK_BYTES, context.unsentLowWatermarkBytes());

        context.maxDatagramSizeBytes(65_000);
        assertEquals(128 * 65_000, context.unsentLowWatermarkBytes(), "one duty cycle's sends when they are more");
        context.sendBatchLimit(64);
        assertEquals(64 * 65_000, context.unsentLowWatermarkBytes(), "the limit set, not INVOKER's default");
        context.sendBatchLimit(4096).maxDatagramSizeBytes(65_507);
        assertEquals(4096 * 65_507, context.unsentLowWatermarkBytes(), "the largest duty cycle: 268 MB");
        context.sendBatchLimit((1 << 20) / 65_507);
        assertEquals(1 << 20, context.unsentLowWatermarkBytes(), "one byte short of the mark: the mark");
        context.sendBatchLimit((1 << 20) / 65_507 + 1);
        assertEquals(((1 << 20) / 65_507 + 1) * 65_507, context.unsentLowWatermarkBytes(), "just past it");

        context.threadingMode(ThreadingMode.DEDICATED);
        assertEquals(PacelinkContext.DEFAULT_UNSENT_LOW_WATERMARK_BYTES, context.unsentLowWatermarkBytes(),
            "it follows the mode, whichever was set first");
    }

    @Test
    void aMarkSetWinsOverEveryModesDefault()
    {
        for (final ThreadingMode mode : ThreadingMode.values())
        {
            final PacelinkContext context = new PacelinkContext().unsentLowWatermarkBytes(16 * 1024);
            context.threadingMode(mode);
            assertEquals(16 * 1024, context.unsentLowWatermarkBytes(), mode.name());
            context.unsentLowWatermarkBytes(1 << 30);
            assertEquals(1 << 30, context.unsentLowWatermarkBytes(), mode + ": off, set explicitly");
        }
    }

    @Test
    void bothEndsOfTheRangeAreAccepted()
    {
        final PacelinkContext context = new PacelinkContext();
        assertSame(context, context.unsentLowWatermarkBytes(16 * 1024));
        assertEquals(16 * 1024, context.unsentLowWatermarkBytes());
        context.unsentLowWatermarkBytes(1 << 30);
        assertEquals(1 << 30, context.unsentLowWatermarkBytes());
        context.unsentLowWatermarkBytes(100_000);
        assertEquals(100_000, context.unsentLowWatermarkBytes(), "any value in the range, not only powers of two");
    }

    @Test
    void valuesOutsideTheRangeAreRefusedWithAMessageAndChangeNothing()
    {
        final PacelinkContext context = new PacelinkContext().unsentLowWatermarkBytes(64 * 1024);
        for (final int bytes : new int[] {16 * 1024 - 1, 0, -1, Integer.MIN_VALUE, (1 << 30) + 1, Integer.MAX_VALUE})
        {
            final IllegalArgumentException thrown =
                assertThrows(IllegalArgumentException.class, () -> context.unsentLowWatermarkBytes(bytes));
            assertEquals("unsentLowWatermarkBytes=" + bytes + " is out of range; expected 16384..1073741824",
                thrown.getMessage());
            assertEquals(64 * 1024, context.unsentLowWatermarkBytes(), "unchanged after " + bytes);
        }
    }
}
