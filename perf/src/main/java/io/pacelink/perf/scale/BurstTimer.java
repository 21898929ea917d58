package io.pacelink.perf.scale;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import org.HdrHistogram.Histogram;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Times a burst of connects from a thread of its own: each connection from its {@code connect} call to the moment it
 * leaves CONNECTING, seen within about {@link #POLL_PARK_NS} (plus the kernel's timer slack) while the application
 * thread is still issuing the burst. Watching from the issuing thread instead would see every connection that
 * completed during the burst only once the burst was issued, and each {@code connect} call waits for the agent.
 */
final class BurstTimer implements Runnable
{
    /**
     * A tenth of a millisecond: fine enough for a burst that should take 100 ms, and on a 2-core machine a poll every
     * 20 µs took a sixth of a core from the two endpoints' agents it was timing.
     */
    private static final long POLL_PARK_NS = TimeUnit.MICROSECONDS.toNanos(100);

    private final AtomicReferenceArray<Connection> connections;
    private final long[] calledAtNs;
    private final long timeoutNs;
    private final Histogram latencyNs = new Histogram(3);
    private final Thread thread = new Thread(this, "burst-timer");
    private volatile int issued = -1;
    private long lastDoneNs;

    /**
     * @param count     connects in the burst, at most.
     * @param timeoutNs the longest wait for the last of them.
     */
    BurstTimer(final int count, final long timeoutNs)
    {
        this.connections = new AtomicReferenceArray<>(count);
        this.calledAtNs = new long[count];
        this.timeoutNs = timeoutNs;
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * @param index      the connect's place in the burst.
     * @param calledAtNs when its {@code connect} was called.
     * @param connection what it returned.
     */
    void opened(final int index, final long calledAtNs, final Connection connection)
    {
        this.calledAtNs[index] = calledAtNs;
        connections.set(index, connection); // publishes the call time with it
    }

    /**
     * @param count connects issued in all.
     * @return when the last of them left CONNECTING (or the timeout), on {@link System#nanoTime()}.
     */
    long finish(final int count) throws InterruptedException
    {
        issued = count;
        thread.join();
        return lastDoneNs;
    }

    /**
     * @return each CONNECTED connection's time from its call, in nanoseconds (after {@link #finish}).
     */
    Histogram latencyNs()
    {
        return latencyNs;
    }

    public void run()
    {
        final boolean[] done = new boolean[connections.length()];
        int doneCount = 0;
        final long deadlineNs = System.nanoTime() + timeoutNs;
        lastDoneNs = System.nanoTime();
        while ((issued < 0 || doneCount < issued) && System.nanoTime() - deadlineNs < 0)
        {
            for (int i = 0; i < done.length; i++)
            {
                final Connection connection = connections.get(i);
                if (!done[i] && null != connection && ConnectionState.CONNECTING != connection.state())
                {
                    final long nowNs = System.nanoTime();
                    done[i] = true;
                    doneCount++;
                    lastDoneNs = nowNs;
                    if (ConnectionState.CONNECTED == connection.state())
                    {
                        latencyNs.recordValue(nowNs - calledAtNs[i]);
                    }
                }
            }
            LockSupport.parkNanos(POLL_PARK_NS);
        }
    }
}
