package io.pacelink.transport.port;

import org.agrona.BufferUtil;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Sleep until any port of a group has a datagram to read, or a timeout passes: what a thread that serves many sockets
 * (the {@code pacelink netem} relay: one towards its clients, one towards the server per client) needs so that it
 * costs nothing while nothing arrives, yet notices an arrival at once. {@link DatagramPort#awaitReadable(long)}
 * watches one port only.
 * <p>
 * How it waits depends on the ports, which are all of one kind in practice (one factory makes them):
 * <ul>
 *     <li>all {@link BatchedDatagramPort}s: one {@code ppoll(2)} over every socket, with a nanosecond timeout;</li>
 *     <li>all {@link NioDatagramPort}s: one {@link Selector} with every channel registered for reading, selected
 *     for the whole milliseconds of the timeout (a selector's finest unit); a timeout under a millisecond parks
 *     instead, for at most the fallback park;</li>
 *     <li>any other mix (a wrapping port, a test's port): {@link LockSupport#parkNanos} for at most the fallback park,
 *     so arrivals are noticed at most that late — the behaviour before this class.</li>
 * </ul>
 * The group is set with {@link #watch(DatagramPort[], int)} whenever its membership changes (rare: a client comes or
 * goes); {@link #await(long)} allocates nothing. One thread owns an instance; there is no wake-up from another
 * thread: a caller bounds its timeout by when it must look at anything else (its own stop flag, a report).
 */
public final class PortGroupWait implements AutoCloseable
{
    private static final long NANOS_PER_MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    private enum Kind
    {
        NONE, BATCHED, NIO, PARK
    }

    private int readyKeys;
    private final long fallbackParkNs;
    private final Consumer<SelectionKey> onReady = (key) -> readyKeys++;
    private Kind kind = Kind.NONE;
    private ByteBuffer pollfdsMemory;
    private UnsafeBuffer pollfds;
    private int pollfdCount;
    private Selector selector;
    private long waits;
    private long readableWaits;

    /**
     * @param fallbackParkNs the longest park where the ports cannot be waited on together (or for the sub-millisecond
     *                       part of a wait on NIO ports): how late an arrival may be noticed there.
     */
    public PortGroupWait(final long fallbackParkNs)
    {
        if (fallbackParkNs <= 0)
        {
            throw new IllegalArgumentException("fallbackParkNs must be positive: " + fallbackParkNs);
        }
        this.fallbackParkNs = fallbackParkNs;
    }

    /**
     * Watch these ports from now on, instead of those watched before. Call it again after any of them was closed or
     * replaced.
     *
     * @param ports the ports; entries from {@code count} on are ignored, null entries skipped.
     * @param count how many of {@code ports} to watch.
     */
    public void watch(final DatagramPort[] ports, final int count)
    {
        closeSelector();
        pollfdCount = 0;
        kind = kindOf(ports, count);
        if (Kind.BATCHED == kind)
        {
            ensurePollfdCapacity(count);
            for (int i = 0; i < count; i++)
            {
                final int fd = null == ports[i] ? -1 : ((BatchedDatagramPort)ports[i]).socketFd();
                if (fd >= 0)
                {
                    pollfds.putInt(pollfdCount * NativeUdp.POLLFD_BYTES, fd);
                    pollfdCount++;
                }
            }
        }
        else if (Kind.NIO == kind)
        {
            try
            {
                selector = Selector.open();
                for (int i = 0; i < count; i++)
                {
                    if (null != ports[i] && ((NioDatagramPort)ports[i]).channel().isOpen())
                    {
                        ((NioDatagramPort)ports[i]).channel().register(selector, SelectionKey.OP_READ);
                    }
                }
            }
            catch (final IOException | RuntimeException ex)
            {
                closeSelector();
                kind = Kind.PARK; // a selector the system would not give: wait as before, in short parks
            }
        }
    }

    /**
     * Sleep until a watched port has a datagram to read, or the timeout passes (on the fallback, at most the fallback
     * park). It may end early (a signal, a closed socket); the caller reads its ports and decides again.
     *
     * @param timeoutNs the longest wait; 0 or less returns at once.
     * @return {@link DatagramPort#READABLE} if a port is known to be readable, else 0.
     */
    public int await(final long timeoutNs)
    {
        if (timeoutNs <= 0)
        {
            return 0;
        }
        waits++;
        final int result = switch (kind)
        {
            case BATCHED -> awaitBatched(timeoutNs);
            case NIO -> awaitSelector(timeoutNs);
            default -> park(timeoutNs);
        };
        if (0 != result)
        {
            readableWaits++;
        }
        return result;
    }

    /**
     * @return true if the watched ports are waited on together (a {@code ppoll} or a selector), false if waits fall
     * back to short parks.
     */
    public boolean waitsTogether()
    {
        return Kind.BATCHED == kind || Kind.NIO == kind;
    }

    /**
     * @return waits so far.
     */
    public long waits()
    {
        return waits;
    }

    /**
     * @return waits that ended with a port readable.
     */
    public long readableWaits()
    {
        return readableWaits;
    }

    /**
     * Release the selector or the descriptor array; the ports stay open (their owner closes them).
     */
    public void close()
    {
        closeSelector();
        kind = Kind.NONE;
        pollfdCount = 0;
        pollfdsMemory = null; // direct memory the collector returns; an aligned slice cannot be freed by hand
        pollfds = null;
    }

    private int awaitBatched(final long timeoutNs)
    {
        if (0 == pollfdCount)
        {
            return park(timeoutNs);
        }
        final int ready = NativeUdp.awaitAny(pollfds.addressOffset(), pollfdCount, timeoutNs);
        // −errno (a descriptor closed under the wait: EBADF cannot happen with poll, which reports POLLNVAL): read
        // the ports, which count their own errors, rather than sleep on a broken set.
        return 0 == ready ? 0 : DatagramPort.READABLE;
    }

    private int awaitSelector(final long timeoutNs)
    {
        final long millis = timeoutNs / NANOS_PER_MILLI;
        if (0 == millis)
        {
            return park(timeoutNs);
        }
        readyKeys = 0;
        try
        {
            selector.select(onReady, millis);
        }
        catch (final IOException | ClosedSelectorException ex)
        {
            return DatagramPort.READABLE;
        }
        return readyKeys > 0 ? DatagramPort.READABLE : 0;
    }

    private int park(final long timeoutNs)
    {
        LockSupport.parkNanos(this, Math.min(timeoutNs, fallbackParkNs));
        return 0;
    }

    private static Kind kindOf(final DatagramPort[] ports, final int count)
    {
        boolean allBatched = true;
        boolean allNio = true;
        int present = 0;
        for (int i = 0; i < count; i++)
        {
            final DatagramPort port = ports[i];
            if (null != port)
            {
                present++;
                allBatched &= port instanceof BatchedDatagramPort;
                allNio &= port instanceof NioDatagramPort;
            }
        }
        if (0 == present)
        {
            return Kind.PARK;
        }
        return allBatched ? Kind.BATCHED : allNio ? Kind.NIO : Kind.PARK;
    }

    private void ensurePollfdCapacity(final int count)
    {
        final int bytes = Math.max(1, count) * NativeUdp.POLLFD_BYTES;
        if (null == pollfdsMemory || pollfdsMemory.capacity() < bytes)
        {
            pollfdsMemory = BufferUtil.allocateDirectAligned(Math.max(bytes, 64), 64);
            pollfds = new UnsafeBuffer(pollfdsMemory);
        }
        pollfds.setMemory(0, pollfds.capacity(), (byte)0);
    }

    private void closeSelector()
    {
        if (null != selector)
        {
            CloseHelper.quietClose(selector);
            selector = null;
        }
    }
}
