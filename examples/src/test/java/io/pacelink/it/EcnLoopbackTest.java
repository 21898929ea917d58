package io.pacelink.it;

import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.port.BatchedPortSupport;
import io.pacelink.transport.port.ImpairmentConfig;
import io.pacelink.transport.port.PortType;
import io.pacelink.transport.recovery.EcnValidation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * ECN over real loopback sockets. On the NIO port the sender's test packets leave ECT(0) (the port sets the socket's
 * TOS byte), but the receiver cannot read an arriving datagram's, so its ACK frames carry no ECN counts: the sender's
 * validation (RFC 9000 section 13.4.2.1) fails as for a bleaching path and it sends everything else not-ECT. On the
 * batched port the codepoints cross both ways and validation ends CAPABLE. The transfer is byte-exact either way.
 */
class EcnLoopbackTest
{
    private static final long TOTAL_BYTES = 16L << 20;
    private static final int MAX_MESSAGE_BYTES = 1 << 20;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void validationTurnsEcnOffByItselfAndTheTransferIsByteExact()
    {
        try (LoopbackPair pair = new LoopbackPair(
            (context) -> context.maxMessageLengthBytes(MAX_MESSAGE_BYTES).port(PortType.NIO),
            ImpairmentConfig.NONE,
            ImpairmentConfig.NONE))
        {
            final LoopbackTransferTest.Outcome outcome = LoopbackTransferTest.transfer(pair, TOTAL_BYTES);

            final ConnectionStats sender = outcome.sender().stats();
            assertEquals(EcnValidation.FAILED, sender.ecnState(), "validation failed");
            assertEquals(EcnValidation.BLEACHED, sender.ecnFailure(), "no counts came back");
            // Validation fails at the first ACK that acknowledges a marked packet without counts: on loopback that
            // comes before all ten test packets left.
            final long marked = sender.ecnMarkedPacketsSent();
            assertTrue(marked >= 1 && marked <= EcnValidation.TEST_PACKETS, "only test packets marked: " + marked);
            assertEquals(0, sender.ecnCeReactions());
            assertEquals(0, outcome.receiver().stats().ecnCeReceived());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void withEcnOffNothingIsMarked()
    {
        try (LoopbackPair pair = new LoopbackPair(
            (context) -> context.maxMessageLengthBytes(MAX_MESSAGE_BYTES).ecn(false).port(PortType.NIO),
            ImpairmentConfig.NONE,
            ImpairmentConfig.NONE))
        {
            final LoopbackTransferTest.Outcome outcome = LoopbackTransferTest.transfer(pair, TOTAL_BYTES);

            assertEquals(EcnValidation.DISABLED, outcome.sender().stats().ecnState());
            assertEquals(0, outcome.sender().stats().ecnMarkedPacketsSent());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void onTheBatchedPortTheCodepointsCrossAndValidationSucceeds()
    {
        assumeTrue(BatchedPortSupport.current().isAvailable() || BatchedPortSupport.isLibraryBundled(),
            BatchedPortSupport.current().toString());
        try (LoopbackPair pair = new LoopbackPair(
            (context) -> context.maxMessageLengthBytes(MAX_MESSAGE_BYTES).port(PortType.BATCHED),
            ImpairmentConfig.NONE,
            ImpairmentConfig.NONE))
        {
            final LoopbackTransferTest.Outcome outcome = LoopbackTransferTest.transfer(pair, TOTAL_BYTES);

            final ConnectionStats sender = outcome.sender().stats();
            assertEquals(EcnValidation.CAPABLE, sender.ecnState(), "validated");
            // All but those sent between the test's ten and the ACK that validated them.
            assertTrue(sender.ecnMarkedPacketsSent() > sender.packetsSent() * 9 / 10,
                sender.ecnMarkedPacketsSent() + " of " + sender.packetsSent() + " marked");
            // Loopback marks nothing.
            assertEquals(0, sender.ecnCeReported());
            assertEquals(0, outcome.receiver().stats().ecnCeReceived());
        }
    }
}
