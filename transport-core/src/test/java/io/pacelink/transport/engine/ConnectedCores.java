package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.testing.TestNetwork;

import java.util.function.Function;

/**
 * A server core and a client core on a {@link CoreTestBed}'s network with connections open between them, settled:
 * the set-up of the tests of what one duty cycle does with many connections.
 */
final class ConnectedCores
{
    final EndpointCore server;
    final EndpointCore client;
    final Connection[] clientSides;
    final Connection[] serverSides;

    /**
     * @param newServer            the server core on the port it is given.
     * @param clientMaxConnections the client core's limit.
     * @param connections          how many to open, one after the other.
     * @param spreadNs             virtual time between two connects (their timers spread), or 0 for back to back.
     * @param settleNs             virtual time run after the last, for the handshakes' confirmations and ACKs.
     */
    ConnectedCores(
        final CoreTestBed bed,
        final Function<TestNetwork.Port, EndpointCore> newServer,
        final int clientMaxConnections,
        final int connections,
        final long spreadNs,
        final long settleNs)
    {
        final TestNetwork.Port serverPort = bed.network().newPort(1000);
        server = newServer.apply(serverPort);
        client = bed.newCore(bed.network().newPort(2000), false, clientMaxConnections);
        clientSides = new Connection[connections];
        serverSides = new Connection[connections];
        for (int i = 0; i < connections; i++)
        {
            final Connection[] pair = bed.connect(client, server, serverPort);
            clientSides[i] = pair[0];
            serverSides[i] = pair[1];
            if (spreadNs > 0)
            {
                bed.runFor(spreadNs);
            }
        }
        bed.runFor(settleNs);
    }
}
