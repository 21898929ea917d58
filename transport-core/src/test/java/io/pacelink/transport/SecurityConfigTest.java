package io.pacelink.transport;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.pacelink.transport.secure.AeadAlgorithm;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SecurityConfigTest
{
    @Test
    void theDefaultAeadFollowsTheJvmsUseOfAesInstructions()
    {
        final boolean usesAes = Boolean.parseBoolean(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
            .getVMOption("UseAES").getValue());
        assertEquals(usesAes ? AeadAlgorithm.AES_GCM : AeadAlgorithm.CHACHA20_POLY1305, new SecurityConfig().aead());
        assertEquals(AeadAlgorithm.CHACHA20_POLY1305, new SecurityConfig().aead("chachapoly").aead());
    }

    @Test
    void keysMustBeThirtyTwoBytesAndAnyKeyMeansSecure()
    {
        final SecurityConfig config = new SecurityConfig();
        assertFalse(config.isSecure());
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> config.preSharedKey(new byte[16]));
        assertTrue(ex.getMessage().contains("pacelink keygen"), ex.getMessage());
        assertTrue(config.serverPublicKey(new byte[32]).isSecure());
        assertThrows(IllegalArgumentException.class, () -> config.aead("DES"));
    }
}
