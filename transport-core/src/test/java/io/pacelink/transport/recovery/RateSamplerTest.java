package io.pacelink.transport.recovery;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RateSamplerTest
{
    private static final long MS = 1_000_000L;
    private static final int SIZE = 1000;

    private final SentPacketRing ring = new SentPacketRing(1024);
    private final RateSampler sampler = new RateSampler();
    private long bytesInFlight;

    private void send(final long pn, final long atMs)
    {
        final int slot = ring.add(pn, atMs * MS, SIZE, true, true, 0, 0, false, 0);
        sampler.onPacketSent(ring, slot, atMs * MS, bytesInFlight);
        bytesInFlight += SIZE;
    }

    private void deliver(final long pn, final long atMs)
    {
        sampler.onPacketDelivered(ring, ring.slot(pn), atMs * MS);
        bytesInFlight -= SIZE;
    }

    private boolean ack(final long atMs, final long minRttMs, final long... packetNumbers)
    {
        sampler.beginAck();
        for (final long pn : packetNumbers)
        {
            deliver(pn, atMs);
        }
        return sampler.generateSample(minRttMs * MS);
    }

    @Test
    void steadyDeliveryGivesTheExactRate()
    {
        // One 1000-byte packet per millisecond, each acknowledged 100 ms after it was sent: 1,000,000 bytes/s.
        int exactSamples = 0;
        for (long t = 0; t < 400; t++)
        {
            if (t >= 100)
            {
                assertTrue(ack(t, 100, t - 100));
                if (t - 100 >= 100)
                {
                    assertEquals(1_000_000L, sampler.deliveryRateBytesPerSecond(), "ack at " + t);
                    assertEquals(100 * MS, sampler.sampleIntervalNs());
                    assertEquals(100_000L, sampler.sampleDeliveredBytes());
                    exactSamples++;
                }
            }
            send(t, t);
        }
        assertEquals(200, exactSamples);
        // First flight: packet k acked at 100 + k covers k + 1 packets over 100 + k ms.
        assertEquals(300 * SIZE, sampler.deliveredBytes());
    }

    @Test
    void firstFlightSampleCoversTheAckSpan()
    {
        send(0, 0);
        send(1, 10);
        assertTrue(ack(110, 100, 1));
        // Source is packet 1: delivered 1000 since delivered-time 0, over max(10 - 0, 110 - 0) = 110 ms.
        assertEquals(110 * MS, sampler.sampleIntervalNs());
        assertEquals(9_090L, sampler.deliveryRateBytesPerSecond());
    }

    @Test
    void severalPacketsInOneAckUseTheMostRecentlySentAsSource()
    {
        send(0, 0);
        assertTrue(ack(100, 100, 0));
        // Nothing in flight: packet 1 restarts the sample clock at 100 ms.
        send(1, 100);
        send(2, 110);
        send(3, 120);

        // Delivered in scrambled order: the source must still be packet 3, the last sent.
        assertTrue(ack(220, 100, 1, 3, 2));

        assertEquals(1_000L, sampler.samplePriorDeliveredBytes());
        assertEquals(3_000L, sampler.sampleTxInFlightBytes(), "packet 3 was sent with 3 packets in flight");
        assertEquals(3_000L, sampler.sampleDeliveredBytes());
        // max(send 120 - 100, ack 220 - 100) = 120 ms: 3000 bytes / 0.12 s.
        assertEquals(120 * MS, sampler.sampleIntervalNs());
        assertEquals(25_000L, sampler.deliveryRateBytesPerSecond());
        assertEquals(120 * MS, sampler.firstSentTimeNs());
        assertEquals(220 * MS, sampler.deliveredTimeNs());
    }

    @Test
    void intervalShorterThanMinRttIsDropped()
    {
        send(0, 0);
        ack(100, 100, 0);
        send(1, 100);
        send(2, 110);

        assertFalse(ack(220, 150, 2), "interval 120 ms < min RTT 150 ms");
        assertFalse(sampler.hasSample());
        assertEquals(0, sampler.deliveryRateBytesPerSecond());
        assertTrue(sampler.hasSampleSource());
        assertEquals(120 * MS, sampler.sampleIntervalNs());
        assertEquals(1_000L, sampler.samplePriorDeliveredBytes());
    }

    @Test
    void noSampleBeforeAnRttWasMeasured()
    {
        send(0, 0);
        sampler.beginAck();
        deliver(0, 100);
        assertFalse(sampler.generateSample(Long.MAX_VALUE));
    }

    @Test
    void ackWithoutDeliveredPacketsHasNoSource()
    {
        send(0, 0);
        sampler.beginAck();
        assertFalse(sampler.generateSample(MS));
        assertFalse(sampler.hasSampleSource());
        assertEquals(0, sampler.samplePriorDeliveredBytes());
    }

    @Test
    void sampleAfterIdleUsesTheLatestSendAsFirstSentTime()
    {
        send(0, 0);
        ack(100, 100, 0);

        send(1, 1000);
        assertEquals(1000 * MS, sampler.firstSentTimeNs());
        assertEquals(1000 * MS, sampler.deliveredTimeNs());

        assertTrue(ack(1100, 100, 1));
        // Without the restart the ACK span would include 900 ms of idle time: 1000 B / 1 s.
        assertEquals(100 * MS, sampler.sampleIntervalNs());
        assertEquals(10_000L, sampler.deliveryRateBytesPerSecond());
    }

    @Test
    void appLimitedMarkIsSetAndClearedOnceDeliveredPassesIt()
    {
        send(0, 0);
        ack(100, 100, 0);
        send(1, 100);
        send(2, 101);

        // delivered 1000 + in flight 2000.
        assertTrue(sampler.checkAppLimited(0, 1200, true, bytesInFlight, 10_000, true));
        assertEquals(3_000L, sampler.appLimitedUntilBytes());
        send(3, 102);
        assertTrue(ring.isAppLimitedAtSend(ring.slot(3)));
        assertFalse(ring.isAppLimitedAtSend(ring.slot(2)));

        ack(201, 100, 1);
        assertFalse(sampler.isSampleAppLimited());
        assertEquals(3_000L, sampler.appLimitedUntilBytes(), "delivered 2000");

        ack(202, 100, 2);
        assertEquals(3_000L, sampler.appLimitedUntilBytes(), "delivered 3000 has not passed the mark");

        ack(203, 100, 3);
        assertTrue(sampler.isSampleAppLimited(), "packet 3 was sent inside the bubble");
        assertEquals(0, sampler.appLimitedUntilBytes(), "delivered 4000 passed the mark");

        send(4, 203);
        assertFalse(ring.isAppLimitedAtSend(ring.slot(4)));
    }

    @Test
    void appLimitedNeedsEveryCondition()
    {
        assertFalse(sampler.checkAppLimited(1200, 1200, true, 0, 10_000, true), "a full MSS is unsent");
        assertFalse(sampler.checkAppLimited(0, 1200, false, 0, 10_000, true), "packets wait in the pacer");
        assertFalse(sampler.checkAppLimited(0, 1200, true, 10_000, 10_000, true), "the window is full");
        assertFalse(sampler.checkAppLimited(0, 1200, true, 0, 10_000, false), "lost data awaits retransmission");
        assertEquals(0, sampler.appLimitedUntilBytes());

        assertTrue(sampler.checkAppLimited(1199, 1200, true, 0, 10_000, true));
        assertEquals(1, sampler.appLimitedUntilBytes(), "never 0 while marked");
    }

    @Test
    void lostBytesBetweenSourceSendAndAckAreReported()
    {
        send(0, 0);
        ack(100, 100, 0);
        send(1, 100);
        send(2, 110);
        send(3, 120);

        sampler.beginAck();
        deliver(3, 220);
        sampler.onPacketLost(SIZE);
        bytesInFlight -= SIZE;
        assertTrue(sampler.generateSample(100 * MS));

        assertEquals(1_000L, sampler.sampleLostBytes());
        assertEquals(1_000L, sampler.lostBytes());
    }
}
