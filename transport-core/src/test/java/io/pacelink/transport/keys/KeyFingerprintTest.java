package io.pacelink.transport.keys;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Fingerprints are OpenSSH's form over the raw key: {@code SHA256:} and the unpadded base64 of its SHA-256 (the
 * expected values are {@code printf '\0...' | sha256sum}'s, in base64).
 */
class KeyFingerprintTest
{
    @Test
    void theFingerprintIsTheUnpaddedBase64OfTheKeysSha256()
    {
        assertEquals("SHA256:Zmh6rfhivXdsj8GLjp+OIAiXFIVu4jOzkCpZHQ1fKSU", KeyFingerprint.of(new byte[32]));
        final byte[] counting = new byte[32];
        for (int i = 0; i < counting.length; i++)
        {
            counting[i] = (byte)i;
        }
        assertEquals("SHA256:Yw3NKWbEM2aRElRIu7JbT/QSpJxzLbLIq8G4WBvXEN0", KeyFingerprint.of(counting));
    }

    @Test
    void onlyA32ByteKeyHasOne()
    {
        assertThrows(IllegalArgumentException.class, () -> KeyFingerprint.of(new byte[31]));
        assertThrows(IllegalArgumentException.class, () -> KeyFingerprint.of(null));
    }
}
