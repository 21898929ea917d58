package io.pacelink.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.pacelink.link.PathSpec;
import io.pacelink.sim.results.LatencySummary;
import io.pacelink.sim.results.LinkReport;
import io.pacelink.sim.scenario.AgentWakes;
import io.pacelink.sim.scenario.ConnectionEnd;
import io.pacelink.sim.scenario.FlowOutcome;
import io.pacelink.sim.scenario.ScenarioResult;
import io.pacelink.transport.ConnectionOutcome;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code pacelink sim} prints about a finished scenario: a table (per-flow goodput, bytes, losses and RTT
 * percentiles, then fairness, bottleneck utilisation and queueing delay, and how fast the simulation ran) or one JSON
 * object with the same figures.
 *
 * @param path        the path the scenario ran on.
 * @param senderQdisc the senders' packet scheduler.
 * @param seed        its seed.
 * @param result what it produced.
 * @param wallNs how long the simulation took in real time (measured by the command line: simulator code never
 *               reads a clock).
 * @param setupWallNs of that, how long the set-up took (its hosts and endpoints built, before the first event).
 * @param wakes  when the endpoints' duty cycles ran ({@code --wakes}).
 */
record ScenarioReport(
    PathSpec.Pair path,
    String senderQdisc,
    long seed,
    ScenarioResult result,
    long wallNs,
    long setupWallNs,
    AgentWakes wakes)
{
    private static final JsonFactory JSON = new JsonFactory();

    /**
     * @return simulated seconds per wall-clock second.
     */
    double speedup()
    {
        return result.durationNs() / (double)Math.max(1, wallNs);
    }

    /**
     * @return data packets the flows sent per wall-clock second of simulation.
     */
    double packetsPerWallSecond()
    {
        long packets = 0;
        for (final FlowOutcome flow : result.flows())
        {
            packets += flow.packetsSent();
        }
        return packets * 1e9 / Math.max(1, wallNs);
    }

    /**
     * @param out where the table goes.
     */
    void printTable(final PrintStream out)
    {
        out.printf(Locale.ROOT, "path: %s%nsender scheduler: %s%n%s simulated, seed %d%s%n%n",
            path, senderQdisc, Units.seconds(result.durationNs()), seed,
            result.isComplete() ? "" : " (interrupted: the figures cover the simulated time run so far)");
        out.printf(Locale.ROOT, "%4s %-8s %-15s %16s %13s %13s %7s %9s %8s %8s %8s  %s%n",
            "flow", "cc", "window", "goodput", "sent", "retransmitted", "lost", "RTT min", "p50", "p95", "p99 ms",
            "connection");
        for (final FlowOutcome flow : result.flows())
        {
            final LatencySummary rtt = flow.rtt();
            out.printf(Locale.ROOT, "%4d %-8s %-15s %16s %13s %13s %7d %9s %8s %8s %8s  %s%n",
                flow.index(),
                flow.congestionControl(),
                Units.seconds(flow.startNs()).replace(" s", "") + "-" + Units.seconds(flow.endNs()),
                Units.bitsPerSecond(flow.goodputBitsPerSecond()),
                Units.bytes(flow.sentBytes()),
                Units.bytes(flow.retransmittedBytes()),
                flow.lostPackets(),
                Units.millis(rtt.minNs()),
                Units.millis(rtt.p50Ns()),
                Units.millis(rtt.p95Ns()),
                Units.millis(rtt.p99Ns()),
                connectionColumn(flow));
        }
        for (final FlowOutcome flow : result.flows())
        {
            printClosed(out, flow, "sender", flow.sender());
            printClosed(out, flow, "receiver", flow.receiver());
        }
        final LinkReport forward = result.forward();
        out.printf(Locale.ROOT, "%njain index %.3f   link utilisation %s   queue delay p50 %s ms p95 %s ms   " +
            "drops: %d queue, %d random%s%s%n",
            result.jainIndex(),
            forward.hasCapacity() ? String.format(Locale.ROOT, "%.1f %%", forward.utilisation() * 100) :
                "n/a (no rate)",
            Units.millis(forward.queueDelay().p50Ns()),
            Units.millis(forward.queueDelay().p95Ns()),
            forward.queueDropPackets(),
            forward.randomLossPackets(),
            path.forward().policer().isPresent() ? ", " + forward.policedPackets() + " policed" : "",
            forward.queueMarkPackets() > 0 ? "   CE marks: " + forward.queueMarkPackets() : "");
        if (null != result.ping())
        {
            out.printf(Locale.ROOT, "ping RTT p50 %s ms p99 %s ms max %s ms%n",
                Units.millis(result.ping().p50Ns()), Units.millis(result.ping().p99Ns()),
                Units.millis(result.ping().maxNs()));
        }
        out.printf(Locale.ROOT, "sim speed: %s simulated in %s wall, %.1fx real time, %.0f packets/s%s%n",
            Units.seconds(result.durationNs()), Units.seconds(wallNs), speedup(), packetsPerWallSecond(),
            " (--wakes " + wakes.name().toLowerCase(Locale.ROOT) + ")");
    }

    /**
     * @return the lines that say which flows failed (a connection closed abnormally), one per flow, e.g. "flow 0
     * (bbr) failed: the receiver's connection closed at 3.214 s: a protocol violation: ..."; empty if none did.
     */
    List<String> failureLines()
    {
        return result.failedFlows().stream().map((flow) -> String.format(Locale.ROOT, "flow %d (%s) failed: %s",
            flow.index(), flow.congestionControl(), flow.failure())).toList();
    }

    /**
     * The table's connection column: "open" while both of the flow's connections are (the normal end of a simulated
     * flow), "closed" if they closed gracefully, "FAILED" if either closed abnormally, "not connected" if the
     * sender never started.
     */
    private static String connectionColumn(final FlowOutcome flow)
    {
        if (flow.isFailed())
        {
            return "FAILED";
        }
        if (!flow.sender().isPresent())
        {
            return "not connected";
        }
        return flow.sender().isClosed() || flow.receiver().isClosed() ? "closed" : "open";
    }

    private static void printClosed(
        final PrintStream out, final FlowOutcome flow, final String side, final ConnectionEnd end)
    {
        if (end.isClosed())
        {
            out.printf(Locale.ROOT, "flow %d %s: %s%s%n", flow.index(), side, end.isAbnormal() ? "FAILED, " : "",
                end.describe());
        }
    }

    /**
     * @return one JSON object: {@code flows} (per flow {@code cc}, {@code goodput_bps}, {@code sent_bytes},
     * {@code retransmitted_bytes}, {@code lost_packets}, {@code rtt_ms}, {@code controller_counters},
     * {@code outcome} ({@code ok} or {@code failed}, with {@code failure} saying why), {@code connections} (the
     * sender's and the receiver's: state, close reason, when, what was delivered) and more),
     * {@code jain_index}, {@code link_utilization} (left out when the path has no rate), {@code queue_delay_ms},
     * optionally {@code ping_rtt_ms}, {@code warnings} (what in the scenario leaves flows with almost nothing), and
     * the run's figures. Written with jackson-core's streaming generator.
     */
    String toJson()
    {
        final StringWriter text = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(text))
        {
            writeJson(json);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return text.toString();
    }

    private void writeJson(final JsonGenerator json) throws IOException
    {
        json.writeStartObject();
        json.writeObjectFieldStart("path");
        json.writeStringField("forward", path.forward().toString());
        json.writeStringField("reverse", path.reverse().toString());
        json.writeEndObject();
        JsonNumbers.field(json, "duration_s", result.durationNs() / 1e9);
        json.writeBooleanField("complete", result.isComplete());
        json.writeNumberField("seed", seed);
        json.writeArrayFieldStart("warnings");
        for (final String warning : result.warnings())
        {
            json.writeString(warning);
        }
        json.writeEndArray();

        json.writeArrayFieldStart("flows");
        for (final FlowOutcome flow : result.flows())
        {
            json.writeStartObject();
            json.writeNumberField("index", flow.index());
            json.writeStringField("cc", flow.congestionControl());
            JsonNumbers.field(json, "start_s", flow.startNs() / 1e9);
            JsonNumbers.field(json, "end_s", flow.endNs() / 1e9);
            JsonNumbers.field(json, "goodput_bps", flow.goodputBitsPerSecond());
            json.writeNumberField("delivered_bytes", flow.deliveredBytes());
            json.writeNumberField("sent_bytes", flow.sentBytes());
            json.writeNumberField("sent_packets", flow.packetsSent());
            json.writeNumberField("retransmitted_bytes", flow.retransmittedBytes());
            json.writeNumberField("retransmitted_packets", flow.retransmittedPackets());
            json.writeNumberField("lost_packets", flow.lostPackets());
            json.writeNumberField("spurious_losses", flow.spuriousLosses());
            latency(json, "rtt_ms", flow.rtt());
            json.writeObjectFieldStart("controller_counters");
            for (final Map.Entry<String, Long> counter : flow.controllerCounters().entrySet())
            {
                json.writeNumberField(counter.getKey(), counter.getValue());
            }
            json.writeEndObject();
            json.writeStringField("outcome", flow.isFailed() ? "failed" : "ok");
            if (flow.isFailed())
            {
                json.writeStringField("failure", flow.failure());
            }
            json.writeObjectFieldStart("connections");
            connection(json, "sender", flow.sender());
            connection(json, "receiver", flow.receiver());
            json.writeEndObject();
            json.writeEndObject();
        }
        json.writeEndArray();

        final LinkReport forward = result.forward();
        JsonNumbers.field(json, "jain_index", result.jainIndex());
        if (forward.hasCapacity())
        {
            JsonNumbers.field(json, "link_utilization", forward.utilisation());
        }
        latency(json, "queue_delay_ms", forward.queueDelay());
        json.writeObjectFieldStart("forward_link");
        json.writeNumberField("served_bytes", forward.servedBytes());
        json.writeNumberField("random_loss_packets", forward.randomLossPackets());
        json.writeNumberField("policed_packets", forward.policedPackets());
        json.writeNumberField("queue_drop_packets", forward.queueDropPackets());
        json.writeNumberField("queue_mark_packets", forward.queueMarkPackets());
        json.writeNumberField("offered_packets", forward.offeredPackets());
        json.writeNumberField("reordered_packets", forward.reorderedPackets());
        json.writeEndObject();
        if (null != result.ping())
        {
            latency(json, "ping_rtt_ms", result.ping());
        }
        json.writeObjectFieldStart("run");
        json.writeStringField("sender_qdisc", senderQdisc);
        // Always named: the CLI's default (coalesced) is not the library's (exact), and results differ between them.
        json.writeStringField("wakes", wakes.name().toLowerCase(Locale.ROOT));
        json.writeStringField("trace_hash", Long.toHexString(result.traceHash()));
        json.writeNumberField("events", result.eventsFired());
        JsonNumbers.field(json, "wall_s", wallNs / 1e9);
        JsonNumbers.field(json, "setup_wall_s", setupWallNs / 1e9);
        JsonNumbers.field(json, "speedup", speedup());
        JsonNumbers.field(json, "packets_per_wall_s", packetsPerWallSecond());
        json.writeEndObject();
        json.writeEndObject();
    }

    /**
     * One connection's end: {@code state} ({@code open}, {@code closed}, {@code failed}, {@code absent}), and once
     * closed {@code close_reason} (a {@code CloseReason} name), {@code detail}, {@code closed_at_s},
     * {@code delivered}, {@code bytes_offered} and {@code bytes_delivered}.
     */
    private static void connection(final JsonGenerator json, final String name, final ConnectionEnd end)
        throws IOException
    {
        json.writeObjectFieldStart(name);
        final String state = !end.isPresent() ? "absent" : end.isAbnormal() ? "failed" :
            end.isClosed() ? "closed" : "open";
        json.writeStringField("state", state);
        if (end.isClosed())
        {
            final ConnectionOutcome outcome = end.outcome();
            json.writeStringField("close_reason", outcome.reason().name());
            json.writeStringField("description", outcome.reason().description());
            json.writeStringField("detail", outcome.detail());
            JsonNumbers.field(json, "closed_at_s", end.closedAtNs() / 1e9);
            json.writeBooleanField("delivered", outcome.isDelivered());
            json.writeNumberField("bytes_offered", outcome.bytesOffered());
            json.writeNumberField("bytes_delivered", outcome.bytesDelivered());
        }
        json.writeEndObject();
    }

    private static void latency(final JsonGenerator json, final String name, final LatencySummary summary)
        throws IOException
    {
        json.writeObjectFieldStart(name);
        json.writeNumberField("samples", summary.count());
        JsonNumbers.field(json, "min", summary.minNs() / 1e6);
        JsonNumbers.field(json, "p50", summary.p50Ns() / 1e6);
        JsonNumbers.field(json, "p95", summary.p95Ns() / 1e6);
        JsonNumbers.field(json, "p99", summary.p99Ns() / 1e6);
        JsonNumbers.field(json, "max", summary.maxNs() / 1e6);
        json.writeEndObject();
    }
}
