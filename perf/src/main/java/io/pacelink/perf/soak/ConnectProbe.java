package io.pacelink.perf.soak;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionFailedException;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.keys.KeyFiles;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

/**
 * The flood acceptance's legitimate client ({@code perf/scripts/flood.sh}): from one endpoint of its own, a new secure
 * connection to the server every 100–250 ms (uniformly random, so it samples every phase of the flood), each timed
 * from its {@code connect} call to CONNECTED, held open for {@code --hold-rtts} round trips (as a client that uses its
 * connection: the server's NEW_TOKEN arrives a round trip after the connect) and then closed. Each connect time is
 * also given in round-trip times of the path ({@code --rtt-ms}, the relay's delay both ways): a connect needs one
 * round trip, or two when the server answers with a RETRY (it does under a flood to a hello without a token), and a
 * hello lost or dropped costs a retransmission timeout on top. One endpoint for all, as a returning client: after its
 * first connection it holds the server's NEW_TOKEN token (docs/security.md, "Admission"), which each later hello
 * carries, so the first connect is the only one a flood can send through a RETRY — it is reported apart ({@code
 * first_*}) beside the later ones ({@code returning_*}). With {@code --first-contacts} every connect is a new
 * client's instead (an endpoint of its own, no token), as the server sees one it never met: under a flood from
 * another host it should still take one round trip. It prints one JSON object: every attempt (when, how long, in
 * RTTs, or why it failed), the count, median and maximum, and the wall-clock time its attempts' times count from
 * ({@code start_unix_s}, so the script can place each connect before, under or after the flood); the script judges
 * them.
 */
@Command(
    name = "connect-probe",
    mixinStandardHelpOptions = true,
    description = "Connect to a secure server again and again for a time, timing each connect; write a JSON summary.")
public final class ConnectProbe implements Callable<Integer>
{
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Option(names = "--target", required = true, description = "The server's (or its relay's) HOST:PORT.")
    private String target;

    @Option(names = "--peer-key", required = true, description = "The server's public key file (its host.pub).")
    private Path peerKey;

    @Option(names = "--duration", defaultValue = "60", description = "Seconds of connects (default " +
        "${DEFAULT-VALUE}); with --until-flood-ends the longest the probe runs.")
    private double durationSeconds;

    @Option(names = "--until-flood-ends", paramLabel = "ATTACK_SUMMARY", description = "Connect until the attacker " +
        "whose summary file this is (HelloFlood --summary, written as it ends) has ended, then --after-flood s more " +
        "from its last datagram: the probe follows the flood's own span, however late its start.")
    private Path attackSummary;

    @Option(names = "--after-flood", defaultValue = "2", description = "Seconds of connects after the flood's last " +
        "datagram with --until-flood-ends (default ${DEFAULT-VALUE}).")
    private double afterFloodSeconds;

    @Option(names = "--rtt-ms", required = true, description = "The path's round-trip time in ms: the unit of the " +
        "figures.")
    private double rttMs;

    @Option(names = "--interval-ms", defaultValue = "100-250",
        description = "Pause between connects, MIN-MAX ms, uniformly random (default ${DEFAULT-VALUE}).")
    private String intervalMs;

    @Option(names = "--timeout", defaultValue = "5", description = "Seconds a connect may take before it counts as " +
        "failed (default ${DEFAULT-VALUE}).")
    private double timeoutSeconds;

    @Option(names = "--hold-rtts", defaultValue = "3", description = "Round-trip times each connection stays open " +
        "before it is closed (default ${DEFAULT-VALUE}): the server's NEW_TOKEN reaches the client a round trip " +
        "after the connect, so a connection dropped at once never gets it; 0 closes at once.")
    private double holdRtts;

    @Option(names = "--first-contacts", description = "Every connect from a new endpoint of its own (a new client " +
        "each time, holding no token: the server's first contact with it) instead of one returning endpoint.")
    private boolean firstContacts;

    @Option(names = "--priming-ms", defaultValue = "0", description = "How long its first endpoint's launch primes " +
        "the handshake path (PacelinkContext.handshakePrimingNs), as a client that connects again and again may; 0, " +
        "the default, launches it as a client is by default: unprimed, its first connects on a cold JIT.")
    private int primingMs;

    @Option(names = "--summary", description = "Write the JSON summary here too (always printed).")
    private Path summary;

