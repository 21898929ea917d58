package io.pacelink.link;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PathWarningsTest
{
    @Test
    void aHealthyPathHasNone()
    {
        assertEquals(List.of(), PathWarnings.of(PathSpec.Pair.parse(
            "rate=100mbit delay=75ms jitter=7.5ms loss=8% queue=1bdp police=10mbit burst=100kb", null)));
        assertEquals(List.of(), PathWarnings.of(PathSpec.parse("rate=12001bit")), "a packet in under a second");
        assertEquals(List.of(), PathWarnings.of(PathSpec.parse("loss=99.9%")), "something gets through");
        assertEquals(List.of(), PathWarnings.of(PathSpec.parse("")));
    }

    @Test
    void eachDegenerateSettingIsNamedWithWhatItDoes()
    {
        assertEquals(List.of("rate=1bit: one 1500-byte packet takes 3.33 h to send, so a transfer delivers almost " +
            "nothing"), PathWarnings.of(PathSpec.parse("rate=1bit")));
        assertEquals(List.of("rate=11kbit: one 1500-byte packet takes 1.09 s to send, so a transfer delivers almost " +
            "nothing"), PathWarnings.of(PathSpec.parse("rate=11kbit")));
        assertEquals(List.of("loss=100%: every packet is lost, so nothing gets through"),
            PathWarnings.of(PathSpec.parse("loss=100%")));
        assertEquals(List.of("gemodel=100%,0%,100%,0%: every packet is lost, so nothing gets through"),
            PathWarnings.of(PathSpec.parse("gemodel=100%,0%")));
        assertTrue(PathWarnings.of(PathSpec.parse("police=100bit burst=10kb")).get(0)
            .startsWith("police=100bit: the bucket refills one 1500-byte packet every 2.00 min"));
    }

    @Test
    void aPairNamesTheDirectionAndSaysAnEqualReverseOnce()
    {
        assertEquals(List.of("forward: loss=100%: every packet is lost, so nothing gets through"),
            PathWarnings.of(PathSpec.Pair.parse("loss=100%")));
        assertEquals(List.of("reverse: loss=100%: every packet is lost, so nothing gets through"),
            PathWarnings.of(PathSpec.Pair.parse("delay=1ms | loss=100%")));
    }

    @Test
    void theWorstOneWayDelayCountsTheJittersReach()
    {
        assertEquals(30_000_000L, PathWarnings.worstOneWayDelayNs(PathSpec.parse("delay=20ms jitter=10ms")));
        assertEquals(60_000_000L,
            PathWarnings.worstOneWayDelayNs(PathSpec.parse("delay=20ms jitter=10ms distribution=normal")));
    }
}
