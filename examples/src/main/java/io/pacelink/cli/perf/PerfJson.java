package io.pacelink.cli.perf;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.pacelink.cli.JsonNumbers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * The JSON report of a test ({@code pacelink perf -J}), shaped like iperf3's so its tooling reads the common parts:
 * {@code start} (with {@code connected}, {@code timestamp}, {@code connecting_to} or {@code accepted_connection},
 * {@code test_start}), {@code intervals[].streams[]} and {@code intervals[].sum}, {@code end.streams[]} with
 * {@code sender} and {@code receiver}, {@code end.sum_sent} and {@code end.sum_received} (and the
 * {@code _bidir_reverse} sums of a {@code --bidir} test), {@code end.cpu_utilization_percent}, and {@code error}
 * when the test failed. Times are seconds, RTTs microseconds, rates bits per second, as in iperf3. What iperf3 does
 * not have is under {@code "pacelink"} keys. Written with jackson-core's streaming generator.
 */
final class PerfJson
{
    private static final JsonFactory FACTORY = JsonFactory.builder()
        .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
        .build();
    private static final String SOFTWARE = "pacelink 0.1.0";

    private final JsonGenerator json;

    private PerfJson(final JsonGenerator json)
    {
        this.json = json;
    }

    /**
     * @param report the test.
     * @param pretty true to indent, as iperf3 does; false for one line.
     * @return the JSON document.
     */
    static String write(final PerfReport report, final boolean pretty)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator generator = FACTORY.createGenerator(bytes))
        {
            if (pretty)
            {
                generator.useDefaultPrettyPrinter();
            }
            new PerfJson(generator).report(report);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * @return this build's name and version, as reported in {@code start.version} and the protocol's hellos.
     */
    static String software()
    {
        return SOFTWARE;
    }

    private void report(final PerfReport report) throws IOException
    {
        json.writeStartObject();
        start(report);
        json.writeArrayFieldStart("intervals");
        for (final List<IntervalSample> interval : report.intervals)
        {
            interval(report, interval);
        }
        json.writeEndArray();
        end(report);
        if (null != report.serverOutputText)
        {
            json.writeStringField("server_output_text", report.serverOutputText);
        }
        if (null != report.serverOutputJson)
        {
            json.writeFieldName("server_output_json");
            json.writeRawValue(report.serverOutputJson.toString());
        }
        if (null != report.error)
        {
            json.writeStringField("error", report.error);
        }
        json.writeEndObject();
    }

    private void start(final PerfReport report) throws IOException
    {
        final PerfParameters parameters = report.parameters;
        json.writeObjectFieldStart("start");
        json.writeArrayFieldStart("connected");
        for (final PerfReport.Connected stream : report.connected)
        {
            json.writeStartObject();
            json.writeNumberField("socket", stream.id());
            json.writeStringField("local_host", stream.local().getAddress().getHostAddress());
            json.writeNumberField("local_port", stream.local().getPort());
            json.writeStringField("remote_host", stream.remote().getAddress().getHostAddress());
            json.writeNumberField("remote_port", stream.remote().getPort());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeStringField("version", SOFTWARE);
        json.writeStringField("system_info", System.getProperty("os.name") + " " + System.getProperty("os.version") +
            " " + System.getProperty("os.arch") + ", Java " + System.getProperty("java.version"));
        json.writeObjectFieldStart("timestamp");
        json.writeStringField("time", DateTimeFormatter.RFC_1123_DATE_TIME.format(
            Instant.ofEpochMilli(report.timestampMs).atOffset(ZoneOffset.UTC)));
        json.writeNumberField("timesecs", report.timestampMs / 1000);
        json.writeEndObject();
        address(report.isClient ? "connecting_to" : "accepted_connection", report.peer);
        json.writeStringField("cookie", report.cookie);
        json.writeNumberField("target_bitrate", parameters.rateBitsPerSecond());
        json.writeObjectFieldStart("test_start");
        json.writeStringField("protocol", "PACELINK");
        json.writeNumberField("num_streams", parameters.streams());
        json.writeNumberField("blksize", parameters.messageBytes());
        if (0 == parameters.omitNs() % 1_000_000_000L)
        {
            // Whole seconds, as iperf3 writes its -O.
            json.writeNumberField("omit", parameters.omitNs() / 1_000_000_000L);
        }
        else
        {
            JsonNumbers.field(json, "omit", parameters.omitNs() / 1e9);
        }
        JsonNumbers.field(json, "duration", parameters.durationNs() / 1e9);
        json.writeNumberField("bytes", parameters.bytes());
        json.writeNumberField("blocks", 0);
        json.writeNumberField("reverse", parameters.reverse() ? 1 : 0);
        json.writeNumberField("tos", 0);
        json.writeNumberField("target_bitrate", parameters.rateBitsPerSecond());
        json.writeNumberField("bidir", parameters.bidir() ? 1 : 0);
        json.writeNumberField("fqrate", 0);
        JsonNumbers.field(json, "interval", parameters.intervalNs() / 1e9);
        json.writeEndObject();
        json.writeObjectFieldStart("pacelink");
        json.writeNumberField("protocol_version", PerfMessage.PROTOCOL_VERSION);
        stringOrNull("congestion_control", report.congestionControl);
        stringOrNull("remote_congestion_control", report.remoteCongestionControl);
        stringOrNull("qdisc", report.qdisc);
        stringOrNull("remote_qdisc", report.remoteQdisc);
        json.writeEndObject();
        json.writeEndObject();
    }

    private void interval(final PerfReport report, final List<IntervalSample> samples) throws IOException
    {
        json.writeStartObject();
        json.writeArrayFieldStart("streams");
        for (final IntervalSample sample : samples)
        {
            json.writeStartObject();
            json.writeNumberField("socket", sample.id());
            times(sample.startSeconds(), sample.endSeconds(), sample.bytes());
            final SenderSample state = sample.state();
            if (null != state)
            {
                json.writeNumberField("retransmits", state.retransmits());
                json.writeNumberField("snd_cwnd", state.cwndBytes());
                json.writeNumberField("rtt", state.smoothedRttNs() / 1000);
            }
            json.writeBooleanField("omitted", report.isOmitted(sample.startSeconds()));
            json.writeBooleanField("sender", sample.sender());
            if (null != state)
            {
                json.writeObjectFieldStart("pacelink");
                json.writeNumberField("pacing_rate_bps", state.pacingRateBitsPerSecond());
                json.writeNumberField("min_rtt_us", state.minRttNs() / 1000);
                json.writeNumberField("delivery_rate_bps", state.deliveryRateBitsPerSecond());
                json.writeEndObject();
            }
            json.writeEndObject();
        }
        json.writeEndArray();
        intervalSum("sum", report, samples, false);
        if (report.parameters.bidir())
        {
            intervalSum("sum_bidir_reverse", report, samples, true);
        }
        json.writeEndObject();
    }

    private void intervalSum(
        final String field, final PerfReport report, final List<IntervalSample> samples, final boolean reverse)
        throws IOException
    {
        final PerfReport.Sum sum = report.intervalSum(samples, reverse);
        if (null != sum)
        {
            json.writeObjectFieldStart(field);
            times(sum.startSeconds(), sum.endSeconds(), sum.bytes());
            if (sum.retransmits() >= 0)
            {
                json.writeNumberField("retransmits", sum.retransmits());
            }
            json.writeBooleanField("omitted", report.isOmitted(sum.startSeconds()));
            json.writeBooleanField("sender", sum.retransmits() >= 0);
            json.writeEndObject();
        }
    }

    private void end(final PerfReport report) throws IOException
    {
        json.writeObjectFieldStart("end");
        json.writeArrayFieldStart("streams");
        for (final PerfReport.StreamEnd stream : report.ends)
        {
            json.writeStartObject();
            streamTotals("sender", stream, stream.sender());
            streamTotals("receiver", stream, stream.receiver());
            json.writeEndObject();
        }
        json.writeEndArray();
        endSum("sum_sent", report, true, false);
        endSum("sum_received", report, false, false);
        if (report.parameters.bidir())
        {
            endSum("sum_sent_bidir_reverse", report, true, true);
            endSum("sum_received_bidir_reverse", report, false, true);
        }
        json.writeObjectFieldStart("cpu_utilization_percent");
        JsonNumbers.field(json, "host_total", report.cpuPercent);
        JsonNumbers.field(json, "remote_total", report.remoteCpuPercent);
        if (report.omitSeconds() > 0)
        {
            // iperf3's figures leave the omitted seconds out; these keep the whole test's, JVM warm-up included.
            JsonNumbers.field(json, "host_total_whole_test", report.wholeCpuPercent);
            JsonNumbers.field(json, "remote_total_whole_test", report.remoteWholeCpuPercent);
        }
        json.writeEndObject();
        final boolean localSends = report.localSends(false);
        stringOrNull("sender_tcp_congestion", localSends ? report.congestionControl : report.remoteCongestionControl);
        stringOrNull("receiver_tcp_congestion",
            localSends ? report.remoteCongestionControl : report.congestionControl);
        json.writeEndObject();
    }

    private void streamTotals(final String field, final PerfReport.StreamEnd stream, final StreamTotals totals)
        throws IOException
    {
        if (null == totals)
        {
            return;
        }
        json.writeObjectFieldStart(field);
        json.writeNumberField("socket", stream.id());
        times(totals.startSeconds(), totals.endSeconds(), totals.bytes());
        final SenderTotals senderTotals = totals.senderTotals();
        if (null != senderTotals)
        {
            json.writeNumberField("retransmits", senderTotals.retransmits());
            json.writeNumberField("max_snd_cwnd", senderTotals.maxCwndBytes());
            json.writeNumberField("max_rtt", senderTotals.maxRttNs() / 1000);
            json.writeNumberField("min_rtt", senderTotals.minRttNs() / 1000);
            json.writeNumberField("mean_rtt", senderTotals.meanRttNs() / 1000);
        }
        // iperf3's "sender": whether this end sent on the stream, in both halves.
        json.writeBooleanField("sender", stream.localSends());
        final EcnTotals ecn = totals.ecn();
        if (null != senderTotals || null != ecn)
        {
            json.writeObjectFieldStart("pacelink");
            if (null != senderTotals)
            {
                json.writeNumberField("packets_lost", senderTotals.packetsLost());
                json.writeBooleanField("measured_here", stream.localSends());
            }
            if (null != ecn)
            {
                json.writeObjectFieldStart("ecn");
                json.writeStringField("state", ecn.state());
                json.writeStringField("failure", ecn.failure());
                json.writeNumberField("marked_sent", ecn.markedSent());
                json.writeNumberField("ce_reported", ecn.ceReported());
                json.writeNumberField("ce_reactions", ecn.ceReactions());
                json.writeNumberField("ce_received", ecn.ceReceived());
                json.writeEndObject();
            }
            json.writeEndObject();
        }
        json.writeEndObject();
    }

    private void endSum(final String field, final PerfReport report, final boolean senders, final boolean reverse)
        throws IOException
    {
        final PerfReport.Sum sum = report.endSum(senders, reverse);
        if (null != sum)
        {
            json.writeObjectFieldStart(field);
            times(sum.startSeconds(), sum.endSeconds(), sum.bytes());
            if (sum.retransmits() >= 0)
            {
                json.writeNumberField("retransmits", sum.retransmits());
            }
            json.writeBooleanField("sender", report.localSends(reverse));
            json.writeEndObject();
        }
    }

    private void times(final double startSeconds, final double endSeconds, final long bytes) throws IOException
    {
        JsonNumbers.field(json, "start", startSeconds);
        JsonNumbers.field(json, "end", endSeconds);
        JsonNumbers.field(json, "seconds", endSeconds - startSeconds);
        json.writeNumberField("bytes", bytes);
        JsonNumbers.field(json, "bits_per_second", Rates.bitsPerSecond(bytes, endSeconds - startSeconds));
    }

    private void address(final String field, final InetSocketAddress address) throws IOException
    {
        json.writeObjectFieldStart(field);
        json.writeStringField("host", address.getHostString());
        json.writeNumberField("port", address.getPort());
        json.writeEndObject();
    }

    private void stringOrNull(final String field, final String value) throws IOException
    {
        if (null == value)
        {
            json.writeNullField(field);
        }
        else
        {
            json.writeStringField(field, value);
        }
    }
}
