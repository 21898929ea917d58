package io.pacelink.transport.port;

import org.agrona.CloseHelper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * {@link DatagramPort#awaitReadable(long)} and {@link DatagramPort#wakeup()} for a non-blocking NIO channel: a
 * {@link Selector} with the channel registered for reading, selected for the whole milliseconds of the timeout (a
 * selector's finest unit), then {@link LockSupport#parkNanos} for the sub-millisecond rest, which
 * {@link #wakeup()} ends too ({@link LockSupport#unpark}). A datagram that arrives during that last park is noticed
 * when it ends, less than a millisecond later: the closest NIO comes to a nanosecond wait.
 * <p>
 * The selector is opened at the first wait, so a port that never waits (INVOKER mode with the application's own idle)
 * costs no extra file descriptors. The ready key is reported through {@link Selector#select(Consumer, long)}, which
 * adds nothing to the selected-key set: no garbage per wait.
 */
final class SelectorWait implements AutoCloseable
{
    private static final long NANOS_PER_MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    private final DatagramChannel channel;
    private final PortStats stats;
    private final Consumer<SelectionKey> onReady = (key) -> isReady = true;
    private volatile Selector selector;
    private boolean isReady;
    private volatile boolean isWoken;
    private volatile Thread waiter;
    private volatile boolean isClosed;

    SelectorWait(final DatagramChannel channel, final PortStats stats)
    {
        this.channel = channel;
        this.stats = stats;
    }

    int await(final long timeoutNs)
    {
        if (isClosed || !channel.isOpen())
        {
            return 0;
        }
        try
        {
            final Selector selector = selector();
            isReady = false;
            final long millis = Math.max(0, timeoutNs) / NANOS_PER_MILLI;
            if (millis > 0)
            {
                selector.select(onReady, millis);
            }
            else
            {
                selector.selectNow(onReady);
            }
            final long restNs = timeoutNs - millis * NANOS_PER_MILLI;
            if (!isReady && !isWoken && restNs > 0)
            {
                waiter = Thread.currentThread();
                if (!isWoken)
                {
                    LockSupport.parkNanos(this, restNs);
                }
                waiter = null;
                selector.selectNow(onReady);
            }
        }
        catch (final IOException | ClosedSelectorException ex)
        {
            return 0;
        }
        int result = isReady ? DatagramPort.READABLE : 0;
        if (isWoken)
        {
            isWoken = false;
            result |= DatagramPort.WOKEN;
        }
        return stats.onWait(result);
    }

    void wakeup()
    {
        isWoken = true;
        final Selector selector = this.selector;
        if (null != selector)
        {
            selector.wakeup();
        }
        final Thread thread = waiter;
        if (null != thread)
        {
            LockSupport.unpark(thread);
        }
    }

    private Selector selector() throws IOException
    {
        Selector selector = this.selector;
        if (null == selector)
        {
            final Selector opened = Selector.open();
            try
            {
                channel.register(opened, SelectionKey.OP_READ);
            }
            catch (final IOException | RuntimeException ex)
            {
                CloseHelper.quietClose(opened);
                throw ex;
            }
            selector = opened;
            this.selector = opened;
            if (isWoken)
            {
                selector.wakeup();
            }
        }
        return selector;
    }

    public void close()
    {
        isClosed = true;
        final Selector selector = this.selector;
        try
        {
            if (null != selector)
            {
                selector.close();
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
