package io.pacelink.transport.stream;

import io.pacelink.transport.MessageHandler;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * 64 MiB of messages through 1 MiB logs on three threads, as the engine uses them: an application thread offers,
 * an agent thread moves bytes from the send log to the receive log in packets with seeded loss, reordering and
 * duplication (and acknowledges what it delivered), and an application thread polls and checks every byte in order.
 * Once with the send log bounded only by its capacity, once with an unsent low watermark of 16 KiB, which the agent
 * checks after every packet: the bytes offered and not yet sent never exceed the mark by more than one record,
 * however the two threads interleave.
 */
class StreamLogsConcurrencyTest
{
    private static final int LOG_CAPACITY = 1 << 20;
    private static final int MAX_MESSAGE = 64 * 1024;
    private static final long TOTAL_PAYLOAD_BYTES = 64L << 20;
    private static final int PACKET_PAYLOAD = 1200;
    private static final long LENGTH_SEED = 11;
    private static final long NETWORK_SEED = 23;
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    private SendLog sendLog;
    private long mostUnsentBytes = Long.MAX_VALUE;
    private final ReceiveLog receiveLog = new ReceiveLog(LOG_CAPACITY, MAX_MESSAGE);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicLong messagesOffered = new AtomicLong();
    private final long deadlineNs = System.nanoTime() + TIMEOUT_NS;

    @ParameterizedTest
    @ValueSource(ints = {LOG_CAPACITY, 16 * 1024})
    void shouldDeliverEveryMessageByteExactInOrderAcrossThreads(final int unsentLowWatermarkBytes)
        throws InterruptedException
    {
        sendLog = new SendLog(LOG_CAPACITY, MAX_MESSAGE, unsentLowWatermarkBytes);
        // An offer is accepted only below the mark as the agent last published its send position, which is never
        // ahead of where it is: the record it accepts may take the unsent bytes at most one record past the mark.
        mostUnsentBytes = (long)unsentLowWatermarkBytes - 1 + SendLog.LENGTH_PREFIX_BYTES + MAX_MESSAGE;
        final Consumer consumer = new Consumer();
        final Agent agent = new Agent();
        final Thread[] threads = {
            new Thread(guarded(this::produce), "producer"),
            new Thread(guarded(agent::run), "agent"),
            new Thread(guarded(consumer::run), "consumer") };
        for (final Thread thread : threads)
        {
            thread.start();
        }
        for (final Thread thread : threads)
        {
            thread.join(TimeUnit.NANOSECONDS.toMillis(TIMEOUT_NS) + 5_000);
        }

        if (null != failure.get())
        {
            throw new AssertionError("failed: agent=" + agent + " consumer=" + consumer, failure.get());
        }
        assertEquals(messagesOffered.get(), consumer.messages);
        assertTrue(consumer.payloadBytes >= TOTAL_PAYLOAD_BYTES);
        assertTrue(agent.lostPackets > 1_000, "losses exercised: " + agent.lostPackets);
        assertTrue(agent.reorderedPackets > 1_000, "reordering exercised: " + agent.reorderedPackets);
        assertTrue(agent.duplicatedPackets > 1_000, "duplicates exercised: " + agent.duplicatedPackets);
        assertTrue(sendLog.isFullyAcked());
        assertTrue(receiveLog.isFinished());
    }

    private static int nextLength(final Random random)
    {
        return random.nextInt(8) == 0 ? random.nextInt(MAX_MESSAGE + 1) : random.nextInt(600);
    }

