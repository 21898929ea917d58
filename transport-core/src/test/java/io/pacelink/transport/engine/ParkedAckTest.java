package io.pacelink.transport.engine;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.Dumbbell;
import io.pacelink.sim.SimHost;
import io.pacelink.sim.SimulatedAgent;
import io.pacelink.sim.Simulator;
import io.pacelink.transport.Connection;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.SendBatch;
import io.pacelink.transport.recovery.LossRecovery;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An ACK frame that arrives in a packet the peer expects an answer to is checked at once but applied to loss
 * recovery after the answer has been sent ({@code FrameReceiver#onAck}), with the times it arrived and was read; if
 * the application does not answer, the next duty cycle applies it at once, never a timer. In the simulator, with a
 * ping-pong over a 1-ms path: the echo server's loss recovery is looked at when its port sends each echo and when
 * the duty cycle that sent it ends.
 */
class ParkedAckTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long ONE_WAY_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int REQUEST_BYTES = 32;
    private static final int PINGS = 20;

    @Test
    void theAckARequestCarriesIsAppliedAfterItsEchoIsSentWithTheTimesItArrived()
    {
        final Bed bed = new Bed(false);

        bed.simulator.runUntil(SECOND_NS);

        assertEquals(PINGS, bed.pinger.echoes(), "every request was echoed");
        int parked = 0;
        for (int i = 1; i < PINGS; i++)
        {
            final long atSend = bed.echo.largestAckedAtSend.get(i);
            final long atEnd = bed.echo.largestAckedAtCycleEnd.get(i);
            // The request acknowledged the previous echo: not yet applied when this echo left, applied right after.
            if (atSend < atEnd && atSend >= 0)
            {
                parked++;
            }
        }
        assertTrue(parked >= PINGS - 3, "the request's ACK applied after the echo's send: " + parked + " of " +
            (PINGS - 1) + ", largest acknowledged at the sends " + bed.echo.largestAckedAtSend + ", at the cycles' " +
            "ends " + bed.echo.largestAckedAtCycleEnd);
        final LossRecovery recovery = bed.serverRecovery();
        assertEquals(PINGS, recovery.rttEstimator().sampleCount(), "one RTT sample per echo acknowledged, and the " +
            "handshake's");
        assertTrue(recovery.rttEstimator().minRttNs() >= 2 * ONE_WAY_NS &&
            recovery.rttEstimator().minRttNs() < 2 * ONE_WAY_NS + TimeUnit.MICROSECONDS.toNanos(100),
            "the RTT sample is timed by the cycle that read the ACK: " + recovery.rttEstimator().minRttNs());
    }

    @Test
    void aParkedAckIsAppliedByTheNextDutyCycleAtOnceWhenTheApplicationDoesNotAnswerInTime()
    {
        final Bed bed = new Bed(true);

        bed.simulator.runUntil(SECOND_NS);

        assertEquals(PINGS, bed.pinger.echoes(), "every request was echoed, a cycle late");
        assertTrue(bed.echo.parkedCycles >= PINGS - 3, "cycles that parked an ACK: " + bed.echo.parkedCycles);
        assertEquals(bed.echo.parkedCycles, bed.echo.appliedAtOnce, "after each, the core asked for its next cycle " +
            "at once, and that cycle applied the ACK before the application answered");
    }

    /**
     * Two endpoints in the simulator: the client pings, the server echoes.
     */
    private static final class Bed
    {
        private final Simulator simulator = new Simulator(1);
        private final ArrayList<Connection> accepted = new ArrayList<>();
        private final SimPinger pinger;
        private final Echo echo;
        private final EndpointCore server;

        Bed(final boolean isLate)
        {
            final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=1ms"));
            final SimHost clientHost = dumbbell.addLeftHost();
            final SimHost serverHost = dumbbell.addRightHost();
            final WatchingPort serverPort = new WatchingPort(serverHost.port());
            final EndpointCore client = SimPinger.newCore(clientHost.port(), false, accepted);
            server = SimPinger.newCore(serverPort, true, accepted);
            echo = new Echo(this, serverPort, isLate);
            serverPort.echo = echo;
            pinger = new SimPinger(client, serverHost.address(), REQUEST_BYTES, PINGS);
            clientHost.addAgent(pinger);
            serverHost.addAgent(echo);
        }

        LossRecovery serverRecovery()
        {
            return accepted.isEmpty() ? null : server.connectionCore(accepted.get(0).connectionId()).lossRecovery();
        }
    }

    /**
     * The server: one duty cycle per run; then the application polls and offers each request back — at once, or
     * ({@code isLate}) only in its next run, after that run's first duty cycle.
     */
    private static final class Echo implements SimulatedAgent, MessageHandler
    {
        private final Bed bed;
        private final WatchingPort port;
        private final boolean isLate;
        private final UnsafeBuffer echo = new UnsafeBuffer(new byte[REQUEST_BYTES]);
        private final List<Long> largestAckedAtSend = new ArrayList<>();
        private final List<Long> largestAckedAtCycleEnd = new ArrayList<>();
        private int pendingLength = -1;
        private boolean hasOffered;
        private boolean isEchoUnsent;
        private boolean isParked;
        private int parkedCycles;
        private int appliedAtOnce;

        Echo(final Bed bed, final WatchingPort port, final boolean isLate)
        {
            this.bed = bed;
            this.port = port;
            this.isLate = isLate;
        }

        public int doWork(final long nowNs)
        {
            final boolean isAfterOffer = hasOffered;
            hasOffered = false;
            port.hasSentEcho = false;
            int work = bed.server.doWork(nowNs);
            if (isAfterOffer && port.hasSentEcho)
            {
                largestAckedAtCycleEnd.add(bed.serverRecovery().largestAckedPacketNumber());
            }
            if (pendingLength >= 0)
            {
                // A late answer: the cycle that ran first had no offer to send, so it applied the parked ACK.
                if (isParked && 0 == bed.serverRecovery().bytesInFlight())
                {
                    appliedAtOnce++;
                }
                isParked = false;
                offer(pendingLength);
                pendingLength = -1;
                work += bed.server.doWork(nowNs);
                hasOffered = false;
                return work;
            }
            final long inFlightBefore = null == bed.serverRecovery() ? 0 : bed.serverRecovery().bytesInFlight();
            for (int i = 0; i < bed.accepted.size(); i++)
            {
                bed.accepted.get(i).poll(this, 1);
            }
            if (isLate && pendingLength >= 0 && inFlightBefore > 0 && bed.server.nextDeadlineNs() <= nowNs &&
                bed.serverRecovery().bytesInFlight() == inFlightBefore)
            {
                parkedCycles++;
                isParked = true;
            }
            return work;
        }

        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            echo.putBytes(0, buffer, offset, length);
            if (isLate)
            {
                pendingLength = length;
                return;
            }
            offer(length);
        }

        private void offer(final int length)
        {
            assertTrue(bed.accepted.get(0).offer(echo, 0, length) > 0);
            hasOffered = true;
            isEchoUnsent = true;
        }

        public long nextDeadlineNs()
        {
            return hasOffered ? Long.MIN_VALUE : bed.server.nextDeadlineNs();
        }

        void onSend()
        {
            final LossRecovery recovery = bed.serverRecovery();
            if (isEchoUnsent && null != recovery)
            {
                isEchoUnsent = false;
                port.hasSentEcho = true;
                largestAckedAtSend.add(recovery.largestAckedPacketNumber());
            }
        }
    }

    /**
     * The server's port: tells the echo server when its core sends.
     */
    private static final class WatchingPort extends ForwardingDatagramPort
    {
        private Echo echo;
        private boolean hasSentEcho;

        WatchingPort(final DatagramPort port)
        {
            super(port);
        }

        public int send(final SendBatch batch)
        {
            if (batch.size() > 0)
            {
                echo.onSend();
            }
            return port.send(batch);
        }

        public boolean send(
            final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
        {
            echo.onSend();
            return port.send(buffer, offset, length, destination);
        }
    }
}
