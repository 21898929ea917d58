package io.pacelink.link;

import io.pacelink.transport.wire.EcnCodepoint;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code qdisc=red} against Floyd and Jacobson's RED as Linux codes it ({@code include/net/red.h}, {@code sch_red.c})
 * and as tc derives its parameters ({@code tc_red.c}).
 */
class RedQueueTest
{
    private static final int PACKET_BYTES = 1000;
    private static final long MS = 1_000_000L;

    private final ArrayDeque<LinkPacket> free = new ArrayDeque<>();

    @Test
    void parametersDeriveAsTcDerivesThem()
    {
        // limit 120 kB: max = limit / 4, min = max / 3, burst = (2 min + max) / (3 avpkt) = 16 packets, and the
        // largest W = 2^-n with 16 + 1 - min / avpkt <= (1 - (1 - W)^16) / W is 1/8.
        final RedParameters parameters = RedParameters.from(AqmSpec.DEFAULT, 120_000, 8_000_000);
        assertEquals(30_000, parameters.maxBytes());
        assertEquals(10_000, parameters.minBytes());
        assertEquals(0.125, parameters.weight());
        assertEquals(0.02, parameters.maxProbability());
        assertEquals(1_000_000, parameters.idlePacketNs(), "1000 bytes at 8 Mbit/s");

        assertThrows(IllegalArgumentException.class, () -> RedParameters.from(
            new AqmSpec(AqmSpec.Toggle.ON, 0, 200_000, 0.02, 1000, 0, false, false, 0), 120_000, 8_000_000),
            "max above the limit");
        assertThrows(IllegalArgumentException.class, () -> RedParameters.from(AqmSpec.DEFAULT, 8, 8_000_000),
            "thresholds of 0 and 2 bytes");
    }

    @Test
    void belowMinNothingIsMarkedAboveMaxEverythingIs()
    {
        final RedQueue red = queue(true, false);
        hold(red, 5, 200);   // 5 kB < min 10 kB
        assertEquals(0, red.markedPackets());
        assertEquals(0, red.droppedPackets());

        hold(red, 40, 400); // 40 kB > max 30 kB: once the average is there, every arrival is marked
        final long marksBefore = red.markedPackets();
        hold(red, 40, 100);
        assertEquals(marksBefore + 100, red.markedPackets());
        assertTrue(red.red().averageBytes(0) >= 30_000);
        assertEquals(0, red.droppedPackets(), "ECN-capable packets are marked, never dropped");
    }

    @Test
    void withoutEcnOrWithHarddropTheMarksAreDrops()
    {
        final RedQueue noEcn = queue(false, false);
        hold(noEcn, 40, 400);
        assertEquals(0, noEcn.markedPackets());
        assertTrue(noEcn.red().forcedDrops() + noEcn.red().probabilityDrops() > 100, "dropped where it would mark");

        final RedQueue hardDrop = queue(true, true);
        hold(hardDrop, 20, 2_000);
        assertTrue(hardDrop.markedPackets() > 0, "between the thresholds they are still marked");
        assertEquals(0, hardDrop.droppedPackets());
        hold(hardDrop, 40, 400);
        assertTrue(hardDrop.red().forcedDrops() > 0, "above max harddrop drops ECN-capable packets too");
    }

    @Test
    void notEcnCapablePacketsAreDroppedWhereTheOthersWouldBeMarked()
    {
        final RedQueue red = queue(true, false);
        hold(red, 40, 400);
        final LinkPacket plain = packet(EcnCodepoint.NOT_ECT);
        assertSame(plain, red.enqueue(plain, 0), "above max: dropped");
        final LinkPacket ce = packet(EcnCodepoint.CE);
        assertNull(red.enqueue(ce, 0), "already CE: stays CE and passes");
        assertEquals(EcnCodepoint.CE, ce.ecnCodepoint());
    }

    @Test
    void betweenTheThresholdsMarksAreSpreadUniformly()
    {
        // Every arrival finds 20 kB: the average settles there, p_b = 0.02 * (20 - 10) / (30 - 10) = 0.01. Linux marks
        // once p_b * count reaches a uniform draw, so the gap between marks is uniform in [1, 1/p_b]: a mark every
        // (1/p_b + 1) / 2 = 50.5 arrivals on average.
        final RedQueue red = queue(true, false);
        hold(red, 20, 200);
        final long before = red.markedPackets();
        final int arrivals = 200_000;
        hold(red, 20, arrivals);
        final double gap = (double)arrivals / (red.markedPackets() - before);
        assertTrue(gap > 48 && gap < 53, "mean arrivals between marks " + gap);
    }

    @Test
    void theAverageDecaysWhileTheQueueIsIdle()
    {
        final RedQueue red = queue(true, false);
        hold(red, 20, 500);
        final double busyAverage = red.red().averageBytes(0);
        while (null != red.dequeue(0))
        {
            // drain
        }
        assertNull(red.dequeue(0), "the queue goes idle at 0");
        // 16 packet times at 8 Mbit/s: the average shrinks by (1 - W)^16 = (7/8)^16.
        red.enqueue(packet(EcnCodepoint.ECT_0), 16 * MS);
        assertEquals(busyAverage * Math.pow(0.875, 16), red.red().averageBytes(0), busyAverage * 1e-9);
    }

    /**
     * {@code arrivals} ECT(0) arrivals, each served once more than {@code backlogPackets} are queued: once filled,
     * every arrival finds that backlog.
     */
    private void hold(final RedQueue red, final int backlogPackets, final int arrivals)
    {
        for (int i = 0; i < arrivals; i++)
        {
            recycle(red.enqueue(packet(EcnCodepoint.ECT_0), 0));
            while (red.packetCount() > backlogPackets)
            {
                recycle(red.dequeue(0));
            }
        }
    }

    private RedQueue queue(final boolean ecn, final boolean hardDrop)
    {
        return new RedQueue(1_000, 120_000, RedParameters.from(AqmSpec.DEFAULT, 120_000, 8_000_000), ecn, hardDrop, 7);
    }

    private LinkPacket packet(final int codepoint)
    {
        final LinkPacket packet = free.isEmpty() ? new LinkPacket(PACKET_BYTES) : free.poll();
        return packet.length(PACKET_BYTES).ecnCodepoint(codepoint);
    }

    private void recycle(final LinkPacket packet)
    {
        if (null != packet)
        {
            free.add(packet);
        }
    }
}
