package io.pacelink.transport.port;

import org.agrona.DirectBuffer;

import java.net.InetSocketAddress;

/**
 * The only way the sans-IO endpoint core reaches a network: an NIO {@link java.nio.channels.DatagramChannel} in real
 * time ({@link NioDatagramPort}), a simulated host in virtual time, or a wrapper that injects impairments.
 * Non-blocking; used only from the agent thread.
 */
public interface DatagramPort extends AutoCloseable
{
    /**
     * Receive up to {@code limit} datagrams that have arrived, handing each to the handler.
     *
     * @param handler called once per datagram; the buffer is valid only during the call.
     * @param limit   maximum number of datagrams.
     * @param nowNs   the current time, handed to the handler with each datagram (a port reads no clock).
     * @return the number of datagrams handed to the handler.
     */
    int receive(DatagramHandler handler, int limit, long nowNs);

    /**
     * Send one datagram, without blocking.
     *
     * @param buffer      holding the datagram.
     * @param offset      of the datagram in the buffer.
     * @param length      of the datagram.
     * @param destination where to send it.
     * @return true if the datagram was handed to the network; false if the send buffer was full (the datagram is
     * dropped; reliability recovers it like a loss).
     */
    boolean send(DirectBuffer buffer, int offset, int length, InetSocketAddress destination);

    /**
     * A send batch for this port: the default writes every datagram in the batch's own buffer.
     *
     * @param maxDatagrams  the most datagrams one send hands over.
     * @param capacityBytes the bytes of all its datagrams together.
     * @return a new batch, owned by the caller.
     */
    default SendBatch newSendBatch(final int maxDatagrams, final int capacityBytes)
    {
        return new SendBatch(maxDatagrams, capacityBytes);
    }

    /**
     * A receive batch laid out for this port: {@link #receive(ReceiveBatch, int)} fills only batches it made.
     *
     * @param maxDatagrams the most datagrams one receive hands over.
     * @return a new batch, owned by the caller.
     */
    default ReceiveBatch newReceiveBatch(final int maxDatagrams)
    {
        return new ReceiveBatch(maxDatagrams, maxDatagrams * CopyingReceive.MAX_DATAGRAM_BYTES);
    }

    /**
     * Receive up to {@code limit} datagrams that have arrived into a batch, which is cleared first. The caller reads
     * the clock after this returns, so each datagram is stamped no earlier than it was read.
     * <p>
     * The default copies what {@link #receive(DatagramHandler, int, long)} hands over, for ports written before
     * batches; the ports of this library receive into the batch directly.
     *
     * @param batch a batch from {@link #newReceiveBatch(int)}.
     * @param limit the most datagrams to receive (at most the batch's {@link ReceiveBatch#maxDatagrams()}).
     * @return the datagrams received; a reported unreachable peer is in the batch too.
     */
    default int receive(final ReceiveBatch batch, final int limit)
    {
        batch.clear();
        return receive(new CopyingReceive(batch), Math.min(limit, batch.maxDatagrams()), 0);
    }

    /**
     * Send every datagram of a batch, in order, without blocking; the batch is left as it was (the caller clears it).
     * A datagram not sent (the socket's send buffer was full, or an I/O error) is dropped like a loss on the path.
     * <p>
     * The default sends them one by one through {@link #send(DirectBuffer, int, int, InetSocketAddress)}.
     *
     * @param batch the datagrams.
     * @return how many were handed to the network.
     */
    default int send(final SendBatch batch)
    {
        int sent = 0;
        for (int i = 0, size = batch.size(); i < size; i++)
        {
            if (send(batch.buffer(i), batch.offset(i), batch.length(i), batch.destination(i)))
            {
                sent++;
            }
        }
        return sent;
    }

    /**
     * @return true if {@link #send(SendBatch)} sets each datagram's ECN codepoint and
     * {@link #receive(ReceiveBatch, int)} reports the arriving one (the batched port); false if codepoints are ignored
     * on send and reported as {@link ReceiveBatch#NOT_ECT}.
     */
    default boolean carriesEcn()
    {
        return false;
    }

    /**
     * Whether {@link #send(SendBatch)} sends each datagram with its batch entry's ECN codepoint, whether or not the
     * port can read arriving ones: the NIO port sets the socket's {@code IP_TOS} as the codepoint changes but cannot
     * read a received datagram's. An endpoint marks its packets ECN-capable (RFC 9000 section 13.4.2) only on a port
     * that sends codepoints; on a port that cannot read them its ACK frames carry no ECN counts, so a peer that marks
     * disables ECN after its validation test.
     *
     * @return true if datagrams leave with their codepoints; by default, if the port {@link #carriesEcn() carries}
     * them both ways.
     */
    default boolean sendsEcn()
    {
        return carriesEcn();
    }

    /**
     * Whether {@link #send(SendBatch)} takes datagrams whose payload lies outside the batch
     * ({@link SendBatch#commitGathered}) and sends each from its parts. An endpoint leaves a plaintext packet's DATA
     * payload in its send log, and the port's system call copies it from there, only on a port that does; elsewhere
     * every datagram is written whole into the batch.
     *
     * @return true if gathered datagrams are sent as such; false by default.
     */
    default boolean sendsGathered()
    {
        return false;
    }

