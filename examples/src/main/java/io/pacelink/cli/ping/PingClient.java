package io.pacelink.cli.ping;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.pacelink.cli.net.TransportFailure;
import io.pacelink.transport.PacelinkContext;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * {@code pacelink ping}: request/response round trips over one established connection, one line per echo as ping
 * prints them, then a summary with percentiles from HdrHistogram (corrected for coordinated omission when the
 * requests follow an interval), or one JSON object.
 */
public final class PingClient
{
    /**
     * What to ping and how.
     *
     * @param name              the target as typed, for the output.
     * @param server            its address.
     * @param bind              where to bind.
     * @param rawUdp            bare UDP datagrams to {@code ping --echo --raw-udp} (the baseline) instead of Pacelink.
     * @param congestionControl the connection's controller.
     * @param count             requests to send, 0 until Ctrl-C.
     * @param intervalNs        time from one request to the next, 0 for each right after the previous echo.
     * @param sizeBytes         request (and echo) length, at least 8 (the sequence number).
     * @param warmup            requests sent first and not counted (warms the JIT and the caches).
     * @param warmupNs          and for at least this long (0: the count alone): the JIT compiles the hot path on its
     *                          own threads in wall time, not per request, so a warm-up long enough on an idle core
     *                          is too short beside two spinning threads.
     * @param busySpin          spin while waiting instead of backing off.
     * @param quiet             print only the summary.
     * @param json              print one JSON object instead of text.
     * @param timeoutNs         longest wait for one echo.
     * @param connectTimeoutNs  longest wait for the connection.
     */
    public record Options(
        String name,
        InetSocketAddress server,
        InetSocketAddress bind,
        boolean rawUdp,
        String congestionControl,
        long count,
        long intervalNs,
        int sizeBytes,
        int warmup,
        long warmupNs,
        boolean busySpin,
        boolean quiet,
        boolean json,
        long timeoutNs,
        long connectTimeoutNs,
        Consumer<PacelinkContext> security)
    {
    }

    private final Options options;
    private final PrintStream out;
    private final PingStatistics statistics;
    private long sent;
    private long warmupRequests;
    private long warmupElapsedNs;

    private PingClient(final Options options, final PrintStream out)
    {
        this.options = options;
        this.out = out;
        this.statistics = new PingStatistics(options.intervalNs());
    }

    /**
     * @param options       what to ping.
     * @param out           where the output goes.
     * @param stopRequested true ends the pings (Ctrl-C); the summary is still printed.
     * @return 0 if every request was echoed, 1 otherwise.
     * @throws TransportFailure if the server cannot be reached.
     */
    public static int run(final Options options, final PrintStream out, final BooleanSupplier stopRequested)
    {
        return new PingClient(options, out).ping(stopRequested);
    }

    private int ping(final BooleanSupplier stopRequested)
    {
        final UnsafeBuffer request = new UnsafeBuffer(ByteBuffer.allocateDirect(options.sizeBytes()));
        String failure = null;
        final long startNs;
        long elapsedNs = 0;
        final String transport;
        try (RoundTrip roundTrip = options.rawUdp() ?
            new UdpRoundTrip(options.server(), options.bind(), options.busySpin()) :
            new PacelinkRoundTrip(options.server(), options.bind(), options.congestionControl(), options.busySpin(),
                options.connectTimeoutNs(), options.security()))
        {
            transport = roundTrip.transport();
            if (!options.json())
            {
                out.printf(Locale.ROOT, "PING %s (%s): %d bytes per request%s%n", options.name(), transport,
                    options.sizeBytes(), options.busySpin() ? ", busy-spin" : "");
            }
            warmUp(roundTrip, request, stopRequested);
            startNs = System.nanoTime();
            try
            {
                for (long sequence = 1; (0 == options.count() || sequence <= options.count()) &&
                    !stopRequested.getAsBoolean(); sequence++)
                {
                    if (options.intervalNs() > 0 && sequence > 1)
                    {
                        roundTrip.idleUntil(startNs + (sequence - 1) * options.intervalNs());
                    }
                    request.putLong(0, sequence);
                    sent++;
                    final long rttNs = roundTrip.exchange(request, options.sizeBytes(), options.timeoutNs());
                    statistics.record(rttNs);
                    if (!options.quiet() && !options.json())
                    {
                        out.printf(Locale.ROOT, "%d bytes from %s: seq=%d time=%.3f ms%n",
                            options.sizeBytes(), options.name(), sequence, rttNs / 1e6);
                    }
                }
            }
            catch (final TransportFailure ex)
            {
                failure = ex.getMessage();
            }
            // As ping's "time": from the first request to the last echo (or failure), not the close that follows.
            elapsedNs = System.nanoTime() - startNs;
        }
        if (options.json())
        {
            out.println(json(transport, elapsedNs, failure));
        }
        else
        {
            summary(elapsedNs, failure);
        }
        return null == failure ? 0 : 1;
    }

