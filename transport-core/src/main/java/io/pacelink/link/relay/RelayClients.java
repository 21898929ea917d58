package io.pacelink.link.relay;

import io.pacelink.transport.port.DatagramPort;
import org.agrona.CloseHelper;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * The relay's clients, each with a socket of its own towards the server, as a NAT gives each flow a mapping of its
 * own (Linux {@code net/netfilter/nf_nat_core.c}): the server sees every client at a different address, and what it
 * sends to one arrives on that client's socket and goes back to that client only. With one socket shared by all
 * clients a reply could only go to whichever client was heard from last, so with two clients at once one of them got
 * the other's replies and lost its own.
 * <p>
 * Bounded: at most {@code maxClients} at once (the least recently active one makes room for a new one), and a client
 * silent both ways for {@code idleTimeoutNs} is forgotten and its socket closed, as conntrack forgets an idle UDP
 * mapping ({@code nf_conntrack_udp_timeout_stream}). A datagram from a forgotten client opens a new mapping.
 * <p>
 * Owned by the relay's loop thread.
 */
final class RelayClients implements AutoCloseable
{
    /**
     * One client and its socket towards the server.
     */
    static final class Client
    {
        private final InetSocketAddress address;
        private DatagramPort upstream;
        private long lastActiveNs;

        Client(final InetSocketAddress address, final DatagramPort upstream, final long nowNs)
        {
            this.address = address;
            this.upstream = upstream;
            this.lastActiveNs = nowNs;
        }

        /**
         * @return where the client sends from, and its replies go.
         */
        InetSocketAddress address()
        {
            return address;
        }

        /**
         * @return the client's port towards the server, restricted to it.
         */
        DatagramPort upstream()
        {
            return upstream;
        }

        /**
         * A datagram went through for this client, either way.
         */
        void touch(final long nowNs)
        {
            lastActiveNs = nowNs;
        }
    }

    /**
     * Opens a client's socket towards the server.
     */
    @FunctionalInterface
    interface UpstreamOpener
    {
        /**
         * @return a port bound to a free port and restricted to the server.
         * @throws RuntimeException if the operating system refuses one (out of files or ports).
         */
        DatagramPort open();
    }

    private final Map<InetSocketAddress, Client> byAddress = new HashMap<>();
    private final ArrayList<Client> clients = new ArrayList<>();
    private final UpstreamOpener opener;
    private final int maxClients;
    private final long idleTimeoutNs;
    /**
     * After the operating system refused a spare socket, how long the relay waits before it asks again.
     */
    static final long SPARE_RETRY_NS = 1_000_000_000L;

    private DatagramPort spare;
    private long spareRetryAtNs = Long.MIN_VALUE;
    private boolean isSpareRefused;
    private long sparesOpened;
    private long opened;
    private long forgotten;
    private long rebindings;
    private long membershipChanges;

    /**
     * @param firstUpstream the socket the first client gets (opened when the relay starts, so a bad forward address
     *                      is reported at once).
     * @param opener        opens the socket of every further client.
     * @param maxClients    most clients at once.
     * @param idleTimeoutNs how long a client may be silent both ways before it is forgotten.
     */
    RelayClients(
        final DatagramPort firstUpstream,
        final UpstreamOpener opener,
        final int maxClients,
        final long idleTimeoutNs)
    {
        this.spare = firstUpstream;
        this.opener = opener;
        this.maxClients = maxClients;
        this.idleTimeoutNs = idleTimeoutNs;
    }

    /**
     * @param address where a datagram came from.
     * @param nowNs   when.
     * @return the client, known or new; null if the operating system gave no socket for a new one.
     */
    Client clientFor(final InetSocketAddress address, final long nowNs)
    {
        Client client = byAddress.get(address);
        if (null == client)
        {
            if (clients.size() >= maxClients)
            {
                forget(leastRecentlyActive());
            }
            final DatagramPort upstream = takeUpstream();
            if (null == upstream)
            {
                return null;
            }
            client = new Client(address, upstream, nowNs);
            byAddress.put(address, client);
            clients.add(client);
            opened++;
            membershipChanges++;
        }
        client.touch(nowNs);
        return client;
    }

    /**
     * @param address a client's address.
     * @return the client, or null if it was never heard from or was forgotten.
     */
    Client client(final InetSocketAddress address)
    {
        return byAddress.get(address);
    }

    /**
     * @return clients now.
     */
    int size()
    {
        return clients.size();
    }

