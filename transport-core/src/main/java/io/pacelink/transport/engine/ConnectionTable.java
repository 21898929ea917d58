package io.pacelink.transport.engine;

import io.pacelink.transport.admission.HandshakeBudget;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.schedule.PacketScheduler;
import io.pacelink.transport.stats.EndpointCounters;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2IntHashMap;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.function.LongPredicate;

/**
 * The endpoint's connections: in the order the duty cycle serves them, by local id, and a server's by its client's
 * id; which of them the next duty cycle serves (those a datagram, a due timer or their application marked); and what
 * each one's entry and exit change elsewhere — the scheduler's flows, the deadline heap, the endpoint's counters, the
 * memory its buffers hold, and the port's restriction to a lone peer. Agent thread only.
 * <p>
 * A duty cycle serves the marked connections in the order of their places in the table, from the last to the first,
 * as a pass over the whole table would (a closed connection's place is taken by the last one, which was already
 * served): the scheduler sees the same activations in the same order, whatever the number of idle connections.
 */
final class ConnectionTable
{
    private final Long2ObjectHashMap<ConnectionCore> byId = new Long2ObjectHashMap<>();
    /**
     * The connection {@link #byId(long)} found last, asked first: consecutive datagrams of a batch are mostly for
     * the same connection (a bulk transfer's, and every one at an endpoint with one peer), and the map's probe of
     * its arrays is a cache miss more per datagram. Forgotten when the connection leaves the table.
     */
    private ConnectionCore lastFoundById;
    private final Long2ObjectHashMap<ConnectionCore> serverByClientId = new Long2ObjectHashMap<>();
    private final ArrayList<ConnectionCore> connections = new ArrayList<>();
    private final ArrayList<ConnectionCore> marked = new ArrayList<>();
    private final LongPredicate isIdInUse = byId::containsKey;
    private final PeerResetTokens peerResetTokens = new PeerResetTokens();
    private final ConnectionDeadlines deadlines;
    private int[] servedPlaces = new int[16];
    private ConnectionCore[] served = new ConnectionCore[16];
    private int servedCount;
    private long cycle;
    private final PacketScheduler<ConnectionCore> scheduler;
    private final EndpointCounters counters;
    private final DatagramPort port;
    private final boolean acceptsConnections;
    private final HandshakeBudget handshakeBudget;
    private final Object2IntHashMap<InetSocketAddress> connectionsByPeer = new Object2IntHashMap<>(0);
    private InetSocketAddress restrictedPeer;
    private int establishedCount;

