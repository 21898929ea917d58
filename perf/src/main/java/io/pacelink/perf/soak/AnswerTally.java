package io.pacelink.perf.soak;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What an attacker ({@link AttackMix}, {@link HelloFlood}) sent and what came back, by packet type, and the summary it
 * prints: the answers' bytes over the attack's say whether the server amplified.
 */
final class AnswerTally
{
    private static final ObjectMapper MAPPER = new ObjectMapper();

    long datagramsSent;
    long bytesSent;
    long datagramsReceived;
    long bytesReceived;
    long retries;
    long handshakes;
    long closes;
    long other;

    void onSent(final int length)
    {
        datagramsSent++;
        bytesSent += length;
    }

    /**
     * Count an answer.
     *
     * @param datagram the datagram received, at offset 0.
     * @param length   its length.
     * @return true if it is a RETRY ({@link RetryAnswer#isRetry}).
     */
    boolean onAnswer(final DirectBuffer datagram, final int length)
    {
        datagramsReceived++;
        bytesReceived += length;
        final int type = length > PacketHeaderFlyweight.PACKET_TYPE_OFFSET ?
            datagram.getByte(PacketHeaderFlyweight.PACKET_TYPE_OFFSET) & 0xFF : -1;
        if (RetryAnswer.isRetry(datagram, length))
        {
            retries++;
            return true;
        }
        if (PacketType.HANDSHAKE == type)
        {
            handshakes++;
        }
        else if (PacketType.CLOSE == type)
        {
            closes++;
        }
        else
        {
            other++;
        }
        return false;
    }

    /**
     * @return a JSON object with what was sent and received, to which the attacker adds its own fields.
     */
    ObjectNode toJson()
    {
        final ObjectNode json = MAPPER.createObjectNode();
        json.put("datagrams_sent", datagramsSent);
        json.put("bytes_sent", bytesSent);
        json.put("datagrams_received", datagramsReceived);
        json.put("bytes_received", bytesReceived);
        json.put("retries_received", retries);
        json.put("handshakes_received", handshakes);
        json.put("closes_received", closes);
        json.put("other_received", other);
        json.put("answer_to_attack_bytes", 0 == bytesSent ? 0.0 : (double)bytesReceived / bytesSent);
        return json;
    }

    /**
     * Print the summary as one line, and write it to a file too if one is given.
     *
     * @param json    the summary.
     * @param summary the file, or null.
     */
    static void emit(final ObjectNode json, final Path summary) throws IOException
    {
        final String text = MAPPER.writeValueAsString(json);
        System.out.println(text);
        if (null != summary)
        {
            Files.writeString(summary, text + "\n");
        }
    }
}