    /**
     * @param index 0 to {@link #size()} - 1.
     * @return that client.
     */
    Client client(final int index)
    {
        return clients.get(index);
    }

    /**
     * @return the socket the next new client gets, opened ahead of it (the first one when the relay starts, the
     * others by {@link #openSpare}), or null while there is none.
     */
    DatagramPort spare()
    {
        return spare;
    }

    /**
     * Open the socket the next new client will get, unless one is ready: called while the relay has nothing due,
     * so that a new client's first datagram does not wait for a socket to be opened (hundreds of microseconds on a
     * busy two-core machine, a millisecond at worst: all of it added to that datagram's delay, and to every datagram
     * behind it in the relay's loop). After a refusal the relay asks again no sooner than {@link #SPARE_RETRY_NS}
     * later (a new client then opens its own, as before).
     *
     * @param nowNs the current time.
     * @return true if a socket was opened now (the set of sockets to wait on changed).
     */
    boolean openSpare(final long nowNs)
    {
        if (null != spare || isSpareRefused && nowNs - spareRetryAtNs < 0)
        {
            return false;
        }
        try
        {
            spare = opener.open();
        }
        catch (final RuntimeException ex)
        {
            isSpareRefused = true;
            spareRetryAtNs = nowNs + SPARE_RETRY_NS;
            return false;
        }
        isSpareRefused = false;
        sparesOpened++;
        membershipChanges++;
        return true;
    }

    /**
     * @return sockets opened ahead of a new client by {@link #openSpare} so far.
     */
    long sparesOpened()
    {
        return sparesOpened;
    }

    /**
     * Give every client a new socket towards the server and close its old one, as a NAT that rebinds its mappings
     * does (a new source port, RFC 9000 section 9.3's "NAT rebinding"): the server hears each client from a new port,
     * and what it still sends to the old one is lost.
     *
     * @return clients rebound; a client the operating system gave no new socket keeps its old one.
     */
    int rebindAll()
    {
        int rebound = 0;
        for (int i = 0, size = clients.size(); i < size; i++)
        {
            final Client client = clients.get(i);
            final DatagramPort upstream = takeUpstream();
            if (null != upstream)
            {
                CloseHelper.quietClose(client.upstream);
                client.upstream = upstream;
                rebound++;
                membershipChanges++;
            }
        }
        rebindings += rebound;
        return rebound;
    }

    /**
     * @return client sockets replaced by {@link #rebindAll()} so far.
     */
    long rebindings()
    {
        return rebindings;
    }

    /**
     * @return a count that moves whenever the set of sockets changes (a client came, was forgotten or rebound; the
     * spare was taken), so that a wait on all of them ({@code PortGroupWait}) knows when to look again.
     */
    long membershipChanges()
    {
        return membershipChanges;
    }

    /**
     * Forget the clients silent longer than the idle timeout and close their sockets.
     *
     * @param nowNs the current time.
     */
    void expireIdle(final long nowNs)
    {
        for (int i = clients.size() - 1; i >= 0; i--)
        {
            final Client client = clients.get(i);
            if (nowNs - client.lastActiveNs > idleTimeoutNs)
            {
                forget(client);
            }
        }
    }

    /**
     * @return clients that got a socket of their own so far.
     */
    long opened()
    {
        return opened;
    }

    /**
     * @return clients forgotten so far: idle too long, or the least recently active when a new one needed room.
     */
    long forgotten()
    {
        return forgotten;
    }

    public void close()
    {
        for (int i = clients.size() - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(clients.get(i).upstream);
        }
        clients.clear();
        byAddress.clear();
        CloseHelper.quietClose(spare);
        spare = null;
    }

    private DatagramPort takeUpstream()
    {
        if (null != spare)
        {
            final DatagramPort upstream = spare;
            spare = null;
            membershipChanges++;
            return upstream;
        }
        try
        {
            return opener.open();
        }
        catch (final RuntimeException ex)
        {
            return null; // the caller counts the datagram as the relay's own loss
        }
    }

    private Client leastRecentlyActive()
    {
        Client oldest = clients.get(0);
        for (int i = 1, size = clients.size(); i < size; i++)
        {
            final Client client = clients.get(i);
            if (client.lastActiveNs - oldest.lastActiveNs < 0)
            {
                oldest = client;
            }
        }
        return oldest;
    }

    private void forget(final Client client)
    {
        membershipChanges++;
        clients.remove(client);
        byAddress.remove(client.address);
        CloseHelper.quietClose(client.upstream);
        forgotten++;
    }
}
