package io.pacelink.perf.soak;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The soak's attacker ({@code perf/scripts/soak.sh}): from one raw UDP socket on loopback, every {@link AttackKind}
 * in turn toward each target at a steady rate, for a time, while honest clients use the same servers. It reads every
 * answer (a RETRY's token is echoed by {@link AttackKind#BAD_MAC_HELLO_WITH_TOKEN}) and at the end writes what it
 * sent and received as one JSON object: answers must stay far below what was sent (no amplification).
 */
@Command(
    name = "attack-mix",
    mixinStandardHelpOptions = true,
    description = "Send the soak's attack mix to servers on loopback for a time; write a JSON summary.")
public final class AttackMix implements Callable<Integer>
{
    private static final long TICK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    @Option(names = "--target", required = true, description = "A server's HOST:PORT (repeatable).")
    private List<String> targets;

    @Option(names = "--rate", defaultValue = "300", description = "Datagrams per second in all (default " +
        "${DEFAULT-VALUE}).")
    private int rate;

    @Option(names = "--duration", defaultValue = "60", description = "Seconds (default ${DEFAULT-VALUE}).")
    private double durationSeconds;

    @Option(names = "--seed", defaultValue = "1",
        description = "Seed of the random choices (default ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--summary", description = "Write the JSON summary here too (always printed).")
    private Path summary;

    /**
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new AttackMix()).execute(args));
    }

    public Integer call() throws IOException
    {
        if (rate < 1 || rate > 100_000 || durationSeconds <= 0)
        {
            throw new IllegalArgumentException("--rate must be 1..100000 and --duration positive");
        }
        final List<Target> targetList = new ArrayList<>();
        for (final String target : targets)
        {
            final int colon = target.lastIndexOf(':');
            if (colon <= 0)
            {
                throw new IllegalArgumentException("--target HOST:PORT, got " + target);
            }
            targetList.add(new Target(new InetSocketAddress(target.substring(0, colon),
                Integer.parseInt(target.substring(colon + 1)))));
        }
        final Map<AttackKind, Long> sentByKind = new EnumMap<>(AttackKind.class);
        final AnswerTally totals = new AnswerTally();
        final UnsafeBuffer sendBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        final ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(65_536);
        final SplittableRandom random = new SplittableRandom(seed);
        final List<AttackKind.Context> contexts = new ArrayList<>();
        for (final Target target : targetList)
        {
            contexts.add(new AttackKind.Context(sendBuffer, random, target));
        }
        try (DatagramChannel channel = DatagramChannel.open())
        {
            channel.bind(new InetSocketAddress("127.0.0.1", 0));
            channel.configureBlocking(false);
            final long startNs = System.nanoTime();
            final long durationNs = (long)(durationSeconds * 1e9);
            long sent = 0;
            int next = 0;
            while (System.nanoTime() - startNs < durationNs)
            {
                final long dueNs = System.nanoTime() - startNs;
                final long due = dueNs * rate / 1_000_000_000L;
                while (sent < due)
                {
                    final AttackKind kind = AttackKind.values()[next % AttackKind.values().length];
                    final int targetIndex = (next / AttackKind.values().length) % targetList.size();
                    final Target target = targetList.get(targetIndex);
                    next++;
                    final int length = kind.write(contexts.get(targetIndex));
                    final ByteBuffer datagram = sendBuffer.byteBuffer().duplicate();
                    datagram.clear().limit(length);
                    if (channel.send(datagram, target.address) > 0)
                    {
                        totals.onSent(length);
                        sentByKind.merge(kind, 1L, Long::sum);
                    }
                    sent++;
                }
                drain(channel, receiveBuffer, targetList, totals);
                LockSupport.parkNanos(TICK_NS);
            }
            final long settleNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            while (System.nanoTime() < settleNs)
            {
                drain(channel, receiveBuffer, targetList, totals);
                LockSupport.parkNanos(TICK_NS);
            }
        }
        final ObjectNode json = totals.toJson();
        final ObjectNode kinds = json.putObject("sent_by_kind");
        sentByKind.forEach((kind, count) -> kinds.put(kind.name().toLowerCase(), count));
        AnswerTally.emit(json, summary);
        return 0;
    }

    private static void drain(
        final DatagramChannel channel, final ByteBuffer buffer, final List<Target> targets, final AnswerTally totals)
        throws IOException
    {
        while (true)
        {
            buffer.clear();
            final InetSocketAddress source = (InetSocketAddress)channel.receive(buffer);
            if (null == source)
            {
                return;
            }
            final int length = buffer.position();
            final UnsafeBuffer view = new UnsafeBuffer(buffer, 0, length);
            if (totals.onAnswer(view, length))
            {
                for (final Target target : targets)
                {
                    if (target.address.equals(source))
                    {
                        target.remember(view, length);
                    }
                }
            }
        }
    }

    /**
     * A server attacked, and the last RETRY token it sent (bound to the client id the RETRY was addressed to).
     */
    private static final class Target implements AttackKind.TokenMemory
    {
        final InetSocketAddress address;
        private final UnsafeBuffer token = new UnsafeBuffer(new byte[RetryPacketFlyweight.MAX_TOKEN_LENGTH]);
        private int tokenLength;
        private long clientId;

        Target(final InetSocketAddress address)
        {
            this.address = address;
        }

        void remember(final DirectBuffer retry, final int length)
        {
            final int candidate = RetryAnswer.tokenLength(retry, length);
            if (candidate > 0)
            {
                token.putBytes(0, retry, RetryPacketFlyweight.TOKEN_OFFSET, candidate);
                tokenLength = candidate;
                clientId = RetryAnswer.clientId(retry);
            }
        }

        public boolean isKnown()
        {
            return tokenLength > 0;
        }

        public DirectBuffer buffer()
        {
            return token;
        }

        public int length()
        {
            return tokenLength;
        }

        public long clientId()
        {
            return clientId;
        }
    }
}
