package io.pacelink.link;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class FifoQueueTest
{
    @Test
    void keepsArrivalOrderAcrossGrowth()
    {
        final FifoQueue queue = new FifoQueue(Integer.MAX_VALUE, Long.MAX_VALUE);
        final LinkPacket[] packets = new LinkPacket[300];
        for (int i = 0; i < packets.length; i++)
        {
            packets[i] = new LinkPacket(16).length(10);
            if (i == 100)
            {
                assertSame(packets[0], queue.dequeue(0));
            }
            assertNull(queue.enqueue(packets[i], 0));
        }
        assertEquals(299, queue.packetCount());
        assertEquals(2990, queue.byteCount());
        for (int i = 1; i < packets.length; i++)
        {
            assertSame(packets[i], queue.dequeue(0));
        }
        assertNull(queue.dequeue(0));
        assertEquals(0, queue.byteCount());
    }

    @Test
    void dropsTheArrivalWhenFull()
    {
        final FifoQueue queue = new FifoQueue(2, 250);
        final LinkPacket a = new LinkPacket(200).length(100);
        final LinkPacket b = new LinkPacket(200).length(100);
        final LinkPacket tooBig = new LinkPacket(200).length(51);
        final LinkPacket small = new LinkPacket(200).length(50);
        final LinkPacket third = new LinkPacket(200).length(1);

        assertNull(queue.enqueue(a, 0));
        assertNull(queue.enqueue(b, 0));
        assertSame(tooBig, queue.enqueue(tooBig, 0));
        assertSame(third, queue.enqueue(third, 0));
        queue.dequeue(0);
        assertNull(queue.enqueue(small, 0));
        assertEquals(2, queue.droppedPackets());
    }

    @Test
    void isFoundByNameThroughServiceLoader()
    {
        assertEquals("fifo", BottleneckQueues.factory("fifo").name());
        assertInstanceOf(FifoQueue.class,
            BottleneckQueues.newQueue(PathSpec.parse("queue=5p"), 0, 0, (packet, nowNs) -> { }));
    }
}
