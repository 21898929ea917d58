package io.pacelink.transport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PacelinkContext#unsentLowWatermarkBytes(int)}: its default, both ends of its range, and values outside it
 * refused at once with a message that names the setting and the range.
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
