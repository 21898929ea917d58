package io.pacelink.cli.perf;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * The messages of the perf protocol (docs/tools.md, "The perf protocol"): one JSON object per transport message,
 * its kind in {@code "type"}. A client opens a control connection and says {@link Hello} with the test's
 * {@link PerfParameters}; the server answers {@link Accepted} (or {@link Failed}); the client opens the data
 * connections, each saying {@link Hello} with the test's cookie and its index; the server says {@link Start} when
 * all have joined; at the end the client says {@link Done} with what its senders offered, and the server answers
 * {@link Results} once its receivers have everything (or a drain timeout passed). A ping connection says
 * {@link Hello} with role {@code ping}, is {@link Accepted}, and from then on every message is echoed.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = PerfMessage.Hello.class, name = "hello"),
    @JsonSubTypes.Type(value = PerfMessage.Accepted.class, name = "accepted"),
    @JsonSubTypes.Type(value = PerfMessage.Start.class, name = "start"),
    @JsonSubTypes.Type(value = PerfMessage.Done.class, name = "done"),
    @JsonSubTypes.Type(value = PerfMessage.Results.class, name = "results"),
    @JsonSubTypes.Type(value = PerfMessage.Failed.class, name = "error")
})
public sealed interface PerfMessage
{
    /**
     * The protocol version this build speaks; a server refuses a hello of another version, saying which it speaks.
     */
    int PROTOCOL_VERSION = 1;

    /**
     * A connection's role, the first message on it: the test's control connection, one of its data connections,
     * or a ping.
     */
    enum Role
    {
        /**
         * Carries the test's parameters, start, end and results.
         */
        @JsonProperty("control")
        CONTROL,
        /**
         * Carries data one way.
         */
        @JsonProperty("stream")
        STREAM,
        /**
         * Every following message is echoed back.
         */
        @JsonProperty("ping")
        PING
    }

    /**
     * The first message on every connection a client opens.
     *
     * @param protocol   {@link #PROTOCOL_VERSION}.
     * @param role       what the connection is for.
     * @param cookie     the test's random id (control and stream), null for a ping.
     * @param stream     a data connection's index in the test, 0 otherwise.
     * @param parameters the test (control only).
     * @param software   the client's name and version.
     */
    record Hello(int protocol, Role role, String cookie, int stream, PerfParameters parameters, String software)
        implements PerfMessage
    {
    }

    /**
     * The server takes the test (or the ping).
     *
     * @param protocol {@link #PROTOCOL_VERSION}.
     * @param software the server's name and version.
     * @param qdisc    the server endpoint's packet scheduler: it paces what the server sends.
     */
    record Accepted(int protocol, String software, String qdisc) implements PerfMessage
    {
    }

    /**
     * Every data connection has joined: the test's time starts.
     */
    record Start() implements PerfMessage
    {
    }

    /**
     * The client is finished: its senders have stopped (the time is up, or every byte was offered and received), so
     * the server's stop too.
     *
     * @param streams the client's totals of its sending connections: the server's receivers expect their bytes.
     */
    record Done(List<RemoteStream> streams) implements PerfMessage
    {
    }

    /**
     * The server's side of the test: its totals for every data connection, and what it printed.
     *
     * @param streams          per data connection.
     * @param cpuPercent       the server process's CPU time over the test's wall time, in percent of one core, the
     *                         omitted seconds left out.
     * @param serverOutputText the server's text report of the test, if the client asked for it.
     * @param serverOutputJson the server's JSON report of the test, if the client asked for it.
     * @param wholeCpuPercent  the same over the whole test, omitted seconds included (null from a server that
     *                         predates {@code --omit}).
     */
    record Results(
        List<RemoteStream> streams,
        double cpuPercent,
        String serverOutputText,
        JsonNode serverOutputJson,
        Double wholeCpuPercent)
        implements PerfMessage
    {
    }

    /**
     * The test cannot go on.
     *
     * @param message why, for the user.
     */
    record Failed(String message) implements PerfMessage
    {
    }

    /**
     * The other end of one data connection.
     *
     * @param stream            its index in the test.
     * @param congestionControl the controller that end ran for it.
     * @param totals            that end's totals.
     * @param intervals         that end's interval figures, if asked for (the server's, for the client's plot).
     */
    record RemoteStream(int stream, String congestionControl, StreamTotals totals, List<IntervalSample> intervals)
    {
    }
}