    /**
     * Send the uncounted requests: at least {@code warmup} of them, and for at least {@code warmupNs}.
     */
    private void warmUp(final RoundTrip roundTrip, final UnsafeBuffer request, final BooleanSupplier stopRequested)
    {
        final long warmupStartNs = System.nanoTime();
        while (!stopRequested.getAsBoolean() && (warmupRequests < options.warmup() ||
            System.nanoTime() - warmupStartNs < options.warmupNs()))
        {
            warmupRequests++;
            request.putLong(0, -warmupRequests);
            roundTrip.exchange(request, options.sizeBytes(), options.timeoutNs());
        }
        warmupElapsedNs = System.nanoTime() - warmupStartNs;
    }

    private void summary(final long elapsedNs, final String failure)
    {
        final long replies = statistics.measured().getTotalCount();
        // iputils ping's summary (ping_common.c, finish()), so what reads ping's output reads this too; then the
        // percentiles, which ping does not print.
        out.printf(Locale.ROOT, "%n--- %s ping statistics ---%n", options.name());
        out.printf(Locale.ROOT, "%d packets transmitted, %d received, %s%% packet loss, time %.0fms%n",
            sent, replies, PingStatistics.lossPercent(sent, replies), elapsedNs / 1e6);
        if (replies > 0)
        {
            final Histogram measured = statistics.measured();
            out.printf(Locale.ROOT, "rtt min/avg/max/mdev = %s/%s/%s/%s ms%n", millis(measured.getMinValue()),
                millis(statistics.meanNs()), millis(measured.getMaxValue()), millis(statistics.mdevNs()));
            final Histogram corrected = statistics.corrected();
            out.println(percentileLine("rtt", corrected));
            if (corrected.getTotalCount() != replies)
            {
                out.println(percentileLine("rtt as measured", statistics.measured()));
                out.printf(Locale.ROOT, "(corrected for coordinated omission at the %.3f s interval: %d samples " +
                    "added for requests an echo delayed)%n", statistics.intervalNs() / 1e9,
                    corrected.getTotalCount() - replies);
            }
        }
        if (null != failure)
        {
            out.println("pacelink ping: " + failure);
        }
    }

    private static String percentileLine(final String label, final Histogram histogram)
    {
        final StringBuilder line = new StringBuilder(label).append(" min");
        for (final double percentile : PingStatistics.PERCENTILES)
        {
            line.append("/p").append(percentileName(percentile));
        }
        line.append("/max = ").append(millis(histogram.getMinValue()));
        for (final double percentile : PingStatistics.PERCENTILES)
        {
            line.append('/').append(millis(histogram.getValueAtPercentile(percentile)));
        }
        return line.append('/').append(millis(histogram.getMaxValue())).append(" ms").toString();
    }

    private String json(final String transport, final long elapsedNs, final String failure)
    {
        final StringWriter text = new StringWriter();
        try (JsonGenerator json = JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build()
            .createGenerator(text))
        {
            json.writeStartObject();
            json.writeStringField("target", options.name());
            json.writeStringField("transport", transport);
            json.writeNumberField("size_bytes", options.sizeBytes());
            json.writeNumberField("interval_s", options.intervalNs() / 1e9);
            json.writeBooleanField("busy_spin", options.busySpin());
            json.writeNumberField("warmup", warmupRequests);
            json.writeNumberField("warmup_s", warmupElapsedNs / 1e9);
            json.writeNumberField("requests", sent);
            json.writeNumberField("echoes", statistics.measured().getTotalCount());
            json.writeNumberField("loss_percent",
                new BigDecimal(PingStatistics.lossPercent(sent, statistics.measured().getTotalCount())));
            json.writeNumberField("rtt_us_mdev", Math.round(statistics.mdevNs()) / 1e3);
            json.writeNumberField("elapsed_s", elapsedNs / 1e9);
            histogram(json, "rtt_us", statistics.corrected());
            histogram(json, "rtt_us_measured", statistics.measured());
            if (null != failure)
            {
                json.writeStringField("error", failure);
            }
            json.writeEndObject();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return text.toString();
    }

    private static void histogram(final JsonGenerator json, final String field, final Histogram histogram)
        throws IOException
    {
        json.writeObjectFieldStart(field);
        json.writeNumberField("count", histogram.getTotalCount());
        if (histogram.getTotalCount() > 0)
        {
            json.writeNumberField("min", histogram.getMinValue() / 1e3);
            json.writeNumberField("mean", Math.round(histogram.getMean()) / 1e3);
            for (final double percentile : PingStatistics.PERCENTILES)
            {
                json.writeNumberField("p" + percentileName(percentile).replace('.', '_'),
                    histogram.getValueAtPercentile(percentile) / 1e3);
            }
            json.writeNumberField("max", histogram.getMaxValue() / 1e3);
        }
        json.writeEndObject();
    }

    private static String percentileName(final double percentile)
    {
        return percentile == Math.rint(percentile) ? Long.toString((long)percentile) : Double.toString(percentile);
    }

    private static String millis(final double ns)
    {
        return String.format(Locale.ROOT, "%.3f", ns / 1e6);
    }
}