    /**
     * Whether the port takes over a plaintext packet's CRC32C trailer (docs/wire-format.md, "Integrity") as a network
     * device with checksum offload takes over the UDP checksum: a datagram {@link SendBatch#commit(int,
     * InetSocketAddress, int, boolean) committed} with its trailer left to the port gets it written by the port
     * wherever its bytes are read as they would be on a wire, and one that reaches a receiving endpoint with every byte
     * as it was sent is handed over as already verified ({@link ReceiveBatch#isVerified}) — Linux's
     * {@code CHECKSUM_PARTIAL} and {@code CHECKSUM_UNNECESSARY} ({@code include/linux/skbuff.h}), which its loopback
     * device passes through without computing or checking the checksum at all. Only the simulator's port does: its
     * datagrams cross no wire that could change them unless its link model corrupts them, and then it writes the
     * trailer first (as Linux's {@code netem} computes a partial checksum before it flips a bit).
     *
     * @return true if the port takes over the trailer; false by default.
     */
    default boolean offloadsCrc32c()
    {
        return false;
    }

    /**
     * Exchange datagrams with one peer only, like a connected UDP socket, or with anyone again. Only a port restricted
     * to one peer learns that the peer's port is unreachable: operating systems report ICMP errors to connected UDP
     * sockets only (Linux {@code net/ipv4/udp.c}, {@code __udp4_lib_err}, without {@code IP_RECVERR}), and then
     * through {@link DatagramHandler#onPortUnreachable}. While restricted, datagrams from others are discarded and
     * sends to others fail.
     *
     * @param peer the one peer, or null for anyone.
     * @return true if the port now is as asked; false if it cannot restrict itself (the default).
     */
    default boolean restrictTo(final InetSocketAddress peer)
    {
        return null == peer;
    }

    /**
     * {@link #awaitReadable(long)} result bit: a datagram (or an error to report) waits to be received.
     */
    int READABLE = 1;

    /**
     * {@link #awaitReadable(long)} result bit: another thread called {@link #wakeup()}.
     */
    int WOKEN = 2;

    /**
     * @return true if {@link #awaitReadable(long)} blocks until a datagram arrives or {@link #wakeup()} is called;
     * false (the default) if this port cannot wait, and its agent must idle some other way.
     */
    default boolean canWait()
    {
        return false;
    }

    /**
     * Sleep until a datagram can be received, another thread calls {@link #wakeup()}, or the timeout passes: the
     * agent's wait between duty cycles (docs/io.md, "Waits"). Agent thread only.
     *
     * @param timeoutNs the longest wait, > 0.
     * @return {@link #READABLE} and/or {@link #WOKEN}, or 0 on the timeout; a port that cannot wait returns 0 at once.
     */
    default int awaitReadable(final long timeoutNs)
    {
        return 0;
    }

    /**
     * Sleep until another thread calls {@link #wakeup()} or the timeout passes, leaving datagrams that arrive meanwhile
     * in the socket for the next receive: the agent's hold of arrivals ({@code WakeCoalescing}), so one receive drains
     * what arrived in a short while. Agent thread only. A port that cannot leave arrivals waiting ends the sleep on
     * them, as {@link #awaitReadable(long)} does (the default).
     *
     * @param timeoutNs the longest wait, > 0.
     * @return {@link #WOKEN} or 0 on the timeout (the default may also return {@link #READABLE}).
     */
    default int awaitWakeup(final long timeoutNs)
    {
        return awaitReadable(timeoutNs);
    }

    /**
     * A waiting agent's hint, given after a duty cycle that did work and before the one that follows it at once: if
     * the last receive drained the socket (it found fewer datagrams than it could take), that cycle may skip its
     * receive, which would almost always find nothing; a datagram that arrived since stays in the socket, and the
     * agent's next wait, which polls the socket, ends at once on it. Only an agent that waits in this port between
     * duty cycles gives it (a busy-spinning agent never does, so it reads the socket every cycle). Agent thread only;
     * by default it changes nothing.
     */
    default void skipReceiveIfDrained()
    {
    }

    /**
     * End a current {@link #awaitReadable(long)} or {@link #awaitWakeup(long)} at once, or the next one if none is
     * under way. Any thread; cheap enough to call for each command, but callers call it only when the agent said it
     * sleeps.
     */
    default void wakeup()
    {
    }

    /**
     * @return what the port counted; a port that counts nothing returns an all-zero instance.
     */
    default PortStats stats()
    {
        return PortStats.NONE;
    }

    /**
     * @return what kind of port this is, for stats and logs, e.g. {@code nio} or
     * {@code batched (sendmmsg/recvmmsg, GSO on, GRO on)}.
     */
    default String describe()
    {
        return getClass().getSimpleName();
    }

    /**
     * @return the address peers send to.
     */
    InetSocketAddress localAddress();

    /**
     * Release the port's resources.
     */
    void close();
}
