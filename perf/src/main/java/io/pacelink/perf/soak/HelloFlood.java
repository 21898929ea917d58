package io.pacelink.perf.soak;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pacelink.transport.secure.AeadAlgorithm;
import io.pacelink.transport.secure.EndpointKeys;
import io.pacelink.transport.secure.HelloMac;
import io.pacelink.transport.secure.SecureSession;
import io.pacelink.transport.wire.NoiseFrameFlyweight;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;

/**
 * The flood acceptance's attacker ({@code perf/scripts/flood.sh}, docs/security.md "Floods, measured"): secure hellos
 * from raw UDP sockets on one host, at a set rate, toward one server, each with a MAC that checks (the attacker knows
 * the server's public key: it asks for it with a key request first, as every client may). Two modes:
 * <ul>
 *     <li>{@code half-open}: every hello a new client id with a genuine Noise NK first message, so that the server
 *     runs its Diffie-Hellman and holds the handshake; a RETRY is followed at once with the token (a real attacker
 *     does), the handshake is never confirmed.</li>
 *     <li>{@code tokened}: hellos carrying a valid token. Tokens buy one hello each and are bound to a client id, so
 *     each token a RETRY brings is spent at once on a genuine hello for its client id, and the rest of the rate
 *     repeats the last such hello (its token spent) — with every {@code --fresh-every}-th datagram a hello of a new
 *     client id (a valid MAC over random bytes) to draw the next RETRY.</li>
 * </ul>
 * It reads every answer and at the end prints (and writes to {@code --summary}) one JSON object: what it sent by
 * kind, what came back by type, and the answers' bytes over the attack's (amplification). The datagrams are written
 * by the soak's {@link AttackKind.Context}.
 */
@Command(
    name = "hello-flood",
    mixinStandardHelpOptions = true,
    description = "Flood one secure server on loopback with valid-MAC hellos (half-open or tokened); write a JSON " +
        "summary.")
public final class HelloFlood implements Callable<Integer>
{
    private static final long TICK_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long KEY_WAIT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final int MAX_PENDING_TOKENS = 1_024;
    private static final int MAX_REMEMBERED_MESSAGES = 1 << 16;
    private static final AttackKind.TokenMemory NO_TOKEN = new AttackKind.TokenMemory()
    {
        public boolean isKnown()
        {
            return false;
        }

        public DirectBuffer buffer()
        {
            return null;
        }

        public int length()
        {
            return 0;
        }

        public long clientId()
        {
            return 0;
        }
    };

    /**
     * What the hellos are.
     */
    enum Mode
    {
        /**
         * New client ids with genuine Noise messages, following each RETRY, never confirming.
         */
        HALF_OPEN,

        /**
         * Genuine hellos spending each token a RETRY brings, the last one repeated between them.
         */
        TOKENED
    }

    @Option(names = "--target", required = true, description = "The server's HOST:PORT.")
    private String target;

    @Option(names = "--mode", required = true, description = "half-open or tokened.",
        converter = ModeConverter.class)
    private Mode mode;

    @Option(names = "--rate", defaultValue = "1000", description = "Datagrams per second in all (default " +
        "${DEFAULT-VALUE}).")
    private int rate;

    @Option(names = "--duration", defaultValue = "60", description = "Seconds of flood (default ${DEFAULT-VALUE}).")
    private double durationSeconds;

    @Option(names = "--from", defaultValue = "127.0.0.2",
        description = "The first source address (default ${DEFAULT-VALUE}: another loopback host than the tools' " +
            "127.0.0.1).")
    private String from;

    @Option(names = "--sources", defaultValue = "1",
        description = "Source addresses, consecutive from --from, one socket each, used in turn (default " +
            "${DEFAULT-VALUE}).")
    private int sources;

    @Option(names = "--fresh-every", defaultValue = "10",
        description = "tokened: every Nth datagram of a source a hello of a new client id, to draw a RETRY (default " +
            "${DEFAULT-VALUE}).")
    private int freshEvery;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the client ids and junk (default " +
        "${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--summary", description = "Write the JSON summary here too (always printed).")
    private Path summary;