    private void produce()
    {
        final Random lengths = new Random(LENGTH_SEED);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[MAX_MESSAGE]);
        long payloadBytes = 0;
        long sequence = 0;
        while (payloadBytes < TOTAL_PAYLOAD_BYTES)
        {
            final int length = nextLength(lengths);
            StreamBytes.fillPayload(message, 0, sequence, length);
            long result;
            while ((result = sendLog.offer(message, 0, length)) == OfferResult.BACK_PRESSURED)
            {
                checkDeadline("producer back-pressured");
            }
            assertTrue(result > 0, OfferResult.describe(result));
            payloadBytes += length;
            sequence++;
        }
        messagesOffered.set(sequence);
        sendLog.finish();
    }

    private Runnable guarded(final Runnable task)
    {
        return () ->
        {
            try
            {
                task.run();
            }
            catch (final Throwable ex)
            {
                failure.compareAndSet(null, ex);
            }
        };
    }

    private void checkDeadline(final String what)
    {
        if (null != failure.get())
        {
            throw new IllegalStateException("another thread failed");
        }
        if (System.nanoTime() > deadlineNs)
        {
            fail("timed out: " + what);
        }
        Thread.onSpinWait();
    }

    private final class Agent
    {
        private final Random network = new Random(NETWORK_SEED);
        private final UnsafeBuffer packet = new UnsafeBuffer(new byte[PACKET_PAYLOAD]);
        private final UnsafeBuffer delayed = new UnsafeBuffer(new byte[PACKET_PAYLOAD]);
        private long delayedOffset = -1;
        private int delayedLength;
        private boolean delayedFin;
        long lostPackets;
        long reorderedPackets;
        long duplicatedPackets;
        long packets;

        void run()
        {
            while (!(sendLog.isFinished() && sendLog.isFullyAcked()))
            {
                // Credit as the engine grants it: the receive log can take data up to consumed + capacity.
                final long credit = receiveLog.consumedHead() + receiveLog.capacity();
                sendLog.connectionSendLimit(credit);
                sendLog.streamSendLimit(credit);

                int built = 0;
                while (built < 64 && sendOnePacket())
                {
                    built++;
                }
                if (0 == built)
                {
                    flushDelayed();
                    checkDeadline("agent idle");
                }
            }
        }

        private boolean sendOnePacket()
        {
            final long offset;
            final int length;
            final boolean fin;
            if (sendLog.hasRetransmission())
            {
                offset = sendLog.retransmitOffset();
                length = sendLog.retransmitLength(PACKET_PAYLOAD);
                fin = offset + length == sendLog.finalPosition();
                sendLog.copyOut(offset, length, packet, 0);
                sendLog.onRetransmitted(offset, length, fin);
            }
            else if (sendLog.sendableBytes() > 0 || sendLog.isFinPending())
            {
                offset = sendLog.nextSendPosition();
                length = (int)Math.min(PACKET_PAYLOAD, sendLog.sendableBytes());
                fin = offset + length == sendLog.finalPosition();
                sendLog.copyOut(offset, length, packet, 0);
                sendLog.onSent(offset, length, fin);
                final long unsentBytes = sendLog.tailPosition() - sendLog.nextSendPosition();
                if (unsentBytes > mostUnsentBytes)
                {
                    fail(unsentBytes + " bytes unsent, more than the mark allows: " + mostUnsentBytes);
                }
            }
            else
            {
                return false;
            }

            packets++;
            final int fate = network.nextInt(100);
            if (fate < 3)
            {
                lostPackets++;
                sendLog.onRangeLost(offset, length, fin);
            }
            else if (fate < 6 && delayedOffset < 0)
            {
                reorderedPackets++;
                delayed.putBytes(0, packet, 0, length);
                delayedOffset = offset;
                delayedLength = length;
                delayedFin = fin;
            }
            else
            {
                deliver(offset, packet, length, fin);
                if (fate < 9)
                {
                    duplicatedPackets++;
                    deliver(offset, packet, length, fin);
                }
                flushDelayed();
            }
            return true;
        }

        private void flushDelayed()
        {
            if (delayedOffset >= 0)
            {
                final long offset = delayedOffset;
                delayedOffset = -1;
                deliver(offset, delayed, delayedLength, delayedFin);
            }
        }

        private void deliver(final long offset, final DirectBuffer payload, final int length, final boolean fin)
        {
            final int result = receiveLog.onData(offset, payload, 0, length, fin);
            if (result < 0)
            {
                fail("receive log error " + result + " at offset " + offset + " length " + length);
            }
            sendLog.onRangeAcked(offset, length, fin);
        }

        public String toString()
        {
            return "packets=" + packets + " lost=" + lostPackets + " ackedHead=" + sendLog.ackedHead() +
                " next=" + sendLog.nextSendPosition() + " tail=" + sendLog.tailPosition() +
                " contiguous=" + receiveLog.contiguousEnd() + " consumed=" + receiveLog.consumedHead();
        }
    }

    private final class Consumer
    {
        private final Random lengths = new Random(LENGTH_SEED);
        private final MessageHandler handler = this::onMessage;
        long messages;
        long payloadBytes;

        void run()
        {
            while (!receiveLog.isFinished())
            {
                if (0 == receiveLog.poll(handler, 100))
                {
                    checkDeadline("consumer idle");
                }
            }
        }

        private void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            final int expectedLength = nextLength(lengths);
            if (length != expectedLength || !StreamBytes.isPayload(buffer, offset, messages, length))
            {
                fail("message " + messages + " of " + length + " bytes differs, expected " + expectedLength);
            }
            messages++;
            payloadBytes += length;
        }

        public String toString()
        {
            return "messages=" + messages + " payloadBytes=" + payloadBytes;
        }
    }
}
