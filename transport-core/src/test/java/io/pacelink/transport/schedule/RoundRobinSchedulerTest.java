package io.pacelink.transport.schedule;

import io.pacelink.transport.testing.AllocationMeter;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.testing.TestControllerContext;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@SuppressWarnings("deprecation") // SentPacket packs a test packet's length and kind; the push form is tested too
class RoundRobinSchedulerTest
{
    private static final int PACKET_BYTES = 1500;
    private static final long RATE_100_MBIT_BYTES_PER_SECOND = 12_500_000L;
    private static final long SECOND_NS = 1_000_000_000L;

    private final RoundRobinScheduler<Flow> scheduler = new RoundRobinScheduler<>();
    private Flow released;
    private boolean isReleasedForAckOnly;

    @Test
    void pacedFlowSendsOneQuantumThenOnePacketPerSizeOverRate()
    {
        final Flow flow = new Flow(1, RATE_100_MBIT_BYTES_PER_SECOND, 2 * PACKET_BYTES);
        flow.backlogPackets = Integer.MAX_VALUE;
        scheduler.addFlow(flow);
        activate(flow, 0);

        final List<Long> sendTimesNs = new ArrayList<>();
        long nowNs = 0;
        long bytes = 0;
        final long durationNs = 1_000_000_000L;
        while (nowNs < durationNs)
        {
            while (null != releaseOne(nowNs))
            {
                sendTimesNs.add(nowNs);
                bytes += PACKET_BYTES;
            }
            nowNs = scheduler.nextReleaseTimeNs();
        }

        // One send quantum (two packets) back to back, then a packet every 1500 B / 12.5 MB/s = 120 us.
        assertEquals(0L, sendTimesNs.get(0));
        assertEquals(0L, sendTimesNs.get(1));
        assertEquals(120_000L, sendTimesNs.get(2));
        for (int i = 3; i < 100; i++)
        {
            assertEquals(120_000L, sendTimesNs.get(i) - sendTimesNs.get(i - 1));
        }
        final double rate = bytes * 1e9 / durationNs;
        assertEquals(RATE_100_MBIT_BYTES_PER_SECOND, rate, RATE_100_MBIT_BYTES_PER_SECOND * 0.01);
    }

    @Test
    void lateWakeUpCatchesUpAtMostOneSendQuantum()
    {
        final Flow flow = new Flow(1, RATE_100_MBIT_BYTES_PER_SECOND, 4 * PACKET_BYTES);
        flow.backlogPackets = Integer.MAX_VALUE;
        scheduler.addFlow(flow);
        activate(flow, 0);

        assertEquals(4, drain(0));
        // Polled 10 ms late: only one send quantum (4 packets) leaves back to back, not 10 ms worth of data.
        assertEquals(4, drain(10_000_000L));
        assertEquals(10_000_000L + 120_000L, scheduler.nextReleaseTimeNs());
    }

    @Test
    void unpacedBackloggedFlowsAlternatePacketByPacket()
    {
        final Flow a = new Flow(1, 0, PACKET_BYTES);
        final Flow b = new Flow(2, Long.MAX_VALUE, PACKET_BYTES);
        a.backlogPackets = 5;
        b.backlogPackets = 5;
        scheduler.addFlow(a);
        scheduler.addFlow(b);
        activate(a, 0);
        activate(b, 0);

        final StringBuilder order = new StringBuilder();
        Flow next;
        while (null != (next = releaseOne(0)))
        {
            order.append(next == a ? 'a' : 'b');
        }

        assertEquals("ababababab", order.toString());
        assertEquals(0, scheduler.activeFlowCount());
        assertEquals(Long.MAX_VALUE, scheduler.nextReleaseTimeNs());
    }

