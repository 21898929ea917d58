package io.pacelink.transport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PacelinkContext#sendBatchLimit(int)}: 64 datagrams a duty cycle by default, 128 for an INVOKER endpoint, a
 * limit set wins over every mode's default, and values outside 1..4096 are refused.
 */
class SendBatchLimitSettingTest
{
    @Test
    void byDefaultOnlyAnInvokerEndpointSendsOneHundredAndTwentyEightDatagramsADutyCycle()
    {
        final PacelinkContext context = new PacelinkContext();
        assertEquals(64, context.sendBatchLimit(), "DEDICATED, the default mode");
        assertEquals(PacelinkContext.DEFAULT_SEND_BATCH_LIMIT, context.sendBatchLimit());
        context.threadingMode(ThreadingMode.SHARED);
        assertEquals(64, context.sendBatchLimit(), "SHARED");
        context.threadingMode(ThreadingMode.INVOKER);
        assertEquals(128, context.sendBatchLimit(), "INVOKER");
        assertEquals(PacelinkContext.DEFAULT_INVOKER_SEND_BATCH_LIMIT, context.sendBatchLimit());
        context.threadingMode(ThreadingMode.DEDICATED);
        assertEquals(64, context.sendBatchLimit(), "it follows the mode, whichever was set first");
    }

    @Test
    void aLimitSetWinsOverEveryModesDefault()
    {
        for (final ThreadingMode mode : ThreadingMode.values())
        {
            final PacelinkContext context = new PacelinkContext();
            assertSame(context, context.sendBatchLimit(1));
            context.threadingMode(mode);
            assertEquals(1, context.sendBatchLimit(), mode.name());
            context.sendBatchLimit(4096);
            assertEquals(4096, context.sendBatchLimit(), mode.name());
        }
    }

    @Test
    void valuesOutsideTheRangeAreRefusedAndChangeNothing()
    {
        final PacelinkContext context = new PacelinkContext().threadingMode(ThreadingMode.INVOKER);
        final IllegalArgumentException tooSmall =
            assertThrows(IllegalArgumentException.class, () -> context.sendBatchLimit(0));
        assertTrue(tooSmall.getMessage().contains("sendBatchLimit"), tooSmall.getMessage());
        assertThrows(IllegalArgumentException.class, () -> context.sendBatchLimit(4097));
        assertEquals(128, context.sendBatchLimit(), "still the default");
    }
}