    /**
     * @param scheduler          gets each connection as a flow.
     * @param counters           counts connections opened and closed.
     * @param port               restricted to the lone peer of an endpoint that accepts no connections.
     * @param acceptsConnections true for an endpoint that accepts connections: its port is never restricted.
     * @param deadlines          holds each connection's timer.
     * @param handshakeBudget    holds the server's unconfirmed handshakes: a connection that leaves frees its slot.
     */
    ConnectionTable(
        final PacketScheduler<ConnectionCore> scheduler,
        final EndpointCounters counters,
        final DatagramPort port,
        final boolean acceptsConnections,
        final ConnectionDeadlines deadlines,
        final HandshakeBudget handshakeBudget)
    {
        this.deadlines = deadlines;
        this.handshakeBudget = handshakeBudget;
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
     * A datagram's connection: marked for this duty cycle.
     *
     * @return the connection with that local id, or null.
     */
    ConnectionCore byId(final long connectionId)
    {
        ConnectionCore connection = lastFoundById;
        if (null == connection || connection.localId() != connectionId)
        {
            connection = byId.get(connectionId);
            if (null == connection)
            {
                return null;
            }
            lastFoundById = connection;
        }
        mark(connection);
        return connection;
    }

    /**
     * @return the connection with that local id, or null; not marked (for traces).
     */
    ConnectionCore find(final long connectionId)
    {
        return byId.get(connectionId);
    }

    /**
     * @return the stateless reset tokens of the client connections in the table.
     */
    PeerResetTokens peerResetTokens()
    {
        return peerResetTokens;
    }

    /**
     * A hello's connection: marked for this duty cycle.
     *
     * @return the server connection a client's hello with that id created, or null.
     */
    ConnectionCore serverByClientId(final long clientId)
    {
        final ConnectionCore connection = serverByClientId.get(clientId);
        if (null != connection)
        {
            mark(connection);
        }
        return connection;
    }

    // ---------------------------------------------------------------- which connections a duty cycle serves

    /**
     * The next duty cycle serves this connection (this one's, if it has not yet taken the marked ones).
     */
    void mark(final ConnectionCore connection)
    {
        if (!connection.isMarked() && connection.tableIndex() >= 0)
        {
            connection.isMarked(true);
            marked.add(connection);
        }
    }

    /**
     * Mark every connection (the application's signals were lost to a full queue).
     */
    void markAll()
    {
        for (int i = 0, size = connections.size(); i < size; i++)
        {
            mark(connections.get(i));
        }
    }

    /**
     * @return connections marked so far, in the order they were marked: {@link #takeMarkedFrom(int)} takes those
     * marked after this count.
     */
    int markedCount()
    {
        return marked.size();
    }

    /**
     * Take the marked connections as this duty cycle's: {@link #served(int)} from 0 gives them from the last place
     * in the table to the first.
     *
     * @return how many.
     */
    int takeMarked()
    {
        return takeMarkedFrom(0);
    }

    /**
     * Take the connections marked after the first {@code first} as the ones served now, ordered as
     * {@link #takeMarked()} orders them; the first {@code first} stay marked.
     *
     * @param first how many of the marked connections, in the order they were marked, stay marked.
     * @return how many were taken.
     */
    int takeMarkedFrom(final int first)
    {
        cycle++;
        final int size = marked.size();
        ensureServedCapacity(size - first);
        int count = 0;
        for (int i = first; i < size; i++)
        {
            final ConnectionCore connection = marked.get(i);
            connection.isMarked(false);
            if (connection.tableIndex() >= 0)
            {
                connection.servedCycle(cycle);
                servedPlaces[count++] = connection.tableIndex();
            }
        }
        // From the last down while more than the first stay, not a counted loop: as a counted loop down to `first`
        // it failed HotSpot C2's loop-limit predicate mid-transfer (a loop_limit_check deoptimisation), which threw
        // away the compiled code of the whole duty cycle this is inlined into and compiled it again.
        while (marked.size() > first)
        {
            marked.remove(marked.size() - 1);
        }
        sortPlaces(count);
        for (int i = 0; i < count; i++)
        {
            served[i] = connections.get(servedPlaces[count - 1 - i]);
        }
        servedCount = count;
        return count;
    }

    /**
     * Unmark, of the connections marked after the first {@code first}, those that leave their service to their
     * answer's send ({@link ConnectionCore#leavesServiceToAnswer}), and hand them to {@code deferred}; the others
     * stay marked, in their order.
     *
     * @param first    how many of the marked connections, in the order they were marked, are not considered.
     * @param nowNs    the duty cycle's time.
     * @param deferred gets each connection unmarked.
     */
    void unmarkLeftToAnswer(final int first, final long nowNs, final ArrayList<ConnectionCore> deferred)
    {
        final int size = marked.size();
        int kept = first;
        for (int i = first; i < size; i++)
        {
            final ConnectionCore connection = marked.get(i);
            if (connection.tableIndex() >= 0 && connection.leavesServiceToAnswer(nowNs))
            {
                connection.isMarked(false);
                deferred.add(connection);
            }
            else
            {
                marked.set(kept++, connection);
            }
        }
        while (marked.size() > kept)
        {
            marked.remove(marked.size() - 1);
        }
    }

    /**
     * Sort the first {@code count} served places. No places or one are in order already: a busy-spinning endpoint
     * takes its marked connections every duty cycle, nearly always none or one, and {@code Arrays.sort}'s way into
     * {@code DualPivotQuicksort} cost it about 5 % of its thread even for an empty range (perf/FINDINGS.md, branch
     * lat14).
     */
    private void sortPlaces(final int count)
    {
        if (count > 1)
        {
            Arrays.sort(servedPlaces, 0, count);
        }
    }

    /**
     * After the connections were served: those still in the table, in the order of their places from the first (the
     * order a pass over the table would meet them in the send phase).
     *
     * @return how many.
     */
    int orderServedByPlace()
    {
        int count = 0;
        for (int i = 0; i < servedCount; i++)
        {
            final int place = served[i].tableIndex();
            if (place >= 0)
            {
                servedPlaces[count++] = place;
            }
        }
        sortPlaces(count);
        for (int i = 0; i < count; i++)
        {
            served[i] = connections.get(servedPlaces[i]);
        }
        for (int i = count; i < servedCount; i++)
        {
            served[i] = null;
        }
        servedCount = count;
        return count;
    }

    /**
     * A connection this duty cycle did not serve sent a packet (the scheduler held it from an earlier one): it is
     * served to the end of the cycle.
     */
    void addServed(final ConnectionCore connection)
    {
        if (connection.servedCycle() != cycle && connection.tableIndex() >= 0)
        {
            connection.servedCycle(cycle);
            ensureServedCapacity(servedCount + 1);
            served[servedCount++] = connection;
        }
    }

    /**
     * @param index from 0 to the count {@link #takeMarked()} or {@link #orderServedByPlace()} answered.
     * @return that served connection.
     */
    ConnectionCore served(final int index)
    {
        return served[index];
    }

    /**
     * @return connections served in this duty cycle.
     */
    int servedCount()
    {
        return servedCount;
    }

    private void ensureServedCapacity(final int count)
    {
        if (count > served.length)
        {
            final int length = Math.max(count, served.length * 2);
            served = Arrays.copyOf(served, length);
            servedPlaces = Arrays.copyOf(servedPlaces, length);
        }
    }

    /**
     * @return connections counted against {@code maxConnections} until they leave: the client's, and the server's
     * once confirmed. Unconfirmed handshakes have their own budget.
     */
    int establishedCount()
    {
        return establishedCount;
    }

    /**
     * A server connection's client confirmed it: from now on it counts against {@code maxConnections}.
     */
    void onConfirmed(final ConnectionCore connection)
    {
        handshakeBudget.remove(connection.localId());
        establishedCount++;
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
        connection.tableIndex(connections.size());
        connections.add(connection);
        mark(connection);
        deadlines.schedule(connection, connection.nextDeadlineNs());
        byId.put(connection.localId(), connection);
        scheduler.addFlow(connection);
        counters.connectionsOpened().incrementRelease();
        if (connection.isHandshakeConfirmed())
        {
            establishedCount++;
        }
        countPeer(connection, 1);
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
     * A closed connection leaves: the last one takes its place, its timer, counters and memory are returned.
     */
    void remove(final ConnectionCore connection)
    {
        final int index = connection.tableIndex();
        final int last = connections.size() - 1;
        final ConnectionCore moved = connections.get(last);
        connections.set(index, moved);
        moved.tableIndex(index);
        connections.remove(last);
        connection.tableIndex(-1);
        deadlines.cancel(connection);
        if (lastFoundById == connection)
        {
            lastFoundById = null;
        }
        byId.remove(connection.localId());
        peerResetTokens.remove(connection);
        if (!connection.isClient())
        {
            // A newer handshake of the same client (after this one was dropped for the budget) keeps its entry.
            if (serverByClientId.get(connection.remoteId()) == connection)
            {
                serverByClientId.remove(connection.remoteId());
            }
            handshakeBudget.remove(connection.localId());
        }
        scheduler.removeFlow(connection);
        counters.connectionsClosed().incrementRelease();
        if (connection.isHandshakeConfirmed())
        {
            establishedCount--;
        }
        connection.releaseMemory();
        ConnectionFactory.retire(connection.handle());
        countPeer(connection, -1);
    }

    /**
     * Forget every connection (the endpoint closed them).
     */
    void clear()
    {
        for (int i = 0, size = connections.size(); i < size; i++)
        {
            final ConnectionCore connection = connections.get(i);
            connection.tableIndex(-1);
            deadlines.cancel(connection);
        }
        marked.clear();
        lastFoundById = null;
        establishedCount = 0;
        connections.clear();
        byId.clear();
        serverByClientId.clear();
        peerResetTokens.clear();
        connectionsByPeer.clear();
    }

    /**
     * A client endpoint's connection joined (+1) or left (−1) the table: count it under its peer's address and
     * restrict the port if one peer is left. Client connections never move to another address (only a server's
     * follow a migration, {@link ConnectionCore#acceptsMigration()}), so the address a connection joined under is the
     * one it leaves under.
     */
    private void countPeer(final ConnectionCore connection, final int delta)
    {
        if (acceptsConnections)
        {
            return;
        }
        final InetSocketAddress peer = connection.remoteAddress();
        final int count = connectionsByPeer.getValue(peer) + delta;
        if (count > 0)
        {
            connectionsByPeer.put(peer, count);
        }
        else
        {
            connectionsByPeer.removeKey(peer);
        }
        restrictPortToSinglePeer();
    }

    /**
     * An endpoint that accepts no connections and talks to one peer restricts its port to that peer, so the
     * operating system tells it when the peer's port is unreachable (ICMP errors reach connected UDP sockets only);
     * with peers at several addresses, or none, the port is open to anyone again. The peers are counted by address as
     * connections join and leave, so this costs the same with one connection or 10,000 (a pass over the table at each
     * join made a burst of n connects O(n²)).
     */
    private void restrictPortToSinglePeer()
    {
        final InetSocketAddress peer =
            1 == connectionsByPeer.size() ? connectionsByPeer.keySet().iterator().next() : null;
        if (null == peer ? null != restrictedPeer : !peer.equals(restrictedPeer))
        {
            restrictedPeer = port.restrictTo(peer) ? peer : null;
        }
    }
}