    @Test
    void ackIsNeverDelayedByPacing()
    {
        final Flow flow = new Flow(1, RATE_100_MBIT_BYTES_PER_SECOND, PACKET_BYTES);
        flow.backlogPackets = Integer.MAX_VALUE;
        scheduler.addFlow(flow);
        activate(flow, 0);
        assertEquals(1, drain(0));
        assertEquals(120_000L, scheduler.nextReleaseTimeNs());

        flow.ackDue = true;
        activate(flow, 10_000L);
        assertSame(flow, releaseOne(10_000L));
        assertTrue(isReleasedForAckOnly);

        // The ACK-only packet was neither paced nor charged: the data release time is unchanged.
        assertNull(releaseOne(10_000L));
        assertEquals(120_000L, scheduler.nextReleaseTimeNs());
        assertSame(flow, releaseOne(120_000L));
        assertFalse(isReleasedForAckOnly);
    }

    @Test
    void idleFlowLeavesTheRingAndRejoinsOnActivation()
    {
        final Flow flow = new Flow(7, 0, PACKET_BYTES);
        scheduler.addFlow(flow);
        activate(flow, 0);
        assertEquals(1, scheduler.activeFlowCount());

        assertNull(releaseOne(0));
        assertEquals(0, scheduler.activeFlowCount());

        flow.backlogPackets = 1;
        assertNull(releaseOne(0), "an idle flow is not polled until activated");
        activate(flow, 0);
        assertSame(flow, releaseOne(0));

        flow.backlogPackets = 1;
        scheduler.removeFlow(flow);
        assertEquals(0, scheduler.flowCount());
        assertEquals(0, scheduler.activeFlowCount());
        assertNull(releaseOne(0));
    }

    @Test
    void pacedFlowsShareTheLoopAndSchedulingDoesNotAllocate()
    {
        final Flow[] flows = new Flow[10];
        for (int i = 0; i < flows.length; i++)
        {
            flows[i] = new Flow(i + 1, RATE_100_MBIT_BYTES_PER_SECOND / (i + 1), 2 * PACKET_BYTES);
            flows[i].backlogPackets = Integer.MAX_VALUE;
            scheduler.addFlow(flows[i]);
            activate(flows[i], 0);
        }
        // nowNs and the end of the current window; a second of warm-up, then one virtual second per window (about
        // 24 000 packets).
        final long[] clockNs = { 0, SECOND_NS };
        runScheduler(clockNs);
        AllocationMeter.assertAllocationFree("one second of scheduling", () ->
        {
            clockNs[1] += SECOND_NS;
            runScheduler(clockNs);
        });

        // Each flow got its own pacing rate over the whole run (flow i at R / i), whatever the others did.
        final double seconds = clockNs[1] / (double)SECOND_NS;
        for (int i = 0; i < flows.length; i++)
        {
            final double sentBytes = (double)(Integer.MAX_VALUE - flows[i].backlogPackets) * PACKET_BYTES;
            final double expectedBytes = seconds * RATE_100_MBIT_BYTES_PER_SECOND / (i + 1);
            assertEquals(expectedBytes, sentBytes, expectedBytes * 0.01, "flow " + i);
        }
    }

    /**
     * Serve every release until {@code clockNs[0]} reaches {@code clockNs[1]}.
     */
    private void runScheduler(final long[] clockNs)
    {
        while (clockNs[0] < clockNs[1])
        {
            drain(clockNs[0]);
            clockNs[0] = scheduler.nextReleaseTimeNs();
        }
    }

