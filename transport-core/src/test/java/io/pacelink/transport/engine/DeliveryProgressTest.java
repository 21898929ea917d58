package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.testing.TestNetwork;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sender's application-delivery counts follow what the receiving application reads during a transfer (a
 * progress bar can use them), in steps of an eighth of the receive window, never ahead of what it read; and the
 * day-one {@code bytesDelivered()} still answers, deprecated, with the wire figure it always gave.
 */
class DeliveryProgressTest
{
    private static final int MESSAGE_BYTES = 10_000;
    private static final int MESSAGES = 20;
    private static final long STEP_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final CoreTestBed bed = new CoreTestBed(TimeUnit.SECONDS.toNanos(2), TimeUnit.SECONDS.toNanos(1));

    @Test
    void deliveryCountsAdvanceAsThePeersApplicationReads()
    {
        final Connection[] pair = connect();
        final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_BYTES]);
        for (int i = 0; i < MESSAGES; i++)
        {
            assertTrue(pair[0].offer(message, 0, MESSAGE_BYTES) > 0);
        }
        bed.run(() -> pair[1].stats().streamBytesReceived() == MESSAGES * (MESSAGE_BYTES + 4L),
            TimeUnit.SECONDS.toNanos(1), "arrival");
        final ConnectionStats sent = pair[0].stats();
        assertEquals(0, sent.applicationBytesDelivered(), "arrived is not read");

        // The test bed's receive window is 256 KiB: a progress receipt per 32 KiB read.
        read(pair[1], 5);
        assertEquals(5, sent.messagesDelivered(), sent::toString);
        assertEquals(5L * MESSAGE_BYTES, sent.applicationBytesDelivered(), sent::toString);

        read(pair[1], 2);
        assertEquals(5, sent.messagesDelivered(), "20 kB more is less than an eighth of the window: " + sent);

        read(pair[1], 2);
        assertEquals(9, sent.messagesDelivered(), sent::toString);
        assertEquals(9L * MESSAGE_BYTES, sent.applicationBytesDelivered(), sent::toString);

        read(pair[1], MESSAGES - 9);
        assertEquals(MESSAGES, sent.messagesDelivered(), sent::toString);
        assertEquals((long)MESSAGES * MESSAGE_BYTES, sent.applicationBytesDelivered(), sent::toString);
    }

    @Test
    @SuppressWarnings("removal")
    void bytesDeliveredIsTheDeprecatedNameOfStreamBytesAcked()
    {
        final Connection[] pair = connect();
        final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_BYTES]);
        assertTrue(pair[0].offer(message, 0, MESSAGE_BYTES) > 0);
        bed.run(() -> pair[0].stats().streamBytesAcked() == MESSAGE_BYTES + 4L, TimeUnit.SECONDS.toNanos(1), "ack");
        assertEquals(pair[0].stats().streamBytesAcked(), pair[0].stats().bytesDelivered());
        assertTrue(pair[0].stats().toString().contains("applicationBytesOffered=" + MESSAGE_BYTES),
            pair[0].stats().toString());
    }

    private Connection[] connect()
    {
        final TestNetwork network = bed.network();
        final TestNetwork.Port serverPort = network.newPort(1000);
        final EndpointCore server = bed.newCore(serverPort, true, 16);
        final EndpointCore client = bed.newCore(network.newPort(2000), false, 16);
        return bed.connect(client, server, serverPort);
    }

    private void read(final Connection receiver, final int messages)
    {
        assertEquals(messages, receiver.poll((buffer, offset, length) -> { }, messages));
        bed.runFor(STEP_NS);
    }
}
