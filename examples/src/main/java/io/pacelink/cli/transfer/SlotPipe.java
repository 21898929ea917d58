package io.pacelink.cli.transfer;

import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

import java.nio.ByteBuffer;

/**
 * Messages passed one way between two threads in a fixed set of preallocated {@link Slot}s: the producer claims a
 * free slot, fills it and commits it; the consumer polls it, uses it and releases it. Two single-producer,
 * single-consumer queues carry the slots (full ones forwards, free ones back), so a steady stream of messages
 * allocates nothing, and a consumer that falls behind makes the producer wait for a slot instead of growing memory.
 */
public final class SlotPipe
{
    private final OneToOneConcurrentArrayQueue<Slot> free;
    private final OneToOneConcurrentArrayQueue<Slot> full;
    private final int slotCount;
    private final int slotBytes;

    /**
     * @param slotCount how many messages can be in the pipe at once.
     * @param slotBytes the largest message.
     */
    public SlotPipe(final int slotCount, final int slotBytes)
    {
        this.slotCount = slotCount;
        this.slotBytes = slotBytes;
        free = new OneToOneConcurrentArrayQueue<>(slotCount);
        full = new OneToOneConcurrentArrayQueue<>(slotCount);
        final ByteBuffer memory = ByteBuffer.allocateDirect(slotCount * slotBytes);
        for (int i = 0; i < slotCount; i++)
        {
            free.offer(new Slot(memory.slice(i * slotBytes, slotBytes)));
        }
    }

    /**
     * Producer: take a free slot to fill.
     *
     * @return the slot, or null while every slot is in use.
     */
    public Slot claim()
    {
        return free.poll();
    }

    /**
     * Producer: pass a filled slot (its {@link Slot#length()} set) to the consumer.
     *
     * @param slot from {@link #claim()}.
     */
    public void commit(final Slot slot)
    {
        full.offer(slot);
    }

    /**
     * Consumer: take the next message.
     *
     * @return its slot, or null if none is waiting.
     */
    public Slot poll()
    {
        return full.poll();
    }

    /**
     * Consumer: hand a used slot back to the producer.
     *
     * @param slot from {@link #poll()}.
     */
    public void release(final Slot slot)
    {
        free.offer(slot);
    }

    /**
     * @return free slots as the producer sees them (never more than there are).
     */
    public int freeSlots()
    {
        return free.size();
    }

    /**
     * @return whether every slot is free: the consumer has used every message committed.
     */
    public boolean isDrained()
    {
        return free.size() == slotCount;
    }

    /**
     * @return the largest message a slot holds.
     */
    public int slotBytes()
    {
        return slotBytes;
    }
}
