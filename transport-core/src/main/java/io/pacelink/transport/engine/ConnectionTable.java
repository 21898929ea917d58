package io.pacelink.transport.engine;

import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.schedule.PacketScheduler;
import io.pacelink.transport.stats.EndpointCounters;
import org.agrona.collections.Long2ObjectHashMap;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.function.LongPredicate;

/**
 * The endpoint's connections: in the order the duty cycle serves them, by local id, and a server's by its client's
 * id; and what each one's entry and exit change elsewhere — the scheduler's flows, the endpoint's counters, the
 * memory its buffers hold, and the port's restriction to a lone peer. Agent thread only.
 */
final class ConnectionTable
{
    private final Long2ObjectHashMap<ConnectionCore> byId = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<ConnectionCore> serverByClientId = new Long2ObjectHashMap<>();
    private final ArrayList<ConnectionCore> connections = new ArrayList<>();
    private final LongPredicate isIdInUse = byId::containsKey;
    private final PacketScheduler<ConnectionCore> scheduler;
    private final EndpointCounters counters;
    private final DatagramPort port;
    private final boolean acceptsConnections;
    private InetSocketAddress restrictedPeer;

    /**
     * @param scheduler          gets each connection as a flow.
     * @param counters           counts connections opened and closed.
     * @param port               restricted to the lone peer of an endpoint that accepts no connections.
     * @param acceptsConnections true for an endpoint that accepts connections: its port is never restricted.
     */
    ConnectionTable(
        final PacketScheduler<ConnectionCore> scheduler,
        final EndpointCounters counters,
        final DatagramPort port,
        final boolean acceptsConnections)
    {
        this.scheduler = scheduler;
        this.counters = counters;
        this.port = port;
        this.acceptsConnections = acceptsConnections;
    }

    /**
     * @return connections not yet removed, handshakes included.
     */
    int size()
    {
        return connections.size();
    }

    /**
     * @param index from 0 to {@link #size()} − 1.
     * @return the connection there.
     */
    ConnectionCore get(final int index)
    {
        return connections.get(index);
    }

    /**
     * @return the connection with that local id, or null.
     */
    ConnectionCore byId(final long connectionId)
    {
        return byId.get(connectionId);
    }

    /**
     * @return the server connection a client's hello with that id created, or null.
     */
    ConnectionCore serverByClientId(final long clientId)
    {
        return serverByClientId.get(clientId);
    }

    /**
     * @return whether an id already names a connection.
     */
    LongPredicate isIdInUse()
    {
        return isIdInUse;
    }

    /**
     * A new connection joins: served from the next duty cycle on.
     */
    void add(final ConnectionCore connection)
    {
        connections.add(connection);
        byId.put(connection.localId(), connection);
        scheduler.addFlow(connection);
        counters.connectionsOpened().incrementRelease();
        restrictPortToSinglePeer();
    }

    /**
     * @param clientId   the client's id from its hello.
     * @param connection the server connection the hello created, already added.
     */
    void indexByClientId(final long clientId, final ConnectionCore connection)
    {
        serverByClientId.put(clientId, connection);
    }

    /**
     * A closed connection leaves: the last one takes its place, its counters and memory are returned.
     */
    void remove(final int index)
    {
        final ConnectionCore connection = connections.get(index);
        final int last = connections.size() - 1;
        connections.set(index, connections.get(last));
        connections.remove(last);
        byId.remove(connection.localId());
        if (!connection.isClient())
        {
            serverByClientId.remove(connection.remoteId());
        }
        scheduler.removeFlow(connection);
        counters.connectionsClosed().incrementRelease();
        connection.releaseMemory();
        ConnectionFactory.retire(connection.handle());
        restrictPortToSinglePeer();
    }

    /**
     * Forget every connection (the endpoint closed them).
     */
    void clear()
    {
        connections.clear();
        byId.clear();
        serverByClientId.clear();
    }

    /**
     * An endpoint that accepts no connections and talks to one peer restricts its port to that peer, so the
     * operating system tells it when the peer's port is unreachable (ICMP errors reach connected UDP sockets only);
     * with peers at several addresses, or none, the port is open to anyone again.
     */
    private void restrictPortToSinglePeer()
    {
        if (acceptsConnections)
        {
            return;
        }
        InetSocketAddress peer = connections.isEmpty() ? null : connections.get(0).remoteAddress();
        for (int i = 1, size = connections.size(); i < size && null != peer; i++)
        {
            if (!peer.equals(connections.get(i).remoteAddress()))
            {
                peer = null;
            }
        }
        if (null == peer ? null != restrictedPeer : !peer.equals(restrictedPeer))
        {
            restrictedPeer = port.restrictTo(peer) ? peer : null;
        }
    }
}
