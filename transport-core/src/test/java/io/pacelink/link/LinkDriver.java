package io.pacelink.link;

import org.agrona.collections.LongArrayList;

import java.util.Arrays;

/**
 * Drives a {@link LinkDirection} through hand-picked virtual times: offers numbered packets (the number in the
 * first four payload bytes) and records when each is delivered.
 */
final class LinkDriver
{
    final LinkPacketPool pool = new LinkPacketPool();
    final LinkDirection link;
    final LongArrayList deliveryTimesNs = new LongArrayList();
    final LongArrayList deliveredNumbers = new LongArrayList();
    final LongArrayList offerTimesNs = new LongArrayList();
    byte[] lastDelivered;
    /**
     * True to come back only at {@link LinkDirection#nextDeliveryBoundNs()}, as the simulator's links do, instead of
     * at every serialization's end ({@link LinkDirection#nextEventTimeNs()}).
     */
    boolean deliveriesOnly;
    /**
     * Times the driver came back and found nothing to deliver.
     */
    int emptyWakes;

    LinkDriver(final String spec, final long seed)
    {
        final PathSpec pathSpec = PathSpec.parse(spec);
        this.link = new LinkDirection(pathSpec, 2 * pathSpec.delayNs(), seed, pool);
    }

    LinkDriver(final PathSpec spec, final long seed)
    {
        this.link = new LinkDirection(spec, 2 * spec.delayNs(), seed, pool);
    }

    boolean offer(final long timeNs, final int lengthBytes)
    {
        runUntil(timeNs);
        final int number = offerTimesNs.size();
        offerTimesNs.addLong(timeNs);
        final LinkPacket packet = pool.acquire(lengthBytes);
        Arrays.fill(packet.data(), 0, lengthBytes, (byte)0);
        if (lengthBytes >= 4)
        {
            writeNumber(packet.data(), number);
        }
        return link.offer(packet, timeNs);
    }

    void runUntil(final long timeNs)
    {
        long nextNs;
        while ((nextNs = deliveriesOnly ? link.nextDeliveryBoundNs() : link.nextEventTimeNs()) <= timeNs)
        {
            LinkPacket packet = link.poll(nextNs);
            if (null == packet)
            {
                emptyWakes++;
            }
            for (; null != packet; packet = link.poll(nextNs))
            {
                deliveryTimesNs.addLong(nextNs);
                deliveredNumbers.addLong(packet.length() >= 4 ? readNumber(packet.data()) : -1);
                onDelivered(packet);
                pool.release(packet);
            }
        }
    }

    void runToEnd()
    {
        runUntil(Long.MAX_VALUE - 1);
    }

    private void onDelivered(final LinkPacket packet)
    {
        lastDelivered = Arrays.copyOf(packet.data(), packet.length());
    }

    long oneWayDelayNs(final int delivery)
    {
        return deliveryTimesNs.getLong(delivery) - offerTimesNs.getLong((int)deliveredNumbers.getLong(delivery));
    }

    int reorderings()
    {
        int reordered = 0;
        long highest = -1;
        for (int i = 0; i < deliveredNumbers.size(); i++)
        {
            final long number = deliveredNumbers.getLong(i);
            if (number < highest)
            {
                reordered++;
            }
            highest = Math.max(highest, number);
        }
        return reordered;
    }

    private static void writeNumber(final byte[] data, final int number)
    {
        data[0] = (byte)(number >>> 24);
        data[1] = (byte)(number >>> 16);
        data[2] = (byte)(number >>> 8);
        data[3] = (byte)number;
    }

    private static long readNumber(final byte[] data)
    {
        return ((data[0] & 0xFFL) << 24) | ((data[1] & 0xFFL) << 16) | ((data[2] & 0xFFL) << 8) | (data[3] & 0xFFL);
    }
}
