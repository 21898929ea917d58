package io.pacelink.transport;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admission limits added for the flood defences fail fast on a value out of their range, naming the setting, and
 * take the values at both ends of it.
 */
class EndpointLimitsRangeTest
{
    @Test
    void thePerSourceRetryThresholdTakesItsRangeAndRefusesWhatIsOutside()
    {
        final EndpointLimits limits = new EndpointLimits();
        assertEquals(4, limits.retryThresholdHandshakesPerSecondPerSource(4)
            .retryThresholdHandshakesPerSecondPerSource());
        assertEquals(1_000_000, limits.retryThresholdHandshakesPerSecondPerSource(1_000_000)
            .retryThresholdHandshakesPerSecondPerSource());
        assertRefused("retryThresholdHandshakesPerSecondPerSource",
            () -> limits.retryThresholdHandshakesPerSecondPerSource(3));
        assertRefused("retryThresholdHandshakesPerSecondPerSource",
            () -> limits.retryThresholdHandshakesPerSecondPerSource(1_000_001));
        assertEquals(1_000_000, limits.retryThresholdHandshakesPerSecondPerSource(),
            "a refused value leaves the setting as it was");
    }

    @Test
    void theKeyExchangeTimePerDutyCycleTakesItsRangeAndRefusesWhatIsOutside()
    {
        final EndpointLimits limits = new EndpointLimits();
        final long oneMicrosecondNs = TimeUnit.MICROSECONDS.toNanos(1);
        final long oneSecondNs = TimeUnit.SECONDS.toNanos(1);
        assertEquals(oneMicrosecondNs, limits.keyExchangeTimePerDutyCycleNs(oneMicrosecondNs)
            .keyExchangeTimePerDutyCycleNs());
        assertEquals(oneSecondNs, limits.keyExchangeTimePerDutyCycleNs(oneSecondNs).keyExchangeTimePerDutyCycleNs());
        assertRefused("keyExchangeTimePerDutyCycleNs", () -> limits.keyExchangeTimePerDutyCycleNs(0));
        assertRefused("keyExchangeTimePerDutyCycleNs", () -> limits.keyExchangeTimePerDutyCycleNs(oneSecondNs + 1));
    }

    @Test
    void theNewTokenLifetimeIsOffAtZeroOrWithinItsRange()
    {
        final EndpointLimits limits = new EndpointLimits();
        assertEquals(0, limits.newTokenLifetimeNs(0).newTokenLifetimeNs());
        final long oneSecondNs = TimeUnit.SECONDS.toNanos(1);
        assertEquals(oneSecondNs, limits.newTokenLifetimeNs(oneSecondNs).newTokenLifetimeNs());
        assertRefused("newTokenLifetimeNs", () -> limits.newTokenLifetimeNs(oneSecondNs - 1));
        assertRefused("newTokenLifetimeNs", () -> limits.newTokenLifetimeNs(TimeUnit.DAYS.toNanos(7) + 1));
    }

    private static void assertRefused(final String setting, final Runnable change)
    {
        final IllegalArgumentException refusal = assertThrows(IllegalArgumentException.class, change::run);
        assertTrue(refusal.getMessage().startsWith(setting + "="), refusal.getMessage());
    }
}
