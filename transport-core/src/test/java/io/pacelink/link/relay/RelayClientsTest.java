package io.pacelink.link.relay;

import io.pacelink.transport.port.DatagramPort;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The relay's clients and the socket kept ready for the next new one: opened ahead while the relay has nothing due,
 * so that a new client takes it instead of waiting for one to be opened; after a refusal asked for again no sooner
 * than {@link RelayClients#SPARE_RETRY_NS} later. Fake ports, no sockets.
 */
class RelayClientsTest
{
    private static final long NOW_NS = 1_000_000_000L;
    private static final InetSocketAddress FIRST = new InetSocketAddress("127.0.0.1", 40_001);
    private static final InetSocketAddress SECOND = new InetSocketAddress("127.0.0.1", 40_002);

    private final List<DatagramPort> opened = new ArrayList<>();
    private boolean isRefusing;

    @Test
    void aNewClientTakesTheSpareOpenedAheadWithoutAnOpeningOfItsOwn()
    {
        final DatagramPort first = port();
        final RelayClients clients = new RelayClients(first, this::open, 8, Long.MAX_VALUE);
        assertSame(first, clients.clientFor(FIRST, NOW_NS).upstream(), "the first client gets the first socket");
        assertNull(clients.spare());
        final long membership = clients.membershipChanges();

        assertTrue(clients.openSpare(NOW_NS));
        assertEquals(1, opened.size());
        assertSame(opened.get(0), clients.spare());
        assertTrue(clients.membershipChanges() > membership, "a wait on the sockets must look again");
        assertFalse(clients.openSpare(NOW_NS), "one spare at a time");
        assertEquals(1, opened.size());

        assertSame(opened.get(0), clients.clientFor(SECOND, NOW_NS).upstream());
        assertEquals(1, opened.size(), "the new client opened nothing on its datagram's path");
        assertEquals(1, clients.sparesOpened());
        clients.close();
    }

    @Test
    void afterARefusalTheSpareIsAskedForAgainOnlyASecondLater()
    {
        final RelayClients clients = new RelayClients(port(), this::open, 8, Long.MAX_VALUE);
        clients.clientFor(FIRST, NOW_NS);
        isRefusing = true;
        assertFalse(clients.openSpare(NOW_NS));
        isRefusing = false;
        assertFalse(clients.openSpare(NOW_NS + RelayClients.SPARE_RETRY_NS - 1));
        assertEquals(0, opened.size());
        assertTrue(clients.openSpare(NOW_NS + RelayClients.SPARE_RETRY_NS));
        assertEquals(1, opened.size());
        clients.close();
    }

    @Test
    void withoutASpareANewClientStillOpensItsOwn()
    {
        final RelayClients clients = new RelayClients(port(), this::open, 8, Long.MAX_VALUE);
        clients.clientFor(FIRST, NOW_NS);
        assertNull(clients.spare());
        clients.clientFor(SECOND, NOW_NS);
        assertEquals(1, opened.size());
        assertEquals(2, clients.size());
        clients.close();
    }

    private DatagramPort open()
    {
        if (isRefusing)
        {
            throw new IllegalStateException("no more files");
        }
        final DatagramPort port = port();
        opened.add(port);
        return port;
    }

    private static DatagramPort port()
    {
        return (DatagramPort)Proxy.newProxyInstance(DatagramPort.class.getClassLoader(),
            new Class<?>[] {DatagramPort.class}, (proxy, method, args) ->
            {
                switch (method.getName())
                {
                    case "close":
                        return null;
                    case "hashCode":
                        return System.identityHashCode(proxy);
                    case "equals":
                        return proxy == args[0];
                    default:
                        throw new UnsupportedOperationException(method.getName());
                }
            });
    }
}