    @Test
    void theDeprecatedPushFormReleasesExactlyAsThePullForm()
    {
        final RoundRobinScheduler<Flow> pushed = new RoundRobinScheduler<>();
        final Flow[] pulledFlows = new Flow[3];
        final Flow[] pushedFlows = new Flow[3];
        for (int i = 0; i < 3; i++)
        {
            pulledFlows[i] = new Flow(i, RATE_100_MBIT_BYTES_PER_SECOND * (i + 1), 2 * PACKET_BYTES);
            pushedFlows[i] = new Flow(i, RATE_100_MBIT_BYTES_PER_SECOND * (i + 1), 2 * PACKET_BYTES);
            pulledFlows[i].backlogPackets = 50;
            pushedFlows[i].backlogPackets = 50;
            pulledFlows[i].ackDue = 1 == i;
            pushedFlows[i].ackDue = 1 == i;
            scheduler.addFlow(pulledFlows[i]);
            pushed.addFlow(pushedFlows[i]);
        }
        final List<String> pulled = new ArrayList<>();
        final List<String> pushedReleases = new ArrayList<>();
        final PacketSender<Flow> sender = (flow, ackOnly, nowNs) ->
        {
            pushedReleases.add(nowNs + ":" + flow.flowId + ":" + ackOnly);
            return sendPacket(flow, ackOnly, nowNs);
        };
        long nowNs = 0;
        for (int cycle = 0; cycle < 400; cycle++)
        {
            for (int i = 0; i < 3; i++)
            {
                activate(pulledFlows[i], nowNs);
                pushed.activate(pushedFlows[i], pushedFlows[i].rateBytesPerSecond, 2 * PACKET_BYTES, nowNs);
            }
            Flow flow;
            while (null != (flow = releaseOne(nowNs)))
            {
                pulled.add(nowNs + ":" + flow.flowId + ":" + isReleasedForAckOnly);
            }
            pushed.sendPackets(nowNs, Integer.MAX_VALUE, sender);
            nowNs = Math.min(scheduler.nextReleaseTimeNs(), nowNs + 1_000_000L);
        }
        assertEquals(151, pulled.size(), "every packet and the ACK");
        assertEquals(pulled, pushedReleases);
    }

    @Test
    void factoryIsFoundByNameAndRejectsUnknownParameters()
    {
        PacketSchedulerFactory found = null;
        for (final PacketSchedulerFactory factory : ServiceLoader.load(PacketSchedulerFactory.class))
        {
            if (RoundRobinScheduler.NAME.equals(factory.name()))
            {
                found = factory;
            }
        }
        assertNotNull(found);
        assertEquals(0, found.defaultPriority());
        final TestControllerContext counters = new TestControllerContext(ControllerParameters.EMPTY);
        assertEquals("rr", found.newScheduler(ControllerParameters.EMPTY, counters).name());

        final PacketSchedulerFactory factory = found;
        assertThrows(IllegalArgumentException.class,
            () -> factory.newScheduler(ControllerParameters.of(Map.of("rr.quantum", "1")), counters));
    }

    @Test
    void aFlowAloneAndDueIsReleasedAloneAndTheShortcutLeavesTheRingAsTheGeneralPathDoes()
    {
        final RoundRobinScheduler<Flow> shortcut = new RoundRobinScheduler<>();
        final Flow[] general = {new Flow(1, RATE_100_MBIT_BYTES_PER_SECOND, 2 * PACKET_BYTES),
            new Flow(2, RATE_100_MBIT_BYTES_PER_SECOND, 2 * PACKET_BYTES)};
        final Flow[] alone = {new Flow(1, RATE_100_MBIT_BYTES_PER_SECOND, 2 * PACKET_BYTES),
            new Flow(2, RATE_100_MBIT_BYTES_PER_SECOND, 2 * PACKET_BYTES)};
        assertFalse(shortcut.releasesAloneNow(alone[0], 0), "a flow the scheduler does not know");
        for (int f = 0; f < 2; f++)
        {
            scheduler.addFlow(general[f]);
            shortcut.addFlow(alone[f]);
        }
        final List<Long> generalSends = new ArrayList<>();
        final List<Long> shortcutSends = new ArrayList<>();
        long nowNs = 0;
        int taken = 0;
        int refused = 0;
        for (int i = 0; i < 300; i++)
        {
            nowNs += 60_000L + 17_000L * (i % 20);
            // What came due since the last request leaves first, from both, as an agent's wake would send it.
            while (null != (released = releaseOne(nowNs)))
            {
                generalSends.add(released.flowId * SECOND_NS + nowNs);
            }
            drainInto(shortcut, nowNs, shortcutSends);
            if (i % 40 == 5)
            {
                general[1].backlogPackets += 6;
                alone[1].backlogPackets += 6;
                activate(general[1], nowNs);
                shortcut.activate(alone[1], alone[1].rateBytesPerSecond, alone[1].sendQuantumBytes, nowNs);
            }
            general[0].backlogPackets++;
            alone[0].backlogPackets++;
            activate(general[0], nowNs);
            final Flow first = releaseOne(nowNs);
            if (null != first)
            {
                generalSends.add(first.flowId * SECOND_NS + nowNs);
            }
            final boolean wasFirstAckOnly = isReleasedForAckOnly;
            while (null != (released = releaseOne(nowNs)))
            {
                generalSends.add(released.flowId * SECOND_NS + nowNs);
            }
            if (shortcut.releasesAloneNow(alone[0], nowNs))
            {
                assertSame(general[0], first, "request " + i + ": the general path released it first");
                assertFalse(wasFirstAckOnly, "request " + i);
                alone[0].backlogPackets--;
                shortcutSends.add(SECOND_NS + nowNs);
                shortcut.onSentAlone(alone[0], alone[0].rateBytesPerSecond, alone[0].sendQuantumBytes,
                    Long.MAX_VALUE, PACKET_BYTES, true, nowNs);
                taken++;
            }
            else
            {
                shortcut.activate(alone[0], alone[0].rateBytesPerSecond, alone[0].sendQuantumBytes, nowNs);
                refused++;
            }
            drainInto(shortcut, nowNs, shortcutSends);
            assertEquals(generalSends, shortcutSends, "request " + i + ": every packet at the same time");
            assertEquals(scheduler.nextReleaseTimeNs(), shortcut.nextReleaseTimeNs(), "request " + i);
            assertEquals(scheduler.activeFlowCount(), shortcut.activeFlowCount(), "request " + i);
        }
        assertTrue(taken > 50 && refused > 50, "shortcut taken " + taken + ", refused " + refused);
    }

