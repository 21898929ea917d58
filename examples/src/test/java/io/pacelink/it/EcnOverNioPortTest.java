package io.pacelink.it;

import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.port.ImpairmentConfig;
import io.pacelink.transport.recovery.EcnValidation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * ECN on the NIO port, over real loopback sockets: the port sets the socket's TOS byte, so the sender's test packets
 * leave ECT(0), but it cannot read an arriving datagram's, so the receiver's ACK frames carry no ECN counts. The
 * sender's validation (RFC 9000 section 13.4.2.1) then fails as for a bleaching path and it sends everything else
 * not-ECT; the transfer is byte-exact either way.
 */
class EcnOverNioPortTest
{
    private static final long TOTAL_BYTES = 16L << 20;
    private static final int MAX_MESSAGE_BYTES = 1 << 20;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void validationTurnsEcnOffByItselfAndTheTransferIsByteExact()
    {
        try (LoopbackPair pair = new LoopbackPair(
            (context) -> context.maxMessageLengthBytes(MAX_MESSAGE_BYTES),
            ImpairmentConfig.NONE,
            ImpairmentConfig.NONE))
        {
            final LoopbackTransferTest.Outcome outcome = LoopbackTransferTest.transfer(pair, TOTAL_BYTES);

            final ConnectionStats sender = outcome.sender().stats();
            assertEquals(EcnValidation.FAILED, sender.ecnState(), "validation failed");
            assertEquals(EcnValidation.BLEACHED, sender.ecnFailure(), "no counts came back");
            assertEquals(EcnValidation.TEST_PACKETS, sender.ecnMarkedPacketsSent(), "only the test's packets");
            assertEquals(0, sender.ecnCeReactions());
            assertEquals(0, outcome.receiver().stats().ecnCeReceived());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void withEcnOffNothingIsMarked()
    {
        try (LoopbackPair pair = new LoopbackPair(
            (context) -> context.maxMessageLengthBytes(MAX_MESSAGE_BYTES).ecn(false),
            ImpairmentConfig.NONE,
            ImpairmentConfig.NONE))
        {
            final LoopbackTransferTest.Outcome outcome = LoopbackTransferTest.transfer(pair, TOTAL_BYTES);

            assertEquals(EcnValidation.DISABLED, outcome.sender().stats().ecnState());
            assertEquals(0, outcome.sender().stats().ecnMarkedPacketsSent());
        }
    }
}
