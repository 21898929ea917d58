package io.pacelink.bbr.v3;

import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.testing.ScriptedPath;
import io.pacelink.transport.testing.TestControllerContext;

import java.util.ArrayList;
import java.util.List;

/**
 * One BBRv3 controller for tests, with the transitions of its state machine: each change of state is recorded with
 * the callback that caused it and the model as it was just before that callback (what the draft's checks compare
 * against), observed through the {@link io.pacelink.transport.testing.RecordingController} of its
 * {@link ScriptedPath}.
 */
final class Bbr3Run
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
     * @param congestionWindowBytes             cwnd after the callback.
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
        long congestionWindowBytes)
    {
    }

    final TestControllerContext context;
    final Bbr3Variant variant;
    final CongestionController controller;
    final List<Transition> transitions = new ArrayList<>();
    /**
     * For each restart from idle: {state code, pacing rate right after it, draft BBR.bw right after it}.
     */
    final List<long[]> idleRestarts = new ArrayList<>();
    private String stateBefore;
    private long inflightOneBdpBefore;

    Bbr3Run(final long seed, final String parameters)
    {
        this(Bbr3Variant.V3, seed, parameters);
    }

    Bbr3Run(final Bbr3Variant variant, final long seed, final String parameters)
    {
        this.variant = variant;
        context = new TestControllerContext(SMSS, seed, ControllerParameters.parse(parameters));
        controller = new Bbr3ControllerFactory(variant).newController(context);
        stateBefore = controller.stateName();
        inflightOneBdpBefore = inflightOneBdp();
    }

    /**
     * @param rateBytesPerSecond link rate.
     * @param propagationRttNs   round-trip propagation delay.
     * @param startNs            virtual time of the first event.
     * @param seed               seed of the path's random losses.
     * @return a path driving this controller, its transitions recorded here.
     */
    ScriptedPath path(final long rateBytesPerSecond, final long propagationRttNs, final long startNs, final long seed)
    {
        final ScriptedPath path =
            new ScriptedPath(controller, context, rateBytesPerSecond, propagationRttNs, startNs, seed);
        path.recorder().observer(this::afterCallback);
        return path;
    }

    /**
     * @param name a {@link Bbr3Counters} name, without the variant's prefix.
     * @return the counter's value.
     */
    long counter(final String name)
    {
        return context.counter(variant.controllerName() + "-" + name);
    }

    String stateName()
    {
        return controller.stateName();
    }

    long congestionWindowBytes()
    {
        return controller.congestionWindowBytes();
    }

    long pacingRateBytesPerSecond()
    {
        return controller.pacingRateBytesPerSecond();
    }

    int sendQuantumBytes()
    {
        return controller.sendQuantumBytes();
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

    /**
     * The state and model change only inside callbacks, so what they were after the previous callback is what they
     * were before this one.
     */
    private void afterCallback(final String callback, final long nowNs, final long bytesInFlight)
    {
        if ("sent".equals(callback) || "mtu".equals(callback))
        {
            return;
        }
        if ("idle".equals(callback))
        {
            idleRestarts.add(new long[] {counter(Bbr3Counters.STATE), controller.pacingRateBytesPerSecond(), bw()});
        }
        final String to = controller.stateName();
        if (!to.equals(stateBefore))
        {
            transitions.add(new Transition(
                nowNs, stateBefore, to, callback, counter(Bbr3Counters.ROUND_COUNT), bytesInFlight,
                inflightOneBdpBefore, counter(Bbr3Counters.INFLIGHT_LONGTERM), controller.congestionWindowBytes()));
        }
        stateBefore = to;
        inflightOneBdpBefore = inflightOneBdp();
    }

    public List<String> stateNames()
    {
        return controller.stateNames();
    }
}