    /**
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new ConnectProbe()).execute(args));
    }

    public Integer call() throws IOException, InterruptedException
    {
        final int dash = intervalMs.indexOf('-');
        final int minMs = Integer.parseInt(dash < 0 ? intervalMs : intervalMs.substring(0, dash));
        final int maxMs = Integer.parseInt(dash < 0 ? intervalMs : intervalMs.substring(dash + 1));
        final int colon = target.lastIndexOf(':');
        if (minMs < 0 || maxMs < minMs || rttMs <= 0 || durationSeconds <= 0 || colon <= 0 || holdRtts < 0 ||
            afterFloodSeconds < 0)
        {
            throw new CommandLine.ParameterException(new CommandLine(this),
                "--interval-ms MIN-MAX with 0 <= MIN <= MAX, --rtt-ms and --duration positive, --hold-rtts and " +
                "--after-flood not negative, --target HOST:PORT");
        }
        final FloodSchedule schedule = null == attackSummary ? null : new FloodSchedule(attackSummary,
            afterFloodSeconds);
        final InetSocketAddress server = new InetSocketAddress(target.substring(0, colon),
            Integer.parseInt(target.substring(colon + 1)));
        final PacelinkContext context = new PacelinkContext().bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .acceptConnections(false).countersFile(!firstContacts)
            .handshakePrimingNs(TimeUnit.MILLISECONDS.toNanos(primingMs));
        context.security().serverPublicKey(KeyFiles.readPublicKey(peerKey));
        final SplittableRandom random = new SplittableRandom(7);
        final ArrayNode attempts = MAPPER.createArrayNode();
        final List<Double> connectedMs = new ArrayList<>();
        int failed = 0;
        double startUnixS = 0;
        final long timeoutNs = (long)(timeoutSeconds * 1e9);
        Endpoint endpoint = Endpoint.launch(context);
        try
        {
            final long startNs = System.nanoTime();
            startUnixS = WallClock.unixSeconds();
            final long durationNs = (long)(durationSeconds * 1e9);
            while (System.nanoTime() - startNs < durationNs &&
                (null == schedule || !schedule.isOver(WallClock.unixSeconds())))
            {
                if (firstContacts && !attempts.isEmpty())
                {
                    // A new client: its own endpoint (port, and no NEW_TOKEN kept), launched before the clock starts.
                    endpoint.close();
                    endpoint = Endpoint.launch(context);
                }
                final long calledNs = System.nanoTime();
                final ObjectNode attempt = attempts.addObject();
                attempt.put("at_s", Math.round((calledNs - startNs) / 1e6) / 1e3);
                try
                {
                    final Connection connection = endpoint.connect(server, null, timeoutNs);
                    final double ms = (System.nanoTime() - calledNs) / 1e6;
                    connectedMs.add(ms);
                    attempt.put("ms", Math.round(ms * 100) / 100.0).put("rtts", Math.round(ms / rttMs * 100) / 100.0);
                    // A returning client used its connection for a while: long enough for the server's token.
                    Thread.sleep((long)(holdRtts * rttMs));
                    connection.closeNow();
                }
                catch (final ConnectionFailedException ex)
                {
                    failed++;
                    attempt.put("failed", ex.getMessage());
                }
                Thread.sleep(minMs + random.nextInt(maxMs - minMs + 1));
            }
        }
        finally
        {
            endpoint.close();
        }
        final List<Double> sorted = new ArrayList<>(connectedMs);
        Collections.sort(sorted);
        final ObjectNode json = MAPPER.createObjectNode();
        json.put("rtt_ms", rttMs);
        // The wall-clock time of at_s 0, so that each connect can be placed before, under or after the flood.
        json.put("start_unix_s", startUnixS);
        // Why it stopped: after the flood (--until-flood-ends) or at --duration.
        json.put("stopped_after_flood", null != schedule && !Double.isNaN(schedule.stopUnixS()) &&
            WallClock.unixSeconds() >= schedule.stopUnixS());
        json.put("attempts", attempts.size());
        json.put("connected", connectedMs.size());
        json.put("failed", failed);
        json.put("p50_ms", sorted.isEmpty() ? 0.0 : sorted.get(sorted.size() / 2));
        json.put("max_ms", sorted.isEmpty() ? 0.0 : sorted.get(sorted.size() - 1));
        json.put("p50_rtts", sorted.isEmpty() ? 0.0 : sorted.get(sorted.size() / 2) / rttMs);
        json.put("max_rtts", sorted.isEmpty() ? 0.0 : sorted.get(sorted.size() - 1) / rttMs);
        // The first connect has no token; the later ones carry the one the connection before them brought.
        final JsonNode first = attempts.isEmpty() ? null : attempts.get(0);
        json.put("first_ms", null == first || !first.has("ms") ? 0.0 : first.get("ms").asDouble());
        json.put("first_rtts", null == first || !first.has("rtts") ? 0.0 : first.get("rtts").asDouble());
        final List<Double> returning = new ArrayList<>();
        for (int i = 1; i < attempts.size(); i++)
        {
            if (attempts.get(i).has("ms"))
            {
                returning.add(attempts.get(i).get("ms").asDouble());
            }
        }
        Collections.sort(returning);
        json.put("returning_connected", returning.size());
        json.put("returning_p50_rtts", returning.isEmpty() ? 0.0 : returning.get(returning.size() / 2) / rttMs);
        json.put("returning_max_rtts", returning.isEmpty() ? 0.0 : returning.get(returning.size() - 1) / rttMs);
        json.set("attempt_list", attempts);
        final String text = MAPPER.writeValueAsString(json);
        System.out.println(text);
        if (null != summary)
        {
            Files.writeString(summary, text + "\n");
        }
        return 0;
    }
}
