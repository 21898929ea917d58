package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.testing.TestNetwork;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The day-one {@code ConnectionStats.bytesDelivered()} still answers, deprecated, with the wire figure it always gave
 * ({@code streamBytesAcked()}); and a {@code ConnectionStats} says what it holds. (The progress receipts that make the
 * application-delivery counts advance during a transfer need a window larger than this test bed's: see
 * {@code io.pacelink.it.DeliveryProgressTest} in examples.)
 */
class DeliveryProgressTest
{
    private static final int MESSAGE_BYTES = 10_000;

    private final CoreTestBed bed = new CoreTestBed(TimeUnit.SECONDS.toNanos(2), TimeUnit.SECONDS.toNanos(1));

    @Test
    @SuppressWarnings("removal")
    void bytesDeliveredIsTheDeprecatedNameOfStreamBytesAcked()
    {
        final TestNetwork network = bed.network();
        final TestNetwork.Port serverPort = network.newPort(1000);
        final EndpointCore server = bed.newCore(serverPort, true, 16);
        final EndpointCore client = bed.newCore(network.newPort(2000), false, 16);
        final Connection[] pair = bed.connect(client, server, serverPort);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_BYTES]);
        assertTrue(pair[0].offer(message, 0, MESSAGE_BYTES) > 0);
        bed.run(() -> pair[0].stats().streamBytesAcked() == MESSAGE_BYTES + 4L, TimeUnit.SECONDS.toNanos(1), "ack");
        assertEquals(pair[0].stats().streamBytesAcked(), pair[0].stats().bytesDelivered());
        assertTrue(pair[0].stats().toString().contains("applicationBytesOffered=" + MESSAGE_BYTES),
            pair[0].stats().toString());
    }
}
