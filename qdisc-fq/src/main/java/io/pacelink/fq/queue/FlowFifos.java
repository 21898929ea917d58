package io.pacelink.fq.queue;

import io.pacelink.link.LinkPacket;

import java.util.Arrays;

/**
 * One packet FIFO per flow index, all sharing one pool of slots: intrusive doubly linked lists threaded through
 * parallel arrays, so a packet can be taken from either end of its flow (head drop for fq_codel, tail drop for sfq)
 * in O(1). Keeps per-flow and total packet and byte counts. No allocation once the pool and the flow arrays have
 * grown to the queue's working size.
 */
final class FlowFifos
{
    private static final int NONE = -1;

    private LinkPacket[] slotPackets;
    private int[] slotNext;
    private int[] slotPrevious;
    private int freeSlot = NONE;

    private int[] heads;
    private int[] tails;
    private int[] packetCounts;
    private long[] byteCounts;

    private int totalPackets;
    private long totalBytes;

    FlowFifos(final int flowCapacity, final int slotCapacity)
    {
        slotPackets = new LinkPacket[0];
        slotNext = new int[0];
        slotPrevious = new int[0];
        growSlots(Math.max(1, slotCapacity));

        heads = new int[0];
        tails = new int[0];
        packetCounts = new int[0];
        byteCounts = new long[0];
        ensureFlowCapacity(flowCapacity);
    }

    /**
     * @param flowCapacity the number of flow indices the FIFOs must accept.
     */
    void ensureFlowCapacity(final int flowCapacity)
    {
        final int oldCapacity = heads.length;
        if (flowCapacity <= oldCapacity)
        {
            return;
        }
        heads = Arrays.copyOf(heads, flowCapacity);
        tails = Arrays.copyOf(tails, flowCapacity);
        packetCounts = Arrays.copyOf(packetCounts, flowCapacity);
        byteCounts = Arrays.copyOf(byteCounts, flowCapacity);
        Arrays.fill(heads, oldCapacity, flowCapacity, NONE);
        Arrays.fill(tails, oldCapacity, flowCapacity, NONE);
    }

    int flowCapacity()
    {
        return heads.length;
    }

    void append(final int flow, final LinkPacket packet)
    {
        if (NONE == freeSlot)
        {
            growSlots(slotPackets.length * 2);
        }
        final int slot = freeSlot;
        freeSlot = slotNext[slot];

        slotPackets[slot] = packet;
        slotNext[slot] = NONE;
        slotPrevious[slot] = tails[flow];
        if (NONE == tails[flow])
        {
            heads[flow] = slot;
        }
        else
        {
            slotNext[tails[flow]] = slot;
        }
        tails[flow] = slot;

        final int length = packet.length();
        packetCounts[flow]++;
        byteCounts[flow] += length;
        totalPackets++;
        totalBytes += length;
    }

    /**
     * @return the oldest packet of the flow, removed, or null if the flow is empty.
     */
    LinkPacket pollHead(final int flow)
    {
        final int slot = heads[flow];
        return NONE == slot ? null : remove(flow, slot);
    }

    /**
     * @return the oldest packet of the flow, left in place, or null if the flow is empty.
     */
    LinkPacket peekHead(final int flow)
    {
        final int slot = heads[flow];
        return NONE == slot ? null : slotPackets[slot];
    }

    /**
     * @return the newest packet of the flow, removed, or null if the flow is empty.
     */
    LinkPacket pollTail(final int flow)
    {
        final int slot = tails[flow];
        return NONE == slot ? null : remove(flow, slot);
    }

    int packets(final int flow)
    {
        return packetCounts[flow];
    }

    long bytes(final int flow)
    {
        return byteCounts[flow];
    }

    int totalPackets()
    {
        return totalPackets;
    }

    long totalBytes()
    {
        return totalBytes;
    }

    /**
     * @return the flow holding the most bytes (the lowest index among equals), or -1 if all are empty.
     */
    int flowWithMostBytes()
    {
        int fattest = NONE;
        long mostBytes = 0;
        for (int flow = 0, capacity = byteCounts.length; flow < capacity; flow++)
        {
            if (byteCounts[flow] > mostBytes)
            {
                mostBytes = byteCounts[flow];
                fattest = flow;
            }
        }
        return fattest;
    }

    /**
     * @return the flow holding the most packets (the lowest index among equals), or -1 if all are empty.
     */
    int flowWithMostPackets()
    {
        int longest = NONE;
        int mostPackets = 0;
        for (int flow = 0, capacity = packetCounts.length; flow < capacity; flow++)
        {
            if (packetCounts[flow] > mostPackets)
            {
                mostPackets = packetCounts[flow];
                longest = flow;
            }
        }
        return longest;
    }

    private LinkPacket remove(final int flow, final int slot)
    {
        final LinkPacket packet = slotPackets[slot];
        final int next = slotNext[slot];
        final int previous = slotPrevious[slot];
        if (NONE == previous)
        {
            heads[flow] = next;
        }
        else
        {
            slotNext[previous] = next;
        }
        if (NONE == next)
        {
            tails[flow] = previous;
        }
        else
        {
            slotPrevious[next] = previous;
        }

        slotPackets[slot] = null;
        slotNext[slot] = freeSlot;
        freeSlot = slot;

        final int length = packet.length();
        packetCounts[flow]--;
        byteCounts[flow] -= length;
        totalPackets--;
        totalBytes -= length;
        return packet;
    }

    private void growSlots(final int newCapacity)
    {
        final int oldCapacity = slotPackets.length;
        slotPackets = Arrays.copyOf(slotPackets, newCapacity);
        slotNext = Arrays.copyOf(slotNext, newCapacity);
        slotPrevious = Arrays.copyOf(slotPrevious, newCapacity);
        for (int slot = newCapacity - 1; slot >= oldCapacity; slot--)
        {
            slotNext[slot] = freeSlot;
            freeSlot = slot;
        }
    }
}
