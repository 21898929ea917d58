package io.pacelink.cli.transfer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/**
 * {@code --json}: one JSON object per line (JSON Lines), written with jackson-core's streaming generator, each
 * with an {@code event}: {@code session}, {@code progress} (every second), {@code file} (one per entry, with its
 * SHA-256), {@code warning} and {@code summary}. Field names carry their units.
 */
final class JsonOutput implements TransferOutput
{
    private static final long PROGRESS_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    private final JsonGenerator json;
    private final String role;
    private final String peer;
    private long nextProgressNs = PROGRESS_INTERVAL_NS;

    /**
     * @param out  where to write; flushed after each line, never closed.
     * @param role "sender" or "receiver", written into every event.
     * @param peer the other side's address, written into every event (a receiver runs sessions side by side), or
     *             null.
     */
    JsonOutput(final OutputStream out, final String role, final String peer)
    {
        this.role = role;
        this.peer = peer;
        try
        {
            json = JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build().createGenerator(out);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        json.setRootValueSeparator(null);
    }

    public synchronized void listening(final String address, final String directory)
    {
        write(() ->
        {
            start("listening");
            json.writeStringField("address", address);
            json.writeStringField("directory", directory);
        });
    }

    public synchronized void session(final String description)
    {
        write(() ->
        {
            start("session");
            json.writeStringField("description", description);
        });
    }

    public synchronized void progress(final ProgressSnapshot progress)
    {
        if (progress.elapsedNs() < nextProgressNs)
        {
            return;
        }
        nextProgressNs = progress.elapsedNs() + PROGRESS_INTERVAL_NS;
        write(() ->
        {
            start("progress");
            json.writeNumberField("elapsed_ms", TimeUnit.NANOSECONDS.toMillis(progress.elapsedNs()));
            json.writeNumberField("bytes_done", progress.bytesDone());
            json.writeNumberField("bytes_total", progress.bytesTotal());
            json.writeNumberField("entries_done", progress.entriesDone());
            json.writeNumberField("entries_total", progress.entriesTotal());
            json.writeStringField("file", progress.currentPath());
            json.writeNumberField("file_bytes_done", progress.currentDone());
            json.writeNumberField("file_bytes_total", progress.currentSize());
            json.writeNumberField("rate_bps", Math.round(progress.bitsPerSecond()));
            json.writeNumberField("eta_s", progress.etaSeconds());
            if (ProgressSnapshot.NOT_SENDING != progress.retransmits())
            {
                json.writeNumberField("retransmits", progress.retransmits());
            }
        });
    }

    public synchronized void file(final FileOutcome outcome)
    {
        write(() ->
        {
            start("file");
            json.writeStringField("path", outcome.path());
            json.writeBooleanField("directory", outcome.directory());
            json.writeStringField("status", outcome.status().name().toLowerCase(java.util.Locale.ROOT));
            json.writeNumberField("size", outcome.size());
            json.writeNumberField("resumed_from", outcome.resumedFrom());
            json.writeNumberField("resent_bytes", outcome.resentBytes());
            json.writeStringField("sha256", outcome.sha256());
            json.writeStringField("reason", outcome.reason());
        });
    }

    public synchronized void warning(final String text)
    {
        write(() ->
        {
            start("warning");
            json.writeStringField("message", text);
        });
    }

    public synchronized void summary(final TransferSummary summary)
    {
        write(() ->
        {
            start("summary");
            json.writeBooleanField("succeeded", summary.succeeded());
            json.writeNumberField("entries", summary.entries());
            json.writeNumberField("entries_ok", summary.entriesOk());
            json.writeNumberField("entries_failed", summary.entriesFailed());
            json.writeNumberField("bytes_total", summary.bytesTotal());
            json.writeNumberField("bytes_moved", summary.bytesMoved());
            json.writeNumberField("bytes_resumed", summary.bytesResumed());
            json.writeNumberField("bytes_resent", summary.bytesResent());
            json.writeNumberField("elapsed_ms", TimeUnit.NANOSECONDS.toMillis(summary.elapsedNs()));
            json.writeNumberField("rate_bps", Math.round(summary.bitsPerSecond()));
            if (ProgressSnapshot.NOT_SENDING != summary.retransmits())
            {
                json.writeNumberField("retransmits", summary.retransmits());
            }
            json.writeNumberField("integrity_failures", summary.integrityFailures());
            json.writeStringField("failure", summary.failure());
        });
    }

    public synchronized void close()
    {
        try
        {
            json.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private void start(final String event) throws IOException
    {
        json.writeStartObject();
        json.writeStringField("event", event);
        json.writeStringField("role", role);
        if (null != peer)
        {
            json.writeStringField("peer", peer);
        }
    }

    private void write(final Fields fields)
    {
        try
        {
            fields.write();
            json.writeEndObject();
            json.writeRaw('\n');
            json.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @FunctionalInterface
    private interface Fields
    {
        void write() throws IOException;
    }
}
