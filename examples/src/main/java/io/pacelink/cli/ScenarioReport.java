package io.pacelink.cli;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.results.LatencySummary;
import io.pacelink.sim.results.LinkReport;
import io.pacelink.sim.scenario.FlowOutcome;
import io.pacelink.sim.scenario.ScenarioResult;

import java.io.PrintStream;
import java.util.Locale;

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
 */
record ScenarioReport(PathSpec.Pair path, String senderQdisc, long seed, ScenarioResult result, long wallNs)
{
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
        out.printf(Locale.ROOT, "%4s %-8s %-15s %16s %13s %13s %7s %9s %8s %8s %8s%n",
            "flow", "cc", "window", "goodput", "sent", "retransmitted", "lost", "RTT min", "p50", "p95", "p99 ms");
        for (final FlowOutcome flow : result.flows())
        {
            final LatencySummary rtt = flow.rtt();
            out.printf(Locale.ROOT, "%4d %-8s %-15s %16s %13s %13s %7d %9s %8s %8s %8s%n",
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
                Units.millis(rtt.p99Ns()));
        }
        final LinkReport forward = result.forward();
        out.printf(Locale.ROOT, "%njain index %.3f   link utilisation %s   queue delay p50 %s ms p95 %s ms   " +
            "drops: %d queue, %d random%s%n",
            result.jainIndex(),
            forward.hasCapacity() ? String.format(Locale.ROOT, "%.1f %%", forward.utilisation() * 100) :
                "n/a (no rate)",
            Units.millis(forward.queueDelay().p50Ns()),
            Units.millis(forward.queueDelay().p95Ns()),
            forward.queueDropPackets(),
            forward.randomLossPackets(),
            path.forward().policer().isPresent() ? ", " + forward.policedPackets() + " policed" : "");
        if (null != result.ping())
        {
            out.printf(Locale.ROOT, "ping RTT p50 %s ms p99 %s ms max %s ms%n",
                Units.millis(result.ping().p50Ns()), Units.millis(result.ping().p99Ns()),
                Units.millis(result.ping().maxNs()));
        }
        out.printf(Locale.ROOT, "sim speed: %s simulated in %s wall, %.1fx real time, %.0f packets/s%n",
            Units.seconds(result.durationNs()), Units.seconds(wallNs), speedup(), packetsPerWallSecond());
    }

    /**
     * @return one JSON object: {@code flows} (per flow {@code cc}, {@code goodput_bps}, {@code sent_bytes},
     * {@code retransmitted_bytes}, {@code lost_packets}, {@code rtt_ms}, {@code controller_counters} and more),
     * {@code jain_index}, {@code link_utilization} (left out when the path has no rate), {@code queue_delay_ms},
     * optionally {@code ping_rtt_ms}, and the run's figures.
     */
    String toJson()
    {
        final JsonWriter json = new JsonWriter().beginObject();
        json.beginObject("path")
            .field("forward", path.forward().toString())
            .field("reverse", path.reverse().toString())
            .endObject();
        json.field("duration_s", result.durationNs() / 1e9).field("complete", result.isComplete())
            .field("seed", seed);

        json.beginArray("flows");
        for (final FlowOutcome flow : result.flows())
        {
            json.beginObject()
                .field("index", flow.index())
                .field("cc", flow.congestionControl())
                .field("start_s", flow.startNs() / 1e9)
                .field("end_s", flow.endNs() / 1e9)
                .field("goodput_bps", flow.goodputBitsPerSecond())
                .field("delivered_bytes", flow.deliveredBytes())
                .field("sent_bytes", flow.sentBytes())
                .field("sent_packets", flow.packetsSent())
                .field("retransmitted_bytes", flow.retransmittedBytes())
                .field("retransmitted_packets", flow.retransmittedPackets())
                .field("lost_packets", flow.lostPackets())
                .field("spurious_losses", flow.spuriousLosses());
            latency(json, "rtt_ms", flow.rtt());
            json.beginObject("controller_counters");
            flow.controllerCounters().forEach(json::field);
            json.endObject().endObject();
        }
        json.endArray();

        final LinkReport forward = result.forward();
        json.field("jain_index", result.jainIndex());
        if (forward.hasCapacity())
        {
            json.field("link_utilization", forward.utilisation());
        }
        latency(json, "queue_delay_ms", forward.queueDelay());
        json.beginObject("forward_link")
            .field("served_bytes", forward.servedBytes())
            .field("random_loss_packets", forward.randomLossPackets())
            .field("policed_packets", forward.policedPackets())
            .field("queue_drop_packets", forward.queueDropPackets())
            .field("reordered_packets", forward.reorderedPackets())
            .endObject();
        if (null != result.ping())
        {
            latency(json, "ping_rtt_ms", result.ping());
        }
        json.beginObject("run")
            .field("sender_qdisc", senderQdisc)
            .field("trace_hash", Long.toHexString(result.traceHash()))
            .field("events", result.eventsFired())
            .field("wall_s", wallNs / 1e9)
            .field("speedup", speedup())
            .field("packets_per_wall_s", packetsPerWallSecond())
            .endObject();
        return json.endObject().toString();
    }

    private static void latency(final JsonWriter json, final String name, final LatencySummary summary)
    {
        json.beginObject(name)
            .field("samples", summary.count())
            .field("min", summary.minNs() / 1e6)
            .field("p50", summary.p50Ns() / 1e6)
            .field("p95", summary.p95Ns() / 1e6)
            .field("p99", summary.p99Ns() / 1e6)
            .field("max", summary.maxNs() / 1e6)
            .endObject();
    }
}
