package io.pacelink.transport.secure;

import io.pacelink.transport.SecurityConfig;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class StatelessResetTokensTest
{
    private static final byte[] SALT = "pacelink stateless reset key".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INFO = "v1".getBytes(StandardCharsets.US_ASCII);

    @Test
    void theKeyIsHkdfOfTheProcessSecretAsBefore()
    {
        final Random random = new Random(7);
        for (int i = 0; i < 50; i++)
        {
            final byte[] secret = new byte[1 + random.nextInt(100)];
            random.nextBytes(secret);
            final Hkdf hkdf = new Hkdf();
            final byte[] expected = hkdf.expand(hkdf.extract(SALT, secret), INFO, SecurityConfig.KEY_LENGTH);
            assertArrayEquals(expected, StatelessResetTokens.key(new SecurityConfig(), secret), "secret " + i);
        }
    }

    @Test
    void oneBlockOfHkdfMatchesTheJdksMacOnRandomInputs()
    {
        final Random random = new Random(11);
        for (int i = 0; i < 100; i++)
        {
            final byte[] salt = new byte[1 + random.nextInt(120)];
            final byte[] ikm = new byte[random.nextInt(80)];
            final byte[] info = new byte[random.nextInt(40)];
            random.nextBytes(salt);
            random.nextBytes(ikm);
            random.nextBytes(info);
            final Hkdf hkdf = new Hkdf();
            assertArrayEquals(hkdf.expand(hkdf.extract(salt, ikm), info, HmacSha256.MAC_LENGTH),
                StatelessResetTokens.hkdfSha256(salt, ikm, info), "input " + i);
        }
    }

    @Test
    void aResetKeyIsOneHkdfBlock()
    {
        assertEquals(HmacSha256.MAC_LENGTH, SecurityConfig.KEY_LENGTH);
    }
}
