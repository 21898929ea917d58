package io.pacelink.transport.secure;

/**
 * The two handshake patterns of the secure mode (the Noise specification, revision 34, sections 7.4 and 9), both one
 * round trip, both with forward secrecy from the two ephemeral keys ({@code ee}):
 * <ul>
 * <li>{@link #NK}: the client pins the server's static public key, as SSH's known_hosts does; the server is
 * authenticated, the client is not. {@code <- s ... -> e, es <- e, ee}.</li>
 * <li>{@link #NN_PSK0}: both know a 32-byte secret; each is authenticated by knowing it.
 * {@code -> psk, e <- e, ee}.</li>
 * </ul>
 */
public enum NoiseProfile
{
    /**
     * Noise NK: a pinned server key.
     */
    NK(1, "NK"),

    /**
     * Noise NNpsk0: a pre-shared key.
     */
    NN_PSK0(2, "NNpsk0");

    private final int wireId;
    private final String patternName;

    NoiseProfile(final int wireId, final String patternName)
    {
        this.wireId = wireId;
        this.patternName = patternName;
    }

    /**
     * @return the profile's number in the NOISE frame.
     */
    public int wireId()
    {
        return wireId;
    }

    /**
     * @param algorithm the AEAD.
     * @return the Noise protocol name, e.g. {@code Noise_NK_25519_AESGCM_SHA256}.
     */
    public String protocolName(final AeadAlgorithm algorithm)
    {
        return "Noise_" + patternName + "_25519_" + algorithm.noiseName() + "_SHA256";
    }

    /**
     * @param wireId a NOISE frame's profile number.
     * @return the profile, or null if unknown.
     */
    public static NoiseProfile fromWireId(final int wireId)
    {
        for (final NoiseProfile profile : values())
        {
            if (profile.wireId == wireId)
            {
                return profile;
            }
        }
        return null;
    }
}
