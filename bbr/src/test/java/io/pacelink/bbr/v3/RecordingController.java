package io.pacelink.bbr.v3;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.cc.LostPacket;
import io.pacelink.transport.cc.testing.FakeControllerContext;

import java.util.ArrayList;
import java.util.List;

/**
 * Wraps a BBRv3 controller for tests: forwards every callback and records each change of state with the callback
 * that caused it and the model as it was just before that callback (what the draft's checks compare against).
 */
final class RecordingController implements CongestionController
{
    static final int SMSS = 1500;

    /**
     * One state change.
     *
     * @param timeNs                when.
     * @param from                  state before.
     * @param to                    state after.
     * @param cause                 the callback ("ack", "lost", "congestion", "idle", "spurious").
     * @param roundCount            packet-timed rounds counted after the callback.
     * @param bytesInFlight         the transport's bytes in flight given to the callback.
     * @param inflightOneBdpBefore  draft {@code Inflight(1.0)} from the model before the callback.
     * @param inflightLongterm      inflight_longterm after the callback (-1: unset).
     * @param cwndBytes             cwnd after the callback.
     */
    record Transition(
        long timeNs,
        String from,
        String to,
        String cause,
        long roundCount,
        long bytesInFlight,
        long inflightOneBdpBefore,
        long inflightLongterm,
        long cwndBytes)
    {
    }

    final FakeControllerContext context;
    final CongestionController controller;
    final List<Transition> transitions = new ArrayList<>();
    /**
     * For each restart from idle: {state code, pacing rate right after it, draft BBR.bw right after it}.
     */
    final List<long[]> idleRestarts = new ArrayList<>();
    private long inflightOneBdpBefore;

    RecordingController(final long seed, final String parameters)
    {
        context = new FakeControllerContext(SMSS, seed, ControllerParameters.parse(parameters));
        controller = new Bbr3ControllerFactory().newController(context);
    }

    long counter(final String name)
    {
        return context.counter(name);
    }

    /**
     * @return draft {@code Inflight(1.0)} from the published model: max(bw * min_rtt, send quantum, 4 SMSS).
     */
    long inflightOneBdp()
    {
        return Math.max(Math.max(bdp(1.0), controller.sendQuantumBytes()), 4L * SMSS);
    }

    /**
     * @param gain multiplier.
     * @return draft {@code BDPMultiple(gain)} from the published model.
     */
    long bdp(final double gain)
    {
        return (long)Math.ceil((double)bw() * counter(Bbr3Counters.MIN_RTT) * gain / 1e9);
    }

    /**
     * @return draft {@code BBR.bw}: min(max_bw, bw_shortterm) from the published model.
     */
    long bw()
    {
        final long maxBw = counter(Bbr3Counters.MAX_BW);
        final long shortterm = counter(Bbr3Counters.BW_SHORTTERM);
        return Bbr3Counters.UNBOUNDED == shortterm ? maxBw : Math.min(maxBw, shortterm);
    }

    List<Transition> transitionsTo(final String state)
    {
        final List<Transition> result = new ArrayList<>();
        for (final Transition t : transitions)
        {
            if (t.to().equals(state))
            {
                result.add(t);
            }
        }
        return result;
    }

    Transition firstTransitionTo(final String state)
    {
        for (final Transition t : transitions)
        {
            if (t.to().equals(state))
            {
                return t;
            }
        }
        throw new AssertionError("never entered " + state + "; transitions " + transitions);
    }

    private String before()
    {
        inflightOneBdpBefore = inflightOneBdp();
        return controller.stateName();
    }

    private void after(final long timeNs, final String from, final String cause, final long bytesInFlight)
    {
        final String to = controller.stateName();
        if (!to.equals(from))
        {
            transitions.add(new Transition(
                timeNs, from, to, cause, counter(Bbr3Counters.ROUND_COUNT), bytesInFlight, inflightOneBdpBefore,
                counter(Bbr3Counters.INFLIGHT_LONGTERM), controller.congestionWindowBytes()));
        }
    }

    public void onPacketSent(
        final long nowNs,
        final long packetNumber,
        final int sizeBytes,
        final long bytesInFlightBytes,
        final boolean isRetransmission)
    {
        controller.onPacketSent(nowNs, packetNumber, sizeBytes, bytesInFlightBytes, isRetransmission);
    }

    public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
    {
        final String from = before();
        controller.onTransmitStartAfterIdle(nowNs, idleNs);
        idleRestarts.add(new long[] {counter(Bbr3Counters.STATE), controller.pacingRateBytesPerSecond(), bw()});
        after(nowNs, from, "idle", 0);
    }

    public void onAck(final AckEvent ack)
    {
        final String from = before();
        controller.onAck(ack);
        after(ack.nowNs(), from, "ack", ack.bytesInFlightBytes());
    }

    public void onPacketLost(final LostPacket lost)
    {
        final String from = before();
        controller.onPacketLost(lost);
        after(lost.nowNs(), from, "lost", lost.bytesInFlightBytes());
    }

    public void onCongestionEvent(final CongestionEvent event)
    {
        final String from = before();
        controller.onCongestionEvent(event);
        after(event.nowNs(), from, "congestion", event.bytesInFlightBytes());
    }

    public void onSpuriousLoss(final long nowNs)
    {
        final String from = before();
        controller.onSpuriousLoss(nowNs);
        after(nowNs, from, "spurious", -1);
    }

    public void onMtuChanged(final int maxDatagramSizeBytes)
    {
        controller.onMtuChanged(maxDatagramSizeBytes);
    }

    public long congestionWindowBytes()
    {
        return controller.congestionWindowBytes();
    }

    public long pacingRateBytesPerSecond()
    {
        return controller.pacingRateBytesPerSecond();
    }

    public int sendQuantumBytes()
    {
        return controller.sendQuantumBytes();
    }

    public String stateName()
    {
        return controller.stateName();
    }

    public List<String> stateNames()
    {
        return controller.stateNames();
    }
}
