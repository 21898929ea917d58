package io.pacelink.bbr.v1;

import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.testing.TestControllerContext;
import org.junit.jupiter.api.Test;

import static io.pacelink.bbr.v1.Bbr1Run.MS;
import static io.pacelink.bbr.v1.Bbr1Run.RATE_10_MBIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Bbr1ControllerFactoryTest
{
    private final Bbr1ControllerFactory factory = new Bbr1ControllerFactory();

    @Test
    void isFoundByNameThroughServiceLoader()
    {
        final CongestionControlRegistry registry = CongestionControlRegistry.load();
        assertTrue(registry.factory("bbr") instanceof Bbr1ControllerFactory);
        assertEquals("bbr", factory.name());
    }

    @Test
    void rejectsUnknownAndOutOfRangeParameters()
    {
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> factory.validate(ControllerParameters.parse("bbr.cwndGian=2")));
        assertTrue(unknown.getMessage().contains("bbr.cwndGian"), unknown.getMessage());
        assertThrows(
            IllegalArgumentException.class, () -> factory.validate(ControllerParameters.parse("bbr.cwndGain=0.5")));
        assertThrows(
            IllegalArgumentException.class, () -> factory.validate(ControllerParameters.parse("bbr.longTermBw=maybe")));
        assertThrows(IllegalArgumentException.class,
            () -> factory.validate(ControllerParameters.parse("bbr.probeRttIntervalMs=0")));

        // Other controllers' parameters are not ours to judge.
        factory.validate(ControllerParameters.parse("cubic.beta=0.7,bbr3.whatever=1"));
        factory.validate(ControllerParameters.parse(
            "bbr.startupPacingGain=2.885,bbr.startupCwndGain=2.885,bbr.drainPacingGain=0.5,bbr.cwndGain=2.5," +
            "bbr.bandwidthFilterRounds=8,bbr.probeRttIntervalMs=5000,bbr.probeRttDurationMs=0," +
            "bbr.extraAckedGain=0,bbr.longTermBw=false,bbr.pacingMarginPercent=0," +
            "bbr.maxPacingRateBytesPerSecond=1000000"));
    }

    @Test
    void parametersChangeBehaviour()
    {
        final Bbr1Run run = new Bbr1Run(RATE_10_MBIT, 20 * MS, 15,
            "bbr.cwndGain=3,bbr.pacingMarginPercent=0,bbr.maxPacingRateBytesPerSecond=1000000");
        run.runUntilSeconds(2.0);
        assertEquals(3000, run.context.counter("bbr-cwnd-gain-x1000"));
        assertTrue(run.controller.pacingRateBytesPerSecond() <= 1_000_000);
        // Pacing capped below the 1.25 MB/s link: the delivery rate, hence max_bw, follows the cap.
        assertTrue(run.controller.maxBandwidthBytesPerSecond() <= 1_020_000, "max_bw " +
            run.controller.maxBandwidthBytesPerSecond());
    }

    @Test
    void probeRttCanBeDisabled()
    {
        final Bbr1Run run =
            new Bbr1Run(RATE_10_MBIT, 20 * MS, 16, "bbr.probeRttDurationMs=0,bbr.probeRttIntervalMs=500");
        final Bbr1Run reference = new Bbr1Run(RATE_10_MBIT, 20 * MS, 16, "bbr.probeRttIntervalMs=500");
        for (final Bbr1Run r : new Bbr1Run[]{ run, reference })
        {
            r.runUntilSeconds(1.0);
            r.path.propagationRttNs(21 * MS);  // min_rtt can only expire
        }
        final int[] probeRtt = new int[2];
        run.path.listener((path) -> probeRtt[0] += Bbr1State.PROBE_RTT == run.controller.state() ? 1 : 0);
        reference.path.listener((path) -> probeRtt[1] += Bbr1State.PROBE_RTT == reference.controller.state() ? 1 : 0);
        run.runUntilSeconds(4.0);
        reference.runUntilSeconds(4.0);
        assertEquals(0, probeRtt[0]);
        assertTrue(probeRtt[1] > 0);
    }

    @Test
    void stateNamesAreConstants()
    {
        final TestControllerContext context = new TestControllerContext(1500, 1, ControllerParameters.EMPTY);
        final CongestionController controller = factory.newController(context);
        assertEquals("STARTUP", controller.stateName());
        assertEquals("DRAIN", Bbr1State.DRAIN.stateName());
        assertEquals("PROBE_BW", Bbr1State.PROBE_BW.stateName());
        assertEquals("PROBE_RTT", Bbr1State.PROBE_RTT.stateName());
        assertEquals(context.initialWindowBytes(), controller.congestionWindowBytes());
        assertEquals(0, context.counter("bbr-state"));
        assertEquals(-1, context.counter("bbr-min-rtt-ns"));
        assertEquals(2887, context.counter("bbr-pacing-gain-x1000"));
        assertTrue(controller.sendQuantumBytes() >= 3000 && controller.sendQuantumBytes() <= 64 * 1024);
    }
}