    /**
     * Every release of a second scheduler at this time, each data packet's flow and time recorded.
     */
    private static void drainInto(final RoundRobinScheduler<Flow> other, final long nowNs, final List<Long> sends)
    {
        Release<Flow> release;
        while (null != (release = other.next(nowNs)))
        {
            final Flow flow = release.flow();
            if (!release.isAckOnly())
            {
                flow.backlogPackets--;
                sends.add(flow.flowId * SECOND_NS + nowNs);
            }
            other.onSent(flow, release.isAckOnly() ? 50 : PACKET_BYTES, !release.isAckOnly(), nowNs);
        }
    }

    private int drain(final long nowNs)
    {
        int sent = 0;
        while (null != releaseOne(nowNs))
        {
            sent++;
        }
        return sent;
    }

    /**
     * The endpoint's side: pull one release, build its packet, report it.
     */
    private Flow releaseOne(final long nowNs)
    {
        released = null;
        final Release<Flow> release = scheduler.next(nowNs);
        if (null != release)
        {
            final Flow flow = release.flow();
            final int sentPacket = sendPacket(flow, release.isAckOnly(), nowNs);
            scheduler.onSent(flow, SentPacket.lengthBytes(sentPacket), SentPacket.isAckEliciting(sentPacket), nowNs);
        }
        return released;
    }

    /**
     * Activate a flow with its pacing, as the endpoint does once per duty cycle.
     */
    private void activate(final Flow flow, final long nowNs)
    {
        scheduler.activate(flow, flow.rateBytesPerSecond, flow.sendQuantumBytes, nowNs);
    }

    private int sendPacket(final Flow flow, final boolean ackOnly, final long nowNs)
    {
        released = flow;
        isReleasedForAckOnly = ackOnly;
        if (ackOnly)
        {
            flow.ackDue = false;
            return SentPacket.pack(50, false);
        }
        flow.backlogPackets--;
        return SentPacket.pack(PACKET_BYTES, true);
    }

    private static final class Flow implements SchedulableFlow
    {
        private final long flowId;
        private final long rateBytesPerSecond;
        private final int sendQuantumBytes;
        private int backlogPackets;
        private boolean ackDue;

        Flow(final long flowId, final long rateBytesPerSecond, final int sendQuantumBytes)
        {
            this.flowId = flowId;
            this.rateBytesPerSecond = rateBytesPerSecond;
            this.sendQuantumBytes = sendQuantumBytes;
        }

        public long flowId()
        {
            return flowId;
        }

        public int sendable(final long nowNs)
        {
            return (backlogPackets > 0 ? ACK_ELICITING : 0) | (ackDue ? ACK_DUE : 0);
        }
    }
}
