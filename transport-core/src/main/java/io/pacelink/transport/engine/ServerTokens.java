package io.pacelink.transport.engine;

import org.agrona.DirectBuffer;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A client endpoint's tokens from its servers' NEW_TOKEN frames (RFC 9000 section 8.1.3): the latest per server
 * address, in memory only, at most {@link #CAPACITY} servers (the one heard from longest ago goes first). The next
 * connect to that address takes the token into its hello, so under handshake pressure the server need not answer
 * with a RETRY. A token is taken, not kept: section 8.1.3 asks a client not to use one for two connection attempts
 * (reuse would link them for anyone on the path), and the server takes each once; the connection it buys brings the
 * next. Agent thread only; allocates a little when a token arrives (once a connection), never per packet.
 */
final class ServerTokens
{
    /**
     * Servers whose token is kept: a client of more servers than this loses the RETRY saving for the ones it has not
     * heard from longest, no more.
     */
    static final int CAPACITY = 256;

    private final Map<InetSocketAddress, byte[]> tokens = new LinkedHashMap<>(16, 0.75f, true)
    {
        private static final long serialVersionUID = 1L;

        protected boolean removeEldestEntry(final Map.Entry<InetSocketAddress, byte[]> eldest)
        {
            return size() > CAPACITY;
        }
    };

    /**
     * A server gave a token: it replaces the one kept for that address.
     *
     * @param server      the server's address (the connection's remote address).
     * @param buffer      holding the token.
     * @param tokenOffset of its first byte.
     * @param tokenLength its length.
     */
    void store(final InetSocketAddress server, final DirectBuffer buffer, final int tokenOffset, final int tokenLength)
    {
        final byte[] token = new byte[tokenLength];
        buffer.getBytes(tokenOffset, token);
        tokens.put(server, token);
    }

    /**
     * @param server the address about to be connected to.
     * @return the token kept for it, now forgotten; null if there is none.
     */
    byte[] take(final InetSocketAddress server)
    {
        return tokens.remove(server);
    }

    /**
     * @return how many servers have a token kept.
     */
    int size()
    {
        return tokens.size();
    }
}
