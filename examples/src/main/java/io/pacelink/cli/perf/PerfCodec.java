package io.pacelink.cli.perf;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.pacelink.cli.net.TransportFailure;
import io.pacelink.transport.Connection;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * Perf protocol messages to and from transport messages: UTF-8 JSON, one object per message, field names in snake
 * case, absent values left out. A reader ignores fields it does not know (a newer peer may add some); anything that
 * is not a known message is the peer's error, reported as a {@link TransportFailure}.
 */
final class PerfCodec
{
    /**
     * Longest control message a client reads. Results with the server's interval figures and report are the
     * largest: a few hundred bytes per stream and interval.
     */
    static final int MAX_CONTROL_MESSAGE_BYTES = 4 << 20;

    /**
     * Longest message a server reads: a client sends only a hello and its done (a few hundred bytes per stream, at
     * most {@link PerfParameters#MAX_STREAMS} × 2 streams), so a server has no reason to hold megabytes of what any
     * client sends.
     */
    static final int MAX_CLIENT_MESSAGE_BYTES = 64 << 10;

    /**
     * Longest text a peer sent that is quoted back in a message or the server's log.
     */
    static final int MAX_QUOTED_CHARS = 64;

    private static final ObjectMapper JSON = JsonMapper.builder()
        .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .serializationInclusion(JsonInclude.Include.NON_NULL)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .build();

    private PerfCodec()
    {
    }

    /**
     * Encode and decode one message of each kind on a background thread, so that jackson-databind's first look at
     * each record (tenths of a second in a fresh JVM) happens while the endpoint starts and connects, not on the
     * handshake's and the results' critical path. The mapper is thread-safe and keeps what it learnt.
     */
    static void warmUpInBackground()
    {
        final Thread warmUp = new Thread(() ->
        {
            final StreamTotals totals = new StreamTotals(1, true, 0, 1, 1, new SenderTotals(0, 0, 1, 1, 1, 1),
                new EcnTotals("CAPABLE", "NONE", 1, 1, 1, 1), 0);
            final PerfParameters parameters = new PerfParameters("cubic", 1, 0, 1, false, false, 1, 0, 1, false, false,
                0);
            for (final PerfMessage message : List.of(
                new PerfMessage.Hello(PerfMessage.PROTOCOL_VERSION, PerfMessage.Role.CONTROL, "0", 0, parameters, ""),
                new PerfMessage.Accepted(PerfMessage.PROTOCOL_VERSION, "", "fq"),
                new PerfMessage.Start(),
                new PerfMessage.Done(List.of(new PerfMessage.RemoteStream(0, "cubic", totals, null))),
                new PerfMessage.Results(List.of(new PerfMessage.RemoteStream(0, "cubic", totals, List.of())), 0, null,
                    null, 0.0)))
            {
                final UnsafeBuffer encoded = encode(message);
                decode(encoded, 0, encoded.capacity(), "the warm-up");
            }
        }, "pacelink-perf-codec-warm-up");
        warmUp.setDaemon(true);
        warmUp.start();
    }

    /**
     * @param message a message.
     * @return it as a transport message.
     */
    static UnsafeBuffer encode(final PerfMessage message)
    {
        try
        {
            return new UnsafeBuffer(JSON.writeValueAsBytes(message));
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException("cannot encode " + message, ex);
        }
    }

    /**
     * @param buffer holding a transport message.
     * @param offset where it starts.
     * @param length its length.
     * @param from   who sent it, for the message, e.g. {@code the client}.
     * @return the message.
     * @throws TransportFailure if it is longer than {@link #MAX_CONTROL_MESSAGE_BYTES} or not a message of this
     * protocol.
     */
    static PerfMessage decode(final DirectBuffer buffer, final int offset, final int length, final String from)
    {
        return decode(buffer, offset, length, from, MAX_CONTROL_MESSAGE_BYTES);
    }

    /**
     * @param buffer   holding a transport message.
     * @param offset   where it starts.
     * @param length   its length.
     * @param from     who sent it, for the message, e.g. {@code the client}.
     * @param maxBytes the longest message this reader takes.
     * @return the message.
     * @throws TransportFailure if it is too long or not a message of this protocol.
     */
    static PerfMessage decode(
        final DirectBuffer buffer, final int offset, final int length, final String from, final int maxBytes)
    {
        if (length > maxBytes)
        {
            throw new TransportFailure(from + " sent a control message of " + length + " bytes; the limit is " +
                maxBytes + " (is it a pacelink perf of this version?)");
        }
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        try
        {
            return JSON.readValue(bytes, PerfMessage.class);
        }
        catch (final JsonProcessingException ex)
        {
            throw new TransportFailure(from + " sent something that is not a pacelink perf message (" +
                ex.getOriginalMessage() + ")");
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("reading from memory failed", ex);
        }
    }

    /**
     * Offer a control message. Control messages are small and rare; a send buffer too full to take one means the
     * connection is stuck.
     *
     * @param connection the connection.
     * @param message    the message.
     * @throws TransportFailure if the connection does not take it.
     */
    static void send(final Connection connection, final PerfMessage message)
    {
        final UnsafeBuffer encoded = encode(message);
        final long result = connection.offer(encoded, 0, encoded.capacity());
        if (result < 0)
        {
            throw new TransportFailure("cannot send the " +
                message.getClass().getSimpleName().toLowerCase(Locale.ROOT) + " message: the connection " +
                (Connection.BACK_PRESSURED == result ? "is stuck (send buffer full)" :
                    "is closed (" + connection.closeReason() + ")"));
        }
    }

    /**
     * @param peerText text a peer sent (a controller's name, a cookie), or null.
     * @return it quoted for a message or a log line, cut to {@link #MAX_QUOTED_CHARS} characters saying how long it
     * was: a reply or a log line must not grow with what a hostile peer sends.
     */
    static String quoted(final String peerText)
    {
        if (null == peerText)
        {
            return "none";
        }
        if (peerText.length() <= MAX_QUOTED_CHARS)
        {
            return "'" + printable(peerText) + "'";
        }
        return "'" + printable(peerText) + "…' (" + peerText.length() + " characters)";
    }

    /**
     * @param peerText text a peer sent, not null.
     * @return its first {@link #MAX_QUOTED_CHARS} characters with control characters shown as {@code ?}: a peer
     * must not write terminal escape sequences into the server's output.
     */
    static String printable(final String peerText)
    {
        final int length = Math.min(peerText.length(), MAX_QUOTED_CHARS);
        final StringBuilder shown = new StringBuilder(length);
        for (int i = 0; i < length; i++)
        {
            final char c = peerText.charAt(i);
            shown.append(Character.isISOControl(c) ? '?' : c);
        }
        return shown.toString();
    }

    /**
     * @param value a JSON document: the server's report for {@link PerfMessage.Results}.
     * @return it as a JSON tree.
     */
    static JsonNode tree(final byte[] value)
    {
        try
        {
            return JSON.readTree(value);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("not JSON", ex);
        }
    }
}
