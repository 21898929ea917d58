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
    void theDefaultIsOneMebibyteWellBelowTheDefaultSendBuffer()
    {
        final PacelinkContext context = new PacelinkContext();
        assertEquals(1 << 20, context.unsentLowWatermarkBytes());
        assertEquals(PacelinkContext.DEFAULT_UNSENT_LOW_WATERMARK_BYTES, context.unsentLowWatermarkBytes());
        assertTrue(context.unsentLowWatermarkBytes() < context.sendBufferBytes());
    }

    @Test
    void theDefaultCoversOneDutyCyclesSendsWhenThatIsMore()
    {
        // An INVOKER application offers again after each duty cycle: the mark must cover what one cycle sends.
        final PacelinkContext context = new PacelinkContext().maxDatagramSizeBytes(65_000);
        assertEquals(64 * 65_000, context.unsentLowWatermarkBytes(), "64 datagrams of 65,000 bytes");
        context.sendBatchLimit(8);
        assertEquals(1 << 20, context.unsentLowWatermarkBytes(), "8 of them are less than 1 MiB");
        context.sendBatchLimit(4096).maxDatagramSizeBytes(65_507);
        assertEquals(4096 * 65_507, context.unsentLowWatermarkBytes());
        context.unsentLowWatermarkBytes(16 * 1024);
        assertEquals(16 * 1024, context.unsentLowWatermarkBytes(), "a value set is used as it is");
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
