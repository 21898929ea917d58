package io.pacelink.link;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class DelayLineTest
{
    @Test
    void anInOrderLineReadsEachPacketOnceAheadOfItsDeliveryAndDeliversInOrder()
    {
        final DelayLine line = new DelayLine(true);
        final LinkPacket[] packets = packets(200);
        for (int i = 0; i < 20; i++)
        {
            line.add(1_000L * i, i, packets[i]);
        }

        assertSame(packets[0], line.remove());
        // The next eight are read in one go, before any of them is delivered.
        assertEquals(readSum(packets, 1, 9), line.warmedSum());

        for (int i = 1; i <= 4; i++)
        {
            assertSame(packets[i], line.remove());
            assertEquals(readSum(packets, 1, 9), line.warmedSum(), "nothing read again while four are left read");
        }
        assertSame(packets[5], line.remove());
        assertEquals(readSum(packets, 1, 14), line.warmedSum(), "topped up to eight past the head");

        // Across the ring's growth (64 to 256 places) and with packets added while others leave.
        for (int i = 20; i < packets.length; i++)
        {
            line.add(1_000L * i, i, packets[i]);
        }
        for (int i = 6; i < packets.length; i++)
        {
            assertSame(packets[i], line.remove());
        }
        assertEquals(0, line.size());
        assertEquals(readSum(packets, 1, packets.length), line.warmedSum(), "every packet but the first read once");
    }

    @Test
    void aLineThatReordersReadsNothingAhead()
    {
        final DelayLine line = new DelayLine(false);
        final LinkPacket[] packets = packets(20);
        for (int i = 0; i < packets.length; i++)
        {
            line.add(1_000L * (packets.length - i), i, packets[i]);
        }
        for (int i = packets.length - 1; i >= 0; i--)
        {
            assertSame(packets[i], line.remove());
        }
        assertEquals(0, line.warmedSum());
    }

    private static LinkPacket[] packets(final int count)
    {
        final LinkPacket[] packets = new LinkPacket[count];
        for (int i = 0; i < count; i++)
        {
            packets[i] = new LinkPacket(64).length(20 + i).sequence(1_000 + i).destination("host-" + i);
        }
        return packets;
    }

    private static long readSum(final LinkPacket[] packets, final int from, final int to)
    {
        long sum = 0;
        for (int i = from; i < to; i++)
        {
            final LinkPacket packet = packets[i];
            sum += packet.length() + packet.sequence() + 1;
        }
        return sum;
    }
}
