package io.pacelink.transport.memory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes all connections of an endpoint may commit together: stream buffer segments and sent-packet records. A
 * connection charges the budget before it grows and credits it when it shrinks or closes; what the budget refuses is
 * not allocated, so a peer (or many) can make an endpoint hold at most this much, however it behaves.
 * <p>
 * Thread safe: an application thread charges it when {@code offer} needs another send-buffer segment, the agent for
 * everything else. Never touched per packet in steady state, only when a buffer grows or shrinks.
 */
public final class MemoryBudget
{
    private final long limitBytes;
    private final AtomicLong committedBytes = new AtomicLong();
    private final AtomicLong refusals = new AtomicLong();

    /**
     * @param limitBytes the most bytes committed at once.
     */
    public MemoryBudget(final long limitBytes)
    {
        if (limitBytes <= 0)
        {
            throw new IllegalArgumentException("limitBytes must be positive: " + limitBytes);
        }
        this.limitBytes = limitBytes;
    }

    /**
     * @return a budget that never refuses, for a log or a loss recovery used on its own.
     */
    public static MemoryBudget unlimited()
    {
        return new MemoryBudget(Long.MAX_VALUE);
    }

    /**
     * Charge the budget if it has room.
     *
     * @param bytes to commit.
     * @return true if charged; false (counted as a refusal) if that would exceed the limit.
     */
    public boolean tryCommit(final long bytes)
    {
        long committed;
        do
        {
            committed = committedBytes.get();
            if (bytes > limitBytes - committed)
            {
                refusals.incrementAndGet();
                return false;
            }
        }
        while (!committedBytes.compareAndSet(committed, committed + bytes));
        return true;
    }

    /**
     * Charge the budget whatever its limit: for a commitment that was already credited and must be charged back.
     *
     * @param bytes to commit.
     */
    public void commit(final long bytes)
    {
        committedBytes.addAndGet(bytes);
    }

    /**
     * @param bytes committed earlier and now given back.
     */
    public void release(final long bytes)
    {
        committedBytes.addAndGet(-bytes);
    }

    /**
     * @param bytes a commitment about to be made.
     * @return true if the budget has room for it now (nothing is charged).
     */
    public boolean hasRoomFor(final long bytes)
    {
        return bytes <= limitBytes - committedBytes.get();
    }

    /**
     * @return bytes committed now.
     */
    public long committedBytes()
    {
        return committedBytes.get();
    }

    /**
     * @return the limit.
     */
    public long limitBytes()
    {
        return limitBytes;
    }

    /**
     * @return commitments refused so far.
     */
    public long refusals()
    {
        return refusals.get();
    }
}
