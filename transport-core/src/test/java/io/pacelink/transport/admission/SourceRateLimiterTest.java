package io.pacelink.transport.admission;

import io.pacelink.transport.testing.AllocationMeter;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SourceRateLimiterTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aSourceGetsItsBurstThenItsRate() throws Exception
    {
        final SourceRateLimiter limiter = new SourceRateLimiter(1024, 77, 10, 5);
        final InetAddress source = InetAddress.getByName("192.0.2.1");
        final long startNs = -123_456_789L;
        for (int i = 0; i < 5; i++)
        {
            assertTrue(limiter.tryAcquire(source, startNs), "burst " + i);
        }
        assertFalse(limiter.tryAcquire(source, startNs));
        assertFalse(limiter.tryAcquire(source, startNs + SECOND_NS / 10 - 1));
        assertTrue(limiter.tryAcquire(source, startNs + SECOND_NS / 10), "one more after a tenth of a second");
        assertFalse(limiter.tryAcquire(source, startNs + SECOND_NS / 10));

        assertTrue(limiter.tryAcquire(InetAddress.getByName("192.0.2.2"), startNs), "another source is unaffected");

        // After a long pause the burst is back, not more.
        final long laterNs = startNs + 100 * SECOND_NS;
        for (int i = 0; i < 5; i++)
        {
            assertTrue(limiter.tryAcquire(source, laterNs));
        }
        assertFalse(limiter.tryAcquire(source, laterNs));
    }

    @Test
    void aLimiterMakesItsTableAtTheFirstRequestItTakes() throws Exception
    {
        final SourceRateLimiter limiter = new SourceRateLimiter(4096, 77, 10, 2);
        final InetAddress source = InetAddress.getByName("192.0.2.1");
        assertFalse(limiter.hasTable(), "an endpoint that gets no hello holds no table");
        assertTrue(limiter.hasCredit(source, 0));
        assertFalse(limiter.hasTable(), "asking takes nothing");
        assertTrue(limiter.tryAcquire(source, 0));
        assertTrue(limiter.hasTable());
        assertTrue(limiter.tryAcquire(source, 0));
        assertFalse(limiter.tryAcquire(source, 0), "the burst counted from the first request on");
        assertFalse(limiter.hasCredit(source, 0));
    }

    @Test
    void checkingAllocatesNothing() throws Exception
    {
        final SourceRateLimiter limiter = new SourceRateLimiter(1024, 77, 1000, 10);
        final InetAddress source = InetAddress.getByName("192.0.2.1");
        for (int i = 0; i < 100_000; i++)
        {
            limiter.tryAcquire(source, i * 1000L);
        }
        AllocationMeter.assertAllocationFree("100,000 checks", () ->
        {
            for (int i = 0; i < 100_000; i++)
            {
                limiter.tryAcquire(source, i * 1000L);
            }
        });
    }
}