    /**
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new HelloFlood()).execute(args));
    }

    public Integer call() throws IOException
    {
        if (rate < 1 || rate > 200_000 || durationSeconds <= 0 || sources < 1 || sources > 200 || freshEvery < 2)
        {
            throw new CommandLine.ParameterException(new CommandLine(this),
                "--rate must be 1..200000, --duration positive, --sources 1..200 and --fresh-every at least 2");
        }
        final int colon = target.lastIndexOf(':');
        if (colon <= 0)
        {
            throw new CommandLine.ParameterException(new CommandLine(this), "--target HOST:PORT, got " + target);
        }
        final InetSocketAddress server = new InetSocketAddress(target.substring(0, colon),
            Integer.parseInt(target.substring(colon + 1)));
        final SplittableRandom random = new SplittableRandom(seed);
        final UnsafeBuffer sendBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        final AttackKind.Context context = new AttackKind.Context(sendBuffer, random, NO_TOKEN);
        final Totals totals = new Totals();
        final Source[] sockets = new Source[sources];
        try
        {
            final byte[] first = InetAddress.getByName(from).getAddress();
            for (int i = 0; i < sources; i++)
            {
                final byte[] address = first.clone();
                address[address.length - 1] = (byte)((address[address.length - 1] & 0xFF) + i);
                sockets[i] = new Source(DatagramChannel.open());
                sockets[i].channel.bind(new InetSocketAddress(InetAddress.getByAddress(address), 0));
                sockets[i].channel.configureBlocking(false);
            }
            final byte[] serverKey = learnServerKey(sockets[0], server, context, totals);
            if (null == serverKey)
            {
                System.err.println("hello-flood: no RETRY with a server key from " + target + " within 10 s: is a " +
                    "secure (Noise NK) server listening there?");
                return 1;
            }
            final EndpointKeys keys = new EndpointKeys(null, serverKey, null, null, AeadAlgorithm.AES_GCM,
                1L << 23, random::nextLong);
            final HelloMac mac = new HelloMac(serverKey);
            System.out.println("hello-flood: flooding " + target + " " + mode.name().toLowerCase().replace('_', '-') +
                " at " + rate + "/s from " + sources + " source(s) for " + durationSeconds + " s");
            System.out.flush();
            flood(sockets, server, context, keys, mac, totals);
        }
        finally
        {
            for (final Source source : sockets)
            {
                if (null != source)
                {
                    source.channel.close();
                }
            }
        }
        final ObjectNode json = totals.answers.toJson();
        json.put("mode", mode.name().toLowerCase().replace('_', '-'));
        json.put("sources", sources);
        json.put("rate_target", rate);
        json.put("duration_s", totals.floodNs / 1e9);
        // Its first and last datagram's time on the shared wall clock: what happened beside the flood is placed by it.
        json.put("flood_start_unix_s", totals.floodStartUnixS);
        json.put("flood_end_unix_s", totals.floodEndUnixS);
        json.put("rate_achieved", totals.floodNs > 0 ? totals.answers.datagramsSent * 1e9 / totals.floodNs : 0.0);
        json.put("sent_fresh", totals.fresh);
        json.put("sent_tokened", totals.tokened);
        json.put("sent_repeated", totals.repeated);
        json.put("noise_messages_built", totals.messagesBuilt);
        AnswerTally.emit(json, summary);
        return 0;
    }

    private byte[] learnServerKey(
        final Source source, final InetSocketAddress server, final AttackKind.Context context, final Totals totals)
        throws IOException
    {
        final long deadlineNs = System.nanoTime() + KEY_WAIT_NS;
        long nextRequestNs = System.nanoTime();
        while (System.nanoTime() - deadlineNs < 0)
        {
            if (System.nanoTime() - nextRequestNs >= 0)
            {
                send(source, server, context.buffer, AttackKind.KEY_REQUEST.write(context), totals);
                nextRequestNs += TimeUnit.MILLISECONDS.toNanos(100);
            }
            final byte[] key = source.serverKey;
            receive(source, totals, null);
            if (null != source.serverKey && null == key)
            {
                source.pending.clear();
                return source.serverKey;
            }
            LockSupport.parkNanos(TICK_NS);
        }
        return null;
    }

    private void flood(
        final Source[] sockets,
        final InetSocketAddress server,
        final AttackKind.Context context,
        final EndpointKeys keys,
        final HelloMac mac,
        final Totals totals) throws IOException
    {
        final UnaryOperator<byte[]> genuine = (transcript) ->
        {
            totals.messagesBuilt++;
            return SecureSession.client(keys).firstMessage(transcript);
        };
        final byte[] junk = new byte[NoiseFrameFlyweight.MIN_MESSAGE_LENGTH];
        final UnaryOperator<byte[]> junkMessage = (transcript) ->
        {
            context.random.nextBytes(junk);
            return junk;
        };
        final long startNs = System.nanoTime();
        totals.floodStartUnixS = WallClock.unixSeconds();
        final long durationNs = (long)(durationSeconds * 1e9);
        long slot = 0;
        while (System.nanoTime() - startNs < durationNs)
        {
            final long due = (System.nanoTime() - startNs) * rate / 1_000_000_000L;
            while (slot < due)
            {
                final Source source = sockets[(int)(slot % sockets.length)];
                final long turn = slot / sockets.length;
                slot++;
                final PendingToken pending = source.pending.poll();
                if (null != pending)
                {
                    final byte[] message = pending.message;
                    final int length = context.hello(AttackKind.HELLO_BYTES,
                        null == message ? genuine : (transcript) -> message, mac, pending.token,
                        pending.token.capacity(), pending.clientId);
                    totals.tokened++;
                    if (Mode.TOKENED == mode)
                    {
                        source.keepLast(context.buffer, length);
                    }
                    send(source, server, context.buffer, length, totals);
                }
                else if (Mode.HALF_OPEN == mode)
                {
                    final long clientId = context.nextClientId();
                    final byte[][] built = new byte[1][];
                    final int length = context.hello(AttackKind.HELLO_BYTES, (transcript) ->
                    {
                        built[0] = genuine.apply(transcript);
                        return built[0];
                    }, mac, null, 0, clientId);
                    source.remember(clientId, built[0]);
                    totals.fresh++;
                    send(source, server, context.buffer, length, totals);
                }
                else if (0 == source.lastLength || 0 == turn % freshEvery)
                {
                    final int length = context.hello(AttackKind.HELLO_BYTES, junkMessage, mac, null, 0, 0);
                    totals.fresh++;
                    send(source, server, context.buffer, length, totals);
                }
                else
                {
                    totals.repeated++;
                    send(source, server, source.last, source.lastLength, totals);
                }
            }
            for (final Source source : sockets)
            {
                receive(source, totals, Mode.HALF_OPEN == mode ? source.messages : null);
            }
            LockSupport.parkNanos(TICK_NS);
        }
        totals.floodNs = System.nanoTime() - startNs;
        totals.floodEndUnixS = WallClock.unixSeconds();
        final long settleNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
        while (System.nanoTime() - settleNs < 0)
        {
            for (final Source source : sockets)
            {
                receive(source, totals, null);
            }
            LockSupport.parkNanos(TICK_NS);
        }
    }

    private static void send(
        final Source source,
        final InetSocketAddress server,
        final DirectBuffer datagram,
        final int length,
        final Totals totals) throws IOException
    {
        final ByteBuffer bytes = source.sendView;
        bytes.clear();
        datagram.getBytes(0, bytes, length);
        bytes.flip();
        if (source.channel.send(bytes, server) > 0)
        {
            totals.answers.onSent(length);
        }
    }

    /**
     * Reads every answer waiting: a RETRY's token (with the Noise message its client id's hello carried, when known)
     * goes to the source's pending tokens, spent on the next datagram.
     */
    private static void receive(final Source source, final Totals totals, final Long2ObjectHashMap<byte[]> messages)
        throws IOException
    {
        while (true)
        {
            final ByteBuffer buffer = source.receiveBuffer;
            buffer.clear();
            if (null == source.channel.receive(buffer))
            {
                return;
            }
            final int length = buffer.position();
            final UnsafeBuffer view = source.receiveView;
            view.wrap(buffer, 0, length);
            if (totals.answers.onAnswer(view, length))
            {
                final int tokenLength = RetryAnswer.tokenLength(view, length);
                if (tokenLength <= 0)
                {
                    continue;
                }
                if (null == source.serverKey)
                {
                    source.serverKey = RetryAnswer.serverKey(view, length);
                }
                final long clientId = RetryAnswer.clientId(view);
                final byte[] message = null == messages ? null : messages.remove(clientId);
                if (null != messages && null == message)
                {
                    continue; // not a hello of this mode (the key request)
                }
                final byte[] token = new byte[tokenLength];
                view.getBytes(RetryPacketFlyweight.TOKEN_OFFSET, token);
                if (source.pending.size() >= MAX_PENDING_TOKENS)
                {
                    source.pending.poll();
                }
                source.pending.add(new PendingToken(clientId, new UnsafeBuffer(token), message));
            }
        }
    }

