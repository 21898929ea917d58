package io.pacelink.link;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Deque;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class LinkPacketPoolTest
{
    private static final int LONG_BYTES = 1200;
    private static final int SHORT_BYTES = 60;

    @Test
    void aLongDatagramGetsThePacketOfTheLongOneGivenBackLastAndAShortOneThatOfTheShortOne()
    {
        final LinkPacketPool pool = new LinkPacketPool();
        final LinkPacket long1 = pool.acquire(LONG_BYTES);
        final LinkPacket short1 = pool.acquire(SHORT_BYTES);
        final LinkPacket long2 = pool.acquire(LONG_BYTES);
        final LinkPacket short2 = pool.acquire(SHORT_BYTES);
        pool.release(long1);
        pool.release(short1);
        pool.release(long2);
        pool.release(short2);

        assertSame(long2, pool.acquire(LONG_BYTES), "the long datagram's packet given back last, on top");
        assertSame(short2, pool.acquireForShort(LONG_BYTES), "the short datagram's packet given back last");
        assertSame(long1, pool.acquire(LONG_BYTES));
        assertSame(short1, pool.acquire(LONG_BYTES), "the short ones are under the long ones");
        assertEquals(0, pool.smallAvailable());
        assertEquals(4, pool.allocatedPackets());
    }

    @Test
    void aShortDatagramTakesALongOnesPacketFromTheBottomWhenNoShortOneIsLeft()
    {
        final LinkPacketPool pool = new LinkPacketPool();
        final LinkPacket first = pool.acquire(LONG_BYTES);
        final LinkPacket second = pool.acquire(LONG_BYTES);
        pool.release(first);
        pool.release(second);

        assertSame(first, pool.acquireForShort(SHORT_BYTES), "the long datagram's packet given back first");
        assertSame(second, pool.acquireForShort(SHORT_BYTES));
        assertEquals(SHORT_BYTES, second.length());
    }

    @Test
    void thePacketsKeepTheirOrderAcrossTheRingsGrowthAndAreAllocatedOnlyWhileThePopulationGrows()
    {
        final LinkPacketPool pool = new LinkPacketPool();
        final int population = 300;
        final LinkPacket[] packets = new LinkPacket[population];
        for (int i = 0; i < population; i++)
        {
            packets[i] = pool.acquire(i % 3 == 0 ? SHORT_BYTES : LONG_BYTES);
        }
        // The model: long ones pushed on top (the deque's last), short ones under everything (its first).
        final Deque<LinkPacket> model = new ArrayDeque<>();
        for (int round = 0; round < 4; round++)
        {
            for (int i = 0; i < population; i++)
            {
                final LinkPacket packet = packets[i];
                if (packet.length() > LinkPacketPool.SHORT_DATAGRAM_BYTES)
                {
                    model.addLast(packet);
                }
                else
                {
                    model.addFirst(packet);
                }
                pool.release(packet);
            }
            assertEquals(population, pool.smallAvailable());
            for (int i = 0; i < population; i++)
            {
                final boolean forShort = (i + round) % 4 == 0;
                final LinkPacket expected = forShort ? model.pollFirst() : model.pollLast();
                final LinkPacket packet = forShort ?
                    pool.acquireForShort(SHORT_BYTES) : pool.acquire(LONG_BYTES + (i % 2));
                assertSame(expected, packet, "round " + round + ", acquire " + i);
                packets[i] = packet.length(i % 5 == 0 ? SHORT_BYTES : LONG_BYTES);
            }
        }
        assertEquals(population, pool.allocatedPackets());
    }

    @Test
    void aLargeDatagramsPacketIsOfTheLargeClassWhicheverEndIsAsked()
    {
        final LinkPacketPool pool = new LinkPacketPool();
        final LinkPacket large = pool.acquire(4000);
        final LinkPacket small = pool.acquire(SHORT_BYTES);
        pool.release(large);
        pool.release(small);

        assertSame(large, pool.acquireForShort(3000));
        assertSame(small, pool.acquire(LONG_BYTES));
        assertEquals(LinkPacket.MAX_DATAGRAM_BYTES, large.data().length);
    }
}
