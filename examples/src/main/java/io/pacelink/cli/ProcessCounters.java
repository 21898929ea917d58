package io.pacelink.cli;

import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stats.CounterKey;
import io.pacelink.transport.stats.CounterType;
import io.pacelink.transport.stats.CountersFileReader;
import org.agrona.concurrent.status.CountersReader;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One read of one process's counters file for {@code pacelink stat}: the owner (pid, description, liveness) and its
 * counters grouped the way they are shown: endpoint-wide, packet scheduler, relay, and per connection (transport and
 * controller counters together, with the controller's state named).
 *
 * @param path            the file.
 * @param pid             the owner's process id.
 * @param description     the owner's description, e.g. {@code endpoint /127.0.0.1:40123 cc=bbr scheduler=fq}.
 * @param liveness        whether the owner is alive.
 * @param heartbeatAgeMs  how old the owner's heartbeat is.
 * @param endpoint        endpoint-wide counters by name (empty for a relay).
 * @param schedulerLabel  the scheduler's label, e.g. {@code scheduler fq}, or empty.
 * @param scheduler       the packet scheduler's counters by name.
 * @param relay           a relay's counters by name (empty for an endpoint).
 * @param portLabel       the datagram port's label, e.g. {@code port batched (sendmmsg/recvmmsg, GSO on, GRO on)},
 *                        or empty.
 * @param port            the datagram port's counters by name (docs/io.md).
 * @param connections     the connections, in counter order.
 */
record ProcessCounters(
    Path path,
    long pid,
    String description,
    CountersFileReader.Liveness liveness,
    long heartbeatAgeMs,
    Map<String, Long> endpoint,
    String schedulerLabel,
    Map<String, Long> scheduler,
    Map<String, Long> relay,
    String portLabel,
    Map<String, Long> port,
    List<Connection> connections)
{
    /**
     * One connection's counters.
     *
     * @param connectionId      the local connection id.
     * @param description       e.g. {@code conn 1f2e... /127.0.0.1:51234 bbr}.
     * @param state             the connection's state name ({@link ConnectionState}).
     * @param controllerState   the controller's state name, e.g. {@code PROBE_BW}, or {@code ?}.
     * @param transport         transport counters by name ({@link ConnectionCounters}).
     * @param controller        the controller's own counters by name.
     */
    record Connection(
        long connectionId,
        String description,
        String state,
        String controllerState,
        Map<String, Long> transport,
        Map<String, Long> controller)
    {
        /**
         * @param name a transport counter's name.
         * @return its value, or 0 if absent.
         */
        long value(final String name)
        {
            return transport.getOrDefault(name, 0L);
        }

        /**
         * @return the peer's address as {@code ip:port}, from the description the transport gave the connection's
         * counters ({@code conn <id> <peer> <controller>}).
         */
        String peer()
        {
            final String[] words = description.split(" ");
            return words.length >= 4 ? address(words[words.length - 2]) : "?";
        }

        /**
         * @return the controller this connection runs (which may differ from its endpoint's default: a client
         * names one per connection, and a server runs what the client asked for).
         */
        String congestionControl()
        {
            final String[] words = description.split(" ");
            return words.length >= 4 ? words[words.length - 1] : "?";
        }
    }

    /**
     * @return the local address ({@code ip:port}) of the endpoint or relay, from its description
     * ({@code endpoint /127.0.0.1:40123 cc=bbr ...}, {@code netem /127.0.0.1:9000 -> ...}), or {@code ?}.
     */
    String localAddress()
    {
        final String[] words = description.split(" ");
        return words.length >= 2 ? address(words[1]) : "?";
    }

    /**
     * @return true for a {@code pacelink netem} relay's file.
     */
    boolean isRelay()
    {
        return description.startsWith("netem ");
    }

    /**
     * @param text an {@code InetSocketAddress}'s text: {@code host/1.2.3.4:5} or {@code /1.2.3.4:5}.
     * @return {@code 1.2.3.4:5}.
     */
    static String address(final String text)
    {
        return text.substring(text.indexOf('/') + 1);
    }

    /**
     * @param address {@code ip:port}, {@code [v6]:port} or {@code v6:port}.
     * @return the port, or -1.
     */
    static int port(final String address)
    {
        final int colon = address.lastIndexOf(':');
        try
        {
            return colon < 0 ? -1 : Integer.parseInt(address.substring(colon + 1));
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    /**
     * @param file     an open counters file.
     * @param liveness its owner's liveness, judged at {@code nowMs}.
     * @param nowMs    the current time, epoch ms.
     * @return what it holds now.
     */
    static ProcessCounters read(
        final CountersFileReader file, final CountersFileReader.Liveness liveness, final long nowMs)
    {
        final Map<String, Long> endpoint = new LinkedHashMap<>();
        final Map<String, Long> scheduler = new LinkedHashMap<>();
        final Map<String, Long> relay = new LinkedHashMap<>();
        final Map<String, Long> port = new LinkedHashMap<>();
        final String[] portLabel = { "" };
        final Map<Long, ConnectionBuilder> connections = new LinkedHashMap<>();
        final String[] schedulerLabel = { "" };
        final CountersReader counters = file.countersReader();
        counters.forEach((counterId, typeId, keyBuffer, label) ->
        {
            final String name = CounterKey.name(keyBuffer);
            final long value = counters.getCounterValue(counterId);
            switch (typeId)
            {
                case CounterType.SYSTEM:
                    endpoint.put(name, value);
                    break;

                case CounterType.SCHEDULER:
                    schedulerLabel[0] = owner(label, name);
                    scheduler.put(name, value);
                    break;

                case CounterType.RELAY:
                    relay.put(name, value);
                    break;

                case CounterType.PORT:
                    portLabel[0] = owner(label, name);
                    port.put(name, value);
                    break;

                case CounterType.CONNECTION:
                case CounterType.CONTROLLER:
                    connections.computeIfAbsent(
                        CounterKey.ownerId(keyBuffer), (id) -> new ConnectionBuilder(id, owner(label, name)))
                        .add(typeId, name, value, label);
                    break;

                default:
                    // Another library's counter in the same file: not ours to show.
            }
        });

        final List<Connection> connectionList = new ArrayList<>(connections.size());
        connections.values().forEach((builder) -> connectionList.add(builder.build()));
        return new ProcessCounters(
            file.path(),
            file.pid(),
            file.description(),
            liveness,
            nowMs - file.heartbeatMs(),
            endpoint,
            schedulerLabel[0],
            scheduler,
            relay,
            portLabel[0],
            port,
            connectionList);
    }

    /**
     * @return the label without its {@code ": name"} suffix: what the counter belongs to.
     */
    private static String owner(final String label, final String name)
    {
        final int end = label.lastIndexOf(": " + name);
        return end >= 0 ? label.substring(0, end) : label;
    }

    private static final class ConnectionBuilder
    {
        private final long connectionId;
        private final String description;
        private final Map<String, Long> transport = new LinkedHashMap<>();
        private final Map<String, Long> controller = new LinkedHashMap<>();
        private String controllerState = "?";

        ConnectionBuilder(final long connectionId, final String description)
        {
            this.connectionId = connectionId;
            this.description = description;
        }

        void add(final int typeId, final String name, final long value, final String label)
        {
            if (CounterType.CONNECTION == typeId)
            {
                transport.put(name, value);
            }
            else if (ConnectionCounters.CONTROLLER_STATE_NAME.equals(name))
            {
                final List<String> names = ConnectionCounters.controllerStateNames(label);
                controllerState = value >= 0 && value < names.size() ? names.get((int)value) : "?";
            }
            else
            {
                controller.put(name, value);
            }
        }

        Connection build()
        {
            // A transport counter is registered when it first holds a value other than 0 (ConnectionCounters): the
            // ones absent are 0, listed in the transport's order so every connection shows the same names.
            final Map<String, Long> all = new LinkedHashMap<>();
            for (int i = 0; i < ConnectionCounters.COUNT; i++)
            {
                final String name = ConnectionCounters.name(i);
                all.put(name, transport.getOrDefault(name, 0L));
            }
            all.putAll(transport);
            transport.clear();
            transport.putAll(all);
            final long stateOrdinal = transport.getOrDefault(ConnectionCounters.name(ConnectionCounters.STATE), -1L);
            final ConnectionState[] states = ConnectionState.values();
            final String state = stateOrdinal >= 0 && stateOrdinal < states.length ?
                states[(int)stateOrdinal].name() : "?";
            return new Connection(connectionId, description, state, controllerState, transport, controller);
        }
    }
}