    /**
     * A token a RETRY brought, for the client id it is bound to, and the Noise message that client id's hello
     * carried (half-open), or null to make a new one (tokened).
     */
    private record PendingToken(long clientId, UnsafeBuffer token, byte[] message)
    {
    }

    /**
     * One source address: its socket, the tokens it has to spend, the Noise messages of the hellos it sent
     * (half-open) and the last tokened hello (tokened).
     */
    private static final class Source
    {
        final DatagramChannel channel;
        final ByteBuffer sendView = ByteBuffer.allocateDirect(2048);
        final ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(65_536);
        final UnsafeBuffer receiveView = new UnsafeBuffer(0, 0);
        final ArrayDeque<PendingToken> pending = new ArrayDeque<>();
        final Long2ObjectHashMap<byte[]> messages = new Long2ObjectHashMap<>();
        final UnsafeBuffer last = new UnsafeBuffer(new byte[2048]);
        int lastLength;
        byte[] serverKey;

        Source(final DatagramChannel channel)
        {
            this.channel = channel;
        }

        void remember(final long clientId, final byte[] message)
        {
            if (messages.size() >= MAX_REMEMBERED_MESSAGES)
            {
                messages.clear();
            }
            messages.put(clientId, message);
        }

        void keepLast(final DirectBuffer datagram, final int length)
        {
            last.putBytes(0, datagram, 0, length);
            lastLength = length;
        }
    }

    private static final class Totals
    {
        final AnswerTally answers = new AnswerTally();
        long floodNs;
        double floodStartUnixS;
        double floodEndUnixS;
        long fresh;
        long tokened;
        long repeated;
        long messagesBuilt;
    }

    /**
     * {@code half-open} / {@code tokened} to a {@link Mode}.
     */
    static final class ModeConverter implements CommandLine.ITypeConverter<Mode>
    {
        public Mode convert(final String value)
        {
            for (final Mode candidate : Mode.values())
            {
                if (candidate.name().toLowerCase().replace('_', '-').equals(value))
                {
                    return candidate;
                }
            }
            throw new CommandLine.TypeConversionException("'" + value + "': half-open or tokened");
        }
    }
}
