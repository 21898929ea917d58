package io.pacelink.transport.secure;

import io.pacelink.transport.testing.AllocationMeter;
import org.agrona.BitUtil;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class HmacSha256Test
{
    @Test
    void matchesTheKnownAnswersOfRfc4231()
    {
        // Test case 1: a 20-byte key of 0x0b, "Hi There".
        final byte[] key1 = new byte[20];
        Arrays.fill(key1, (byte)0x0b);
        assertEquals("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            hex(mac(key1, "Hi There".getBytes(StandardCharsets.US_ASCII))));

        // Test case 2: key "Jefe", "what do ya want for nothing?".
        assertEquals("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            hex(mac("Jefe".getBytes(StandardCharsets.US_ASCII),
                "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII))));

        // Test case 6: a 131-byte key, longer than a block, is hashed first.
        final byte[] key6 = new byte[131];
        Arrays.fill(key6, (byte)0xaa);
        assertEquals("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54", hex(mac(key6,
            "Test Using Larger Than Block-Size Key - Hash Key First".getBytes(StandardCharsets.US_ASCII))));
    }

    @Test
    void agreesWithTheJdksMacOnRandomInputs() throws Exception
    {
        final Random random = new Random(3);
        for (int i = 0; i < 200; i++)
        {
            final byte[] key = new byte[1 + random.nextInt(100)];
            final byte[] message = new byte[random.nextInt(300)];
            random.nextBytes(key);
            random.nextBytes(message);
            final Mac jdk = Mac.getInstance("HmacSHA256");
            jdk.init(new SecretKeySpec(key, "HmacSHA256"));
            assertArrayEquals(jdk.doFinal(message), mac(key, message), "input " + i);
        }
    }

    @Test
    void allocatesNothingPerMac()
    {
        final HmacSha256 hmac = new HmacSha256(new byte[32]);
        final byte[] message = new byte[45];
        final byte[] out = new byte[HmacSha256.MAC_LENGTH];
        for (int i = 0; i < 20_000; i++)
        {
            hmac.compute(message, 0, message.length, out, 0);
        }
        AllocationMeter.assertAllocationFree("HMAC-SHA-256 of 45 bytes", () ->
        {
            for (int i = 0; i < 10_000; i++)
            {
                message[0] = (byte)i;
                hmac.compute(message, 0, message.length, out, 0);
            }
        });
    }

    private static byte[] mac(final byte[] key, final byte[] message)
    {
        final byte[] out = new byte[HmacSha256.MAC_LENGTH];
        new HmacSha256(key).compute(message, 0, message.length, out, 0);
        return out;
    }

    private static String hex(final byte[] bytes)
    {
        return BitUtil.toHex(bytes);
    }
}
