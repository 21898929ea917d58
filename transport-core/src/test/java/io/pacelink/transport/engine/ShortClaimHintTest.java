package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.SendBatch;
import io.pacelink.transport.port.SendMemory;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The endpoint tells its port's memory which datagrams it expects to be short: a packet the scheduler released for an
 * ACK alone is claimed as short, a data packet never is (the simulator's port then gives an ACK a packet that last
 * carried an ACK, and data a packet whose bytes a receiver just read: {@code LinkPacketPool}).
 */
class ShortClaimHintTest
{
    private static final int MESSAGES = 300;
    private static final int SHORT_BYTES = 200;

    @Test
    void anAckAloneIsClaimedAsShortAndADataPacketNever()
    {
        final CoreTestBed bed = new CoreTestBed(TimeUnit.SECONDS.toNanos(30), TimeUnit.SECONDS.toNanos(1));
        final HintRecordingPort serverPort = new HintRecordingPort(bed.network().newPort(1000));
        final HintRecordingPort clientPort = new HintRecordingPort(bed.network().newPort(2000));
        final EndpointCore server = bed.newCore(serverPort, true, 4, new PacelinkContext(), new ArrayList<>(), null);
        final EndpointCore client = bed.newCore(clientPort, false, 4, new PacelinkContext(), new ArrayList<>(), null);
        final Connection[] pair = bed.connect(client, server, serverPort);
        bed.runFor(TimeUnit.MILLISECONDS.toNanos(100)); // the handshake's last packets sent
        serverPort.counting = true;
        clientPort.counting = true;

        new NumberedTransfer(bed, () -> { }).transfer(pair[0], pair[1], MESSAGES);

        // The receiver sends ACKs alone, and now and then a flow-control update (ack-eliciting, so not an ACK alone).
        assertTrue(serverPort.shortClaims * 2 > serverPort.datagrams,
            "the receiver's ACKs claimed as short: " + serverPort.shortClaims + " of " + serverPort.datagrams);
        assertEquals(0, serverPort.longSentAsShort + clientPort.longSentAsShort, "no long datagram claimed as short");
        assertTrue(clientPort.datagrams - clientPort.shortClaims > MESSAGES / 2,
            "the sender's data claimed as long: " + (clientPort.datagrams - clientPort.shortClaims));
    }

    /**
     * Lends no memory (the datagrams are written in the batch's buffer, as before) but records, per entry, whether
     * the endpoint expected it short, and checks that against the length it was sent with; counts from when told.
     */
    private static final class HintRecordingPort extends ForwardingDatagramPort
    {
        private final boolean[] expectedShort = new boolean[1024];
        private int datagrams;
        private int shortClaims;
        private int longSentAsShort;
        private boolean counting;

        HintRecordingPort(final DatagramPort port)
        {
            super(port);
        }

        public SendBatch newSendBatch(final int maxDatagrams, final int capacityBytes)
        {
            return new SendBatch(maxDatagrams, capacityBytes, new SendMemory()
            {
                public UnsafeBuffer lend(final int index, final int maxLengthBytes)
                {
                    throw new AssertionError("the endpoint always says whether it expects a short datagram");
                }

                public UnsafeBuffer lend(final int index, final int maxLengthBytes, final boolean isShort)
                {
                    expectedShort[index] = isShort;
                    return null;
                }
            });
        }

        public int send(final SendBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                if (counting)
                {
                    datagrams++;
                    shortClaims += expectedShort[i] ? 1 : 0;
                }
                longSentAsShort += expectedShort[i] && batch.length(i) > SHORT_BYTES ? 1 : 0;
                expectedShort[i] = false;
            }
            return port.send(batch);
        }
    }
}
