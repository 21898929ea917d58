package io.pacelink.fq;

import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.testing.TestControllerContext;
import io.pacelink.transport.schedule.PacketSchedulerFactory;
import io.pacelink.transport.schedule.PacketSchedulers;
import io.pacelink.transport.schedule.RoundRobinScheduler;
import io.pacelink.transport.stats.CountersBuffers;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FqConfigTest
{
    @Test
    void defaultsAreSchFqs()
    {
        final FqConfig config = FqConfig.defaults();

        assertEquals(3028, config.quantumBytes());
        assertEquals(15140, config.initialQuantumBytes());
        assertEquals(FqConfig.UNLIMITED_RATE, config.maxRateBytesPerSecond());
        assertEquals(68750, config.lowRateThresholdBytesPerSecond());
        assertEquals(40_000_000L, config.flowRefillDelayNs());
        assertEquals(3_000_000_000L, config.gcAgeNs());
        assertTrue(config.pacing());
        assertTrue(config.perPacketPacing());
        assertEquals(3_000_000L, config.catchUpHorizonNs(), "3 ms");
        assertEquals(0L, config.catchUpDebtNs(), "none: lateness beyond the horizon is forgotten");
        assertEquals(0, config.catchUpCwndPercent(), "none: the fixed horizon alone");
        assertTrue(config.releaseAhead(), "a quantum ahead under an agent that sleeps in quanta");
        assertEquals(65_536, config.releaseAheadMaxBytes(), "64 KiB: Linux's TSO burst bound");
    }

    @Test
    void everyParameterIsReadByName()
    {
        final Map<String, String> values = new HashMap<>();
        values.put("fq.quantum", "1500");
        values.put("fq.initialQuantum", "3000");
        values.put("fq.maxRate", "1000000");
        values.put("fq.lowRateThreshold", "1000");
        values.put("fq.flowRefillDelayMs", "10");
        values.put("fq.gcAgeMs", "1000");
        values.put("fq.pacing", "false");
        values.put("fq.perPacketPacing", "false");
        values.put("fq.catchUpHorizonUs", "250");
        values.put("fq.catchUpDebtUs", "10000");
        values.put("fq.catchUpCwndPercent", "50");
        values.put("fq.releaseAhead", "false");
        values.put("fq.releaseAheadMaxBytes", "32768");
        values.put("cubic.beta", "0.7");

        final FqConfig config = FqConfig.from(ControllerParameters.of(values));

        assertEquals(1500, config.quantumBytes());
        assertEquals(3000, config.initialQuantumBytes());
        assertEquals(1_000_000, config.maxRateBytesPerSecond());
        assertEquals(1000, config.lowRateThresholdBytesPerSecond());
        assertEquals(10_000_000L, config.flowRefillDelayNs());
        assertEquals(1_000_000_000L, config.gcAgeNs());
        assertFalse(config.pacing());
        assertFalse(config.perPacketPacing());
        assertEquals(250_000L, config.catchUpHorizonNs());
        assertEquals(10_000_000L, config.catchUpDebtNs());
        assertEquals(50, config.catchUpCwndPercent());
        assertFalse(config.releaseAhead());
        assertEquals(32_768, config.releaseAheadMaxBytes());
        assertEquals(values.size() - 1, FqConfig.names().size());
    }

    @Test
    void unknownOrInvalidParametersAreRejected()
    {
        assertRejected("fq.quantom", "3028", "unknown");
        assertRejected("fq.quantum", "0", "out of range");
        assertRejected("fq.quantum", "2000000", "out of range");
        assertRejected("fq.maxRate", "fast", "not an integer");
        assertRejected("fq.pacing", "maybe", "not a boolean");
        assertRejected("fq.gcAgeMs", "-1", "out of range");
        assertRejected("fq.catchUpHorizonUs", "-1", "out of range");
        assertRejected("fq.catchUpHorizonUs", "1000001", "out of range");
        assertRejected("fq.catchUpDebtUs", "-1", "out of range");
        assertRejected("fq.releaseAheadMaxBytes", "0", "out of range");
        assertRejected("fq.catchUpDebtUs", "1000001", "out of range");
        assertEquals(1_000_000_000L, FqConfig.from(ControllerParameters.of(
            Map.of("fq.catchUpDebtUs", "1000000"))).catchUpDebtNs(), "the largest debt, 1 s, is accepted");
        assertRejected("fq.catchUpHorizonUs", "1ms", "not an integer");
        assertRejected("fq.catchUpCwndPercent", "-1", "out of range");
        assertRejected("fq.catchUpCwndPercent", "101", "out of range");
        assertRejected("fq.catchUpCwndPercent", "25%", "not an integer");
        assertEquals(100, FqConfig.from(ControllerParameters.parse("fq.catchUpCwndPercent=100")).catchUpCwndPercent(),
            "the whole window is accepted");
        assertEquals(0, FqConfig.from(ControllerParameters.parse("fq.catchUpCwndPercent=0")).catchUpCwndPercent(),
            "0: the fixed horizon alone");
        assertEquals(0, FqConfig.from(ControllerParameters.parse("fq.catchUpHorizonUs=0")).catchUpHorizonNs(),
            "0: no catch-up, every late release loses its lateness");
    }

    @Test
    void factoriesAreFoundByNameWithTheirPriorities()
    {
        final Map<String, PacketSchedulerFactory> byName = new HashMap<>();
        for (final PacketSchedulerFactory factory : ServiceLoader.load(PacketSchedulerFactory.class))
        {
            byName.put(factory.name(), factory);
        }

        assertEquals(100, byName.get("fq").defaultPriority());
        assertEquals(-100, byName.get("fifo").defaultPriority());
        assertInstanceOf(FqScheduler.class, byName.get("fq").newScheduler(ControllerParameters.EMPTY, counters()));
        assertInstanceOf(FifoScheduler.class, byName.get("fifo").newScheduler(ControllerParameters.EMPTY, counters()));
        assertThrows(IllegalArgumentException.class,
            () -> byName.get("fifo").newScheduler(ControllerParameters.parse("fifo.limit=1"), counters()));
        assertThrows(IllegalArgumentException.class,
            () -> byName.get("fq").newScheduler(ControllerParameters.parse("fq.limit=1"), counters()));
    }

    @Test
    void fqIsTheDefaultSchedulerWhenThisModuleIsOnTheClassPath()
    {
        assertEquals(Set.of("fifo", "fq", "rr"), PacketSchedulers.available().keySet());
        final CountersManager manager = CountersBuffers.newManager(64 * 1024);
        assertInstanceOf(FqScheduler.class, PacketSchedulers.newScheduler(null, ControllerParameters.EMPTY, manager));
        assertInstanceOf(
            RoundRobinScheduler.class, PacketSchedulers.newScheduler("rr", ControllerParameters.EMPTY, manager));
        assertEquals("scheduler fq: throttled", manager.getCounterLabel(2),
            "the scheduler's statistics are registered as labelled counters");
    }

    private static TestControllerContext counters()
    {
        return new TestControllerContext(ControllerParameters.EMPTY);
    }

    private static void assertRejected(final String name, final String value, final String reason)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> FqConfig.from(ControllerParameters.of(Map.of(name, value))));
        assertTrue(ex.getMessage().contains(name) && ex.getMessage().contains(reason), ex.getMessage());
    }
}
