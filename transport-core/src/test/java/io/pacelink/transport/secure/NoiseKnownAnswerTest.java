package io.pacelink.transport.secure;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Noise's published test vectors for the secure mode's four protocol names: the Cacophony vectors (the Haskell
 * reference implementation's, as shipped with the snow and noise-c implementations), in
 * {@code cacophony-vectors.txt}. Each checks both handshake messages byte for byte from fixed ephemeral keys, the
 * handshake hash, and four transport messages through the keys of {@code Split()}.
 */
class NoiseKnownAnswerTest
{
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void everyVectorReproducesBothMessagesTheHandshakeHashAndTransportMessages() throws IOException
    {
        final List<Map<String, Object>> vectors = vectors();
        assertEquals(4, vectors.size());
        for (final Map<String, Object> vector : vectors)
        {
            run(vector);
        }
    }

    @Test
    void theResponderStaticKeyGivesThePinnedPublicKey() throws IOException
    {
        final Map<String, Object> vector = vectors().get(0);
        assertEquals(
            vector.get("init_remote_static"), HEX.formatHex(new X25519().publicKey(bytes(vector, "resp_static"))));
    }

    @Test
    void aTamperedFirstMessageFails() throws IOException
    {
        final Map<String, Object> vector = vectors().get(0);
        final NoiseHandshake responder = responder(vector);
        final byte[] message = HEX.parseHex(messages(vector).get(0)[1]);
        message[40] ^= 1;
        assertNull(responder.readMessage(message));
    }

    @Test
    void aFirstMessagePreparedAheadIsTheVectorsMessageByteForByte() throws IOException
    {
        for (final Map<String, Object> vector : vectors())
        {
            final String name = (String)vector.get("protocol_name");
            final NoiseHandshake initiator = initiator(vector);
            initiator.prepareFirstMessage();
            initiator.prepareFirstMessage(); // once: a second call changes nothing
            final byte[] first = initiator.writeMessage(HEX.parseHex(messages(vector).get(0)[0]));
            assertEquals(messages(vector).get(0)[1], HEX.formatHex(first), name + " message 1");
            assertThrows(IllegalStateException.class, initiator::prepareFirstMessage, name);
            assertThrows(IllegalStateException.class, responder(vector)::prepareFirstMessage, name);
        }
    }

    @Test
    void aResponderHandedItsEphemeralPublicKeyAheadWritesTheVectorsMessageByteForByte() throws IOException
    {
        for (final Map<String, Object> vector : vectors())
        {
            final String name = (String)vector.get("protocol_name");
            final List<String[]> messages = messages(vector);
            final NoiseHandshake responder = responder(vector);
            responder.ephemeralPublicKey(new X25519().publicKey(bytes(vector, "resp_ephemeral")));
            responder.readMessage(HEX.parseHex(messages.get(0)[1]));
            final byte[] second = responder.writeMessage(HEX.parseHex(messages.get(1)[0]));
            assertEquals(messages.get(1)[1], HEX.formatHex(second), name + " message 2");
            assertThrows(IllegalStateException.class, () -> initiator(vector).ephemeralPublicKey(new byte[32]), name);
        }
    }

    @Test
    void anAnswerReadOnACopyOfTheFirstMessagesStateGivesTheVectorsHashAndAForgedOneSpoilsOnlyItsCopy()
        throws IOException
    {
        for (final Map<String, Object> vector : vectors())
        {
            final String name = (String)vector.get("protocol_name");
            final List<String[]> messages = messages(vector);
            final NoiseHandshake initiator = initiator(vector);
            final byte[] first = initiator.writeMessage(HEX.parseHex(messages.get(0)[0]));
            final NoiseHandshake responder = responder(vector);
            responder.readMessage(first);
            final byte[] second = responder.writeMessage(HEX.parseHex(messages.get(1)[0]));

            final byte[] forged = second.clone();
            forged[forged.length - 1] ^= 1;
            final NoiseHandshake spoiled = initiator.copy();
            assertNull(spoiled.readMessage(forged), name);
            final NoiseHandshake genuine = initiator.copy();
            assertArrayEquals(HEX.parseHex(messages.get(1)[0]), genuine.readMessage(second), name);
            assertEquals(vector.get("handshake_hash"), HEX.formatHex(genuine.handshakeHash()), name);
            assertArrayEquals(responder.split()[0], genuine.split()[0], name);
            // The state the first message left is untouched by either copy.
            assertArrayEquals(HEX.parseHex(messages.get(1)[0]), initiator.readMessage(second), name);
        }
    }

    private static void run(final Map<String, Object> vector)
    {
        final String name = (String)vector.get("protocol_name");
        final List<String[]> messages = messages(vector);
        final NoiseHandshake initiator = initiator(vector);
        final NoiseHandshake responder = responder(vector);

        final byte[] first = initiator.writeMessage(HEX.parseHex(messages.get(0)[0]));
        assertEquals(messages.get(0)[1], HEX.formatHex(first), name + " message 1");
        assertArrayEquals(HEX.parseHex(messages.get(0)[0]), responder.readMessage(first), name);
        final byte[] second = responder.writeMessage(HEX.parseHex(messages.get(1)[0]));
        assertEquals(messages.get(1)[1], HEX.formatHex(second), name + " message 2");
        assertArrayEquals(HEX.parseHex(messages.get(1)[0]), initiator.readMessage(second), name);
        assertEquals(vector.get("handshake_hash"), HEX.formatHex(initiator.handshakeHash()), name);
        assertEquals(vector.get("handshake_hash"), HEX.formatHex(responder.handshakeHash()), name);

        final AeadAlgorithm algorithm = algorithm(vector);
        final byte[][] keys = initiator.split();
        assertArrayEquals(keys[1], responder.split()[1]);
        final NoiseCipherState[] senders = { new NoiseCipherState(algorithm), new NoiseCipherState(algorithm) };
        final NoiseCipherState[] receivers = { new NoiseCipherState(algorithm), new NoiseCipherState(algorithm) };
        for (int direction = 0; direction < 2; direction++)
        {
            senders[direction].initializeKey(keys[direction]);
            receivers[direction].initializeKey(keys[direction]);
        }
        for (int i = 2, direction = 0; i < messages.size(); i++, direction ^= 1)
        {
            final byte[] payload = HEX.parseHex(messages.get(i)[0]);
            final byte[] sealed = senders[direction].encryptWithAd(new byte[0], payload);
            assertEquals(messages.get(i)[1], HEX.formatHex(sealed), name + " transport message " + i);
            assertArrayEquals(payload, receivers[direction].decryptWithAd(new byte[0], sealed));
        }
    }

    private static NoiseHandshake initiator(final Map<String, Object> vector)
    {
        final boolean isNk = isNk(vector);
        return NoiseHandshake.initiator(
            isNk ? NoiseProfile.NK : NoiseProfile.NN_PSK0, algorithm(vector), bytes(vector, "init_prologue"),
            isNk ? bytes(vector, "init_remote_static") : null, isNk ? null : bytes(vector, "psk"),
            bytes(vector, "init_ephemeral"));
    }

    private static NoiseHandshake responder(final Map<String, Object> vector)
    {
        final boolean isNk = isNk(vector);
        return NoiseHandshake.responder(
            isNk ? NoiseProfile.NK : NoiseProfile.NN_PSK0, algorithm(vector), bytes(vector, "init_prologue"),
            isNk ? bytes(vector, "resp_static") : null,
            isNk ? new X25519().publicKey(bytes(vector, "resp_static")) : null, isNk ? null : bytes(vector, "psk"),
            bytes(vector, "resp_ephemeral"));
    }

    private static boolean isNk(final Map<String, Object> vector)
    {
        return ((String)vector.get("protocol_name")).contains("_NK_");
    }

    private static AeadAlgorithm algorithm(final Map<String, Object> vector)
    {
        return ((String)vector.get("protocol_name")).contains("AESGCM") ?
            AeadAlgorithm.AES_GCM : AeadAlgorithm.CHACHA20_POLY1305;
    }

    private static byte[] bytes(final Map<String, Object> vector, final String field)
    {
        return HEX.parseHex((String)vector.get(field));
    }

    @SuppressWarnings("unchecked")
    private static List<String[]> messages(final Map<String, Object> vector)
    {
        return (List<String[]>)vector.get("messages");
    }

    private static List<Map<String, Object>> vectors() throws IOException
    {
        final List<Map<String, Object>> vectors = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(
            NoiseKnownAnswerTest.class.getResourceAsStream("cacophony-vectors.txt"), StandardCharsets.US_ASCII)))
        {
            Map<String, Object> vector = null;
            for (String line = reader.readLine(); null != line; line = reader.readLine())
            {
                if (line.startsWith("#"))
                {
                    continue;
                }
                if (line.isBlank())
                {
                    vector = null;
                    continue;
                }
                if (null == vector)
                {
                    vector = new HashMap<>();
                    vector.put("messages", new ArrayList<String[]>());
                    vectors.add(vector);
                }
                final String[] fields = line.split(" ");
                if ("message".equals(fields[0]))
                {
                    messages(vector).add(new String[]{ fields[1], fields[2] });
                }
                else
                {
                    vector.put(fields[0], fields[1]);
                }
            }
        }
        return vectors;
    }
}
