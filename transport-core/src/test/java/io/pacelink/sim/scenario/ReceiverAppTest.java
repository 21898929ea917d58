package io.pacelink.sim.scenario;

import io.pacelink.sim.results.FlowResults;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionOutcome;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.MessagePartHandler;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

class ReceiverAppTest
{
    private static final long SECOND_NS = 1_000_000_000L;

    @Test
    void aMessageInPartsCountsOnceAtItsLastPartWithItsWholeLength()
    {
        final FlowResults results = new FlowResults("flow", SECOND_NS);
        final ReceiverApp app = new ReceiverApp(results, AppPattern.bulk());
        final UnsafeBuffer bytes = new UnsafeBuffer(new byte[16 * 1024]);
        final List<byte[]> responses = new ArrayList<>();
        app.onAccepted(connection(responses, (handler) ->
        {
            // Taken in parts, never as a contiguous copy: the log hands a part handler the parts in place.
            final MessagePartHandler parts = assertInstanceOf(MessagePartHandler.class, handler);
            parts.onMessagePart(bytes, 0, 100, 0, 16_384);
            assertEquals(0, results.deliveredBytes(), "not before its last part");
            parts.onMessagePart(bytes, 100, 10_000, 100, 16_384);
            parts.onMessagePart(bytes, 10_100, 6_284, 10_100, 16_384);
            handler.onMessage(bytes, 0, 1_000);
        }));

        app.afterWork(SECOND_NS);

        assertEquals(16_384 + 1_000, results.deliveredBytes());
        assertEquals(List.of(), responses, "a bulk flow answers nothing");
    }

    @Test
    void aRequestInPartsIsAnsweredOnceWithItsFirstEightBytesThoughTheyLieAcrossTwoParts()
    {
        final FlowResults results = new FlowResults("flow", SECOND_NS);
        final ReceiverApp app = new ReceiverApp(results, AppPattern.requestResponse(100, 16, SECOND_NS));
        final UnsafeBuffer request = new UnsafeBuffer(new byte[100]);
        request.putLong(0, 0x0102030405060708L);
        final List<byte[]> responses = new ArrayList<>();
        app.onAccepted(connection(responses, (handler) ->
        {
            final MessagePartHandler parts = (MessagePartHandler)handler;
            parts.onMessagePart(request, 0, 3, 0, 100);
            parts.onMessagePart(request, 3, 97, 3, 100);
            handler.onMessage(request, 0, 100);
        }));

        final int offered = app.afterWork(SECOND_NS);

        assertEquals(2, offered);
        assertEquals(200, results.deliveredBytes());
        final byte[] expected = new byte[16];
        request.getBytes(0, expected, 0, Long.BYTES);
        assertArrayEquals(expected, responses.get(0), "echoed from two parts");
        assertArrayEquals(expected, responses.get(1), "echoed whole");
    }

    /**
     * A connection whose poll hands the handler what {@code delivery} gives it and whose offer records each message.
     */
    private static Connection connection(final List<byte[]> offered, final Consumer<MessageHandler> delivery)
    {
        return (Connection)Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
            (proxy, method, args) ->
            {
                switch (method.getName())
                {
                    case "poll":
                        delivery.accept((MessageHandler)args[0]);
                        return 1;
                    case "offer":
                        final byte[] message = new byte[(Integer)args[2]];
                        ((DirectBuffer)args[0]).getBytes((Integer)args[1], message);
                        offered.add(message);
                        return (long)message.length;
                    case "outcome":
                        return ConnectionOutcome.OPEN;
                    default:
                        throw new UnsupportedOperationException(method.getName());
                }
            });
    }
}
