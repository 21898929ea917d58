package io.pacelink.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code --json} output of {@code pacelink stat}: one JSON object per refresh, on one line, written with
 * jackson-core's streaming generator.
 * <pre>{@code
 * {"time_ms":..., "directory":"...", "processes":[{"file":"...", "pid":..., "description":"...",
 *   "status":"alive|not_responding|stale", "heartbeat_age_ms":..., "endpoint":{name: value, ...},
 *   "scheduler":{"label":"scheduler fq", "counters":{...}}, "relay":{...},
 *   "port":{"label":"port batched (sendmmsg/recvmmsg, GSO on, GRO on)", "counters":{...}},
 *   "connections":[{"id":"1f2e...", "description":"...", "state":"OPEN", "cc_state":"PROBE_BW",
 *     "counters":{"cwnd-bytes":..., ...}, "controller":{"bbr-max-bw-bytes-per-second":..., ...}}]}]}
 * }</pre>
 * Counter names are the ones the counters file carries, with their units ({@code -bytes}, {@code -ns},
 * {@code -Bps} for bytes per second).
 */
final class StatJson
{
    private final JsonGenerator json;
    private final StatFilter filter;

    /**
     * @param out    where; flushed after each object, never closed.
     * @param filter the processes and connections to write.
     * @throws IOException if the generator cannot be created.
     */
    StatJson(final OutputStream out, final StatFilter filter) throws IOException
    {
        this.filter = filter;
        json = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build()
            .createGenerator(out);
        // One object per line, so the output can be read line by line (jq, JSON Lines).
        json.setRootValueSeparator(null);
    }

    /**
     * @param nowMs     the refresh's time, epoch ms.
     * @param directory the counters directory.
     * @param processes what was read.
     * @throws IOException if writing fails.
     */
    void write(final long nowMs, final Path directory, final List<ProcessCounters> processes) throws IOException
    {
        json.writeStartObject();
        json.writeNumberField("time_ms", nowMs);
        json.writeStringField("directory", directory.toString());
        json.writeArrayFieldStart("processes");
        for (final ProcessCounters process : processes)
        {
            if (filter.selects(process))
            {
                writeProcess(process);
            }
        }
        json.writeEndArray();
        json.writeEndObject();
        json.writeRaw('\n');
        json.flush();
    }

    private void writeProcess(final ProcessCounters process) throws IOException
    {
        json.writeStartObject();
        json.writeStringField("file", process.path().toString());
        json.writeNumberField("pid", process.pid());
        json.writeStringField("description", process.description());
        json.writeStringField("status", status(process));
        json.writeNumberField("heartbeat_age_ms", process.heartbeatAgeMs());
        writeCounters("endpoint", process.endpoint());
        if (!process.scheduler().isEmpty())
        {
            json.writeObjectFieldStart("scheduler");
            json.writeStringField("label", process.schedulerLabel());
            writeCounters("counters", process.scheduler());
            json.writeEndObject();
        }
        writeCounters("relay", process.relay());
        if (!process.port().isEmpty())
        {
            json.writeObjectFieldStart("port");
            json.writeStringField("label", process.portLabel());
            writeCounters("counters", process.port());
            json.writeEndObject();
        }
        json.writeArrayFieldStart("connections");
        for (final ProcessCounters.Connection connection : process.connections())
        {
            if (!filter.selects(process, connection))
            {
                continue;
            }
            json.writeStartObject();
            json.writeStringField("id", Long.toHexString(connection.connectionId()));
            json.writeStringField("description", connection.description());
            json.writeStringField("peer", connection.peer());
            json.writeStringField("cc", connection.congestionControl());
            json.writeStringField("state", connection.state());
            json.writeStringField("cc_state", connection.controllerState());
            writeCounters("counters", connection.transport());
            writeCounters("controller", connection.controller());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private static String status(final ProcessCounters process)
    {
        switch (process.liveness())
        {
            case DEAD:
                return "stale";

            case NOT_RESPONDING:
                return "not_responding";

            default:
                return process.liveness().name().toLowerCase(Locale.ROOT);
        }
    }

    private void writeCounters(final String field, final Map<String, Long> counters) throws IOException
    {
        json.writeObjectFieldStart(field);
        for (final Map.Entry<String, Long> counter : counters.entrySet())
        {
            json.writeNumberField(counter.getKey(), counter.getValue());
        }
        json.writeEndObject();
    }
}
