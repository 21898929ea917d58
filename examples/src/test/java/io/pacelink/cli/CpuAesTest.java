package io.pacelink.cli;

import io.pacelink.transport.secure.AeadAlgorithm;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The client's default AEAD read from the CPU's flags is the transport's own default, without JMX.
 */
class CpuAesTest
{
    @Test
    void aesAmongTheFlagsMeansAesGcmAndFlagsWithoutItChaCha()
    {
        assertEquals("AESGCM", CpuAes.defaultAead("processor\t: 0\nflags\t\t: fpu vme sse2 aes avx2\n"));
        assertEquals("AESGCM", CpuAes.defaultAead("processor\t: 0\nFeatures\t: fp asimd aes pmull sha1\n"));
        assertEquals("ChaChaPoly", CpuAes.defaultAead("processor\t: 0\nflags\t\t: fpu vme sse2 vaes_x avx2\n"));
        assertNull(CpuAes.defaultAead("processor\t: 0\nmodel name\t: something\n"), "no flags: the transport decides");
        assertNull(CpuAes.defaultAead(""));
    }

    @Test
    void onThisMachineItAgreesWithHotSpot()
    {
        final String fromFlags = CpuAes.defaultAead();
        final String fromHotSpot = AeadAlgorithm.hasAesInstructions() ? "AESGCM" : "ChaChaPoly";
        assertEquals(null == fromFlags ? fromHotSpot : fromFlags, fromHotSpot);
    }
}
