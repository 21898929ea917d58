package io.pacelink.transport.secure;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertTrue;

class SecurePrimitivesWarmUpTest
{
    @ParameterizedTest
    @EnumSource(AeadAlgorithm.class)
    void runsAWholeHandshakeAndOneSealedMessageWithEachAead(final AeadAlgorithm algorithm)
    {
        assertTrue(SecurePrimitivesWarmUp.handshakeOnce(algorithm));
    }
}
