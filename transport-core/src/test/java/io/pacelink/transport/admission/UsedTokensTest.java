package io.pacelink.transport.admission;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UsedTokensTest
{
    private static final long LIFETIME_NS = 10_000_000_000L;

    @Test
    void theTableIsMadeAtTheFirstSpendAndATokenBuysOneHello()
    {
        final UsedTokens used = new UsedTokens(16_384, LIFETIME_NS);
        assertFalse(used.hasTable(), "an endpoint that never verifies a token holds no table");
        assertTrue(used.spend(0x1234_5678L, 0, 1_000));
        assertTrue(used.hasTable());
        assertFalse(used.spend(0x1234_5678L, 0, 2_000), "spent before");
        assertTrue(used.spend(0x8765_4321L, 0, 2_000), "another token");
        assertTrue(used.spend(0x1234_5678L, 0, LIFETIME_NS + 2), "forgotten once expired");
    }

    @Test
    void aCapacityIsAPowerOfTwoOfAtLeastItsProbes()
    {
        assertThrows(IllegalArgumentException.class, () -> new UsedTokens(4, LIFETIME_NS));
        assertThrows(IllegalArgumentException.class, () -> new UsedTokens(24, LIFETIME_NS));
    }
}
