package io.pacelink.link;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PathSpecTest
{
    @Test
    void parsesTheIssueExample()
    {
        final PathSpec spec = PathSpec.parse("rate=100mbit delay=75ms jitter=7.5ms loss=8% queue=1bdp");

        assertEquals(StepRateSchedule.constant(100_000_000L), spec.rate());
        assertEquals(75_000_000L, spec.delayNs());
        assertEquals(7_500_000L, spec.jitterNs());
        assertEquals(JitterDistribution.UNIFORM, spec.jitterDistribution());
        assertFalse(spec.keepOrder());
        assertEquals(LossModel.bernoulli(0.08), spec.loss());
        assertEquals(new QueueLimit(QueueLimit.Unit.BDP, 1), spec.queueLimit());
        assertEquals("fifo", spec.qdisc());
    }

    @Test
    void bdpQueueUsesRateTimesBaseRtt()
    {
        final PathSpec spec = PathSpec.parse("rate=100mbit delay=75ms queue=1bdp");

        // 100 Mbit/s * 150 ms / 8 = 1 875 000 bytes; no packet limit.
        final QueueConfig config = spec.queueConfig(2 * spec.delayNs(), 7);
        assertEquals(1_875_000L, config.limitBytes());
        assertEquals(Integer.MAX_VALUE, config.limitPackets());
        assertEquals(7, config.seed());

        final PathSpec.Pair asymmetric = PathSpec.Pair.parse("rate=100mbit delay=75ms queue=2bdp | delay=25ms");
        assertEquals(100_000_000L, asymmetric.baseRttNs());
        assertEquals(2_500_000L, asymmetric.forward().queueConfig(asymmetric.baseRttNs(), 0).limitBytes());
    }

    @Test
    void parsesQueueDisciplineParametersIntoQueueConfig()
    {
        final PathSpec spec = PathSpec.parse("rate=10mbit qdisc=fifo quantum=300 flows=64 queue=120p target=2ms " +
            "interval=50ms");

        final QueueConfig config = spec.queueConfig(0, 1);
        assertEquals(120, config.limitPackets());
        assertEquals(Long.MAX_VALUE, config.limitBytes());
        assertEquals(300, config.quantumBytes());
        assertEquals(64, config.flowBuckets());
        assertEquals(2_000_000L, config.codelTargetNs());
        assertEquals(50_000_000L, config.codelIntervalNs());
    }

    @Test
    void parsesRedAndEcnSettingsIntoQueueConfig()
    {
        final PathSpec spec = PathSpec.parse("rate=8mbit queue=120p qdisc=red ecn=on probability=0.1 harddrop=on " +
            "ecn_rewrite=ect1");

        final QueueConfig config = spec.queueConfig(0, 1);
        assertEquals(AqmSpec.Toggle.ON, config.aqm().ecn());
        assertEquals(0.1, config.aqm().probability());
        assertTrue(config.aqm().hardDrop());
        assertEquals(8_000_000L, config.rateBitsPerSecond());
        assertEquals(120_000, config.limitBytesCountingPacketsAs(config.aqm().avpktBytes()), "120 packets of avpkt");
        assertEquals(io.pacelink.transport.wire.EcnCodepoint.ECT_1, spec.ecnRewrite());
        assertEquals("rate=8mbit queue=120p qdisc=red ecn=on probability=10% harddrop=on ecn_rewrite=ect1",
            spec.toString());
    }

    @Test
    void defaultsAreNetemLike()
    {
        final PathSpec spec = PathSpec.parse("");

        assertEquals(RateSchedule.UNLIMITED_BITS_PER_SECOND, spec.rate().nominalBitsPerSecond());
        assertEquals(new QueueLimit(QueueLimit.Unit.PACKETS, 1000), spec.queueLimit());
        assertEquals(LossModel.NONE, spec.loss());
        final QueueConfig config = spec.queueConfig(0, 0);
        assertEquals(QueueConfig.DEFAULT_QUANTUM_BYTES, config.quantumBytes());
        assertEquals(QueueConfig.DEFAULT_FLOW_BUCKETS, config.flowBuckets());
        assertEquals(QueueConfig.DEFAULT_CODEL_TARGET_NS, config.codelTargetNs());
        assertEquals(QueueConfig.DEFAULT_CODEL_INTERVAL_NS, config.codelIntervalNs());
    }

    @Test
    void parsesSizeUnitsLikeTc()
    {
        assertEquals(64 * 1024L, PathSpec.parse("queue=64kb").queueConfig(0, 0).limitBytes());
        assertEquals(2 * 1024 * 1024L, PathSpec.parse("queue=2MB").queueConfig(0, 0).limitBytes());
        assertEquals(150_000L, PathSpec.parse("queue=150000b").queueConfig(0, 0).limitBytes());
        assertEquals(50, PathSpec.parse("limit=50").queueConfig(0, 0).limitPackets());
    }

    @Test
    void gilbertElliottTakesNetemDefaults()
    {
        // iproute2 q_netem.c: r = 1 - p, 1-h = 100%, 1-k = 0% unless given.
        assertEquals(LossModel.gilbertElliott(0.01, 0.99, 1.0, 0.0), PathSpec.parse("gemodel=1%").loss());
        assertEquals(LossModel.gilbertElliott(0.01, 0.1, 0.5, 0.001),
            PathSpec.parse("gemodel=1%,10%,50%,0.1%").loss());
    }

    @Test
    void parsesRateSteps()
    {
        final StepRateSchedule steps = (StepRateSchedule)PathSpec.parse("rate=100mbit,20mbit@30s,1.5mbit@60s").rate();

        assertEquals(3, steps.stepCount());
        assertEquals(0, steps.stepStartNs(0));
        assertEquals(30_000_000_000L, steps.stepStartNs(1));
        assertEquals(60_000_000_000L, steps.stepStartNs(2));
        assertEquals(1_500_000L, steps.stepBitsPerSecond(2));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "rate=100mbit delay=75ms jitter=7.5ms loss=8% queue=1bdp",
        "rate=1500kbit,0bit@1s,20mbit@2.5s delay=250us jitter=1ms distribution=normal order=keep",
        "gemodel=1%,10%,100%,0.1% duplicate=0.5% corrupt=0.01% queue=64000b",
        "rate=10gbit queue=12p quantum=300 flows=64 target=1ms interval=20ms",
        "rate=100mbit delay=20ms police=10mbit burst=100kb",
        "police=1500kbit burst=1514b queue=100p",
        "police=1mbit burst=1500b",
        "delay=1s",
        "rate=10mbit queue=65536b qdisc=red ecn=on min=10kb max=30kb probability=10% avpkt=1500b",
        "rate=4mbit queue=120p qdisc=red harddrop=on",
        "delay=10ms ecn_rewrite=not-ect",
        "" })
    void canonicalTextParsesBackToAnEqualSpec(final String text)
    {
        final PathSpec spec = PathSpec.parse(text);

        assertEquals(spec, PathSpec.parse(spec.toString()));
        assertEquals(text, spec.toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "delay=75                 | delay: \"75\" has no unit",
        "rate=100mbps             | ambiguous",
        "rate=fast                | rate: \"fast\" is not a number with bit",
        "loss=8                   | loss: \"8\" is not a percentage",
        "loss=120%                | above 100%",
        "delay 75ms               | \"delay\" is not key=value",
        "rtt=75ms                 | unknown key",
        "rate=1mbit rate=2mbit    | rate: given twice",
        "loss=1% gemodel=1%       | together with loss= or gemodel=",
        "queue=1bdp delay=10ms    | needs a bottleneck rate",
        "queue=100                | queue: \"100\" has no unit",
        "queue=1.5p               | must be a whole number",
        "qdisc=nope               | unknown queue discipline \"nope\"; available: fifo",
        "rate=1mbit,2mbit         | needs a start time",
        "rate=1mbit,2mbit@0s      | must increase strictly",
        "rate=0bit                | last rate step must be positive",
        "distribution=pareto      | not uniform or normal",
        "gemodel=1%,2%,3%,4%,5%   | at most four values",
        "trace=/nonexistent/trace | cannot read trace file",
        "delay=-5ms               | delay: \"-5ms\" is negative",
        "jitter=-1ms              | jitter: \"-1ms\" is negative",
        "rate=-10mbit             | rate: \"-10mbit\" is negative",
        "police=10mbit            | police: needs the bucket size too, e.g. police=10mbit burst=100kb",
        "burst=100kb              | burst: is the size of a policer's bucket and needs its rate",
        "police=0bit burst=10kb   | police: \"0bit\" must be a positive rate",
        "police=10mbit burst=10   | burst: \"10\" has no unit",
        "police=10mbit burst=0.5b | not a whole number of bytes",
        "police=10mbit burst=2048mb | a policer needs a burst from 1500b to 1024mb",
        "police=10mbit burst=100b | burst=100b is below one datagram: a packet longer than the bucket is always",
        "police=10mbit burst=1499b | give at least 1500b",
        "qdisc=fifo min=10kb      | min: does not apply to qdisc=fifo; it applies to qdisc=red",
        "ce_threshold=1ms         | ce_threshold: does not apply to qdisc=fifo",
        "qdisc=red ecn=maybe      | ecn: \"maybe\" is not on or off",
        "qdisc=red min=40kb max=30kb | must be below max",
        "qdisc=red queue=8kb      | qdisc=red: no EWMA weight fits",
        "qdisc=red queue=64kb max=100kb | qdisc=red: max (102400 bytes) is larger than the limit",
        "qdisc=red probability=1.5 | probability must be in (0, 1]",
        "qdisc=red probability=x  | \"x\" is not a probability",
        "ecn_rewrite=blue         | \"blue\" is not an ECN codepoint" })
    void rejectsBadSpecsSayingWhatIsWrong(final String text, final String expectedProblem)
    {
        final PathSpecException ex = assertThrows(PathSpecException.class, () -> PathSpec.parse(text));

        assertTrue(ex.problem().contains(expectedProblem), () -> "problem was: " + ex.problem());
        assertTrue(ex.getMessage().contains(text.trim()));
        assertTrue(ex.getMessage().contains("accepted keys:"));
        assertTrue(ex.getMessage().contains("rate=100mbit"));
    }

    @Test
    void parsesAPolicerInTcVocabulary()
    {
        final PathSpec spec = PathSpec.parse("rate=100mbit delay=20ms police=10mbit burst=100kb");

        assertEquals(new PolicerSpec(10_000_000L, 100 * 1024), spec.policer());
        assertEquals(100_000_000L, spec.rate().nominalBitsPerSecond(), "the line rate stays rate=");
        assertEquals(PolicerSpec.NONE, PathSpec.parse("rate=100mbit").policer());
        assertEquals("delay=20ms", spec.delayAndJitterOnly().toString(), "the reverse default has no policer");
    }

    @Test
    void aQueueInBdpOnAPathWithoutDelayIsAnErrorThatSaysWhy()
    {
        final PathSpecException ex = assertThrows(PathSpecException.class,
            () -> PathSpec.Pair.parse("rate=10mbit queue=1bdp", "delay=0ms"));
        assertTrue(ex.problem().contains("queue=1bdp: the path has no delay (delay= is 0 in both directions), so its " +
            "bandwidth-delay product is 0 bytes; give the queue in packets or bytes"), ex.problem());
        assertTrue(ex.getMessage().contains("invalid path spec \"rate=10mbit queue=1bdp\""), ex.getMessage());

        assertThrows(PathSpecException.class, () -> PathSpec.Pair.parse("rate=10mbit | rate=1mbit queue=2bdp"));
        final PathSpec.Pair withDelay = PathSpec.Pair.parse("rate=10mbit queue=1bdp", "delay=2ms");
        assertEquals(2500, withDelay.forward().queueConfig(withDelay.baseRttNs(), 0).limitBytes(),
            "a delay in either direction gives a BDP");
    }

    @Test
    void pairGivesEachDirectionItsSpec()
    {
        final PathSpec.Pair pair = PathSpec.Pair.parse("rate=100mbit delay=20ms | rate=10mbit delay=30ms");

        assertEquals(100_000_000L, pair.forward().rate().nominalBitsPerSecond());
        assertEquals(10_000_000L, pair.reverse().rate().nominalBitsPerSecond());
        assertEquals(50_000_000L, pair.baseRttNs());
        assertEquals(pair, PathSpec.Pair.parse(pair.toString()));

        final PathSpec.Pair same = PathSpec.Pair.parse("delay=5ms", null);
        assertEquals(same.forward(), same.reverse());
        assertEquals("delay=5ms", same.toString());
        assertThrows(PathSpecException.class, () -> PathSpec.Pair.parse("delay=1ms | delay=2ms | delay=3ms"));
    }

    @Test
    void loadsMahimahiTraceRelativeToBaseDirectory(@TempDir final Path directory) throws IOException
    {
        Files.writeString(directory.resolve("cell.down"), "1\n1\n\n2\n5\n");

        final PathSpec spec = PathSpec.parse("trace=cell.down delay=10ms queue=1bdp", directory);

        final MahimahiTrace trace = assertInstanceOf(MahimahiTrace.class, spec.rate());
        assertEquals(4, trace.opportunityCount());
        assertEquals(5_000_000L, trace.periodNs());
        // 4 opportunities of 1504 bytes per 5 ms = 9.6256 Mbit/s.
        assertEquals(9_625_600L, trace.nominalBitsPerSecond());
        assertEquals("trace=cell.down delay=10ms queue=1bdp", spec.toString());
    }

    @Test
    void rejectsMalformedTraceFile(@TempDir final Path directory) throws IOException
    {
        Files.writeString(directory.resolve("bad"), "1\n2\nthree\n");
        final PathSpecException notNumber =
            assertThrows(PathSpecException.class, () -> PathSpec.parse("trace=bad", directory));
        assertTrue(notNumber.problem().contains("line 3"), notNumber.problem());

        Files.writeString(directory.resolve("decreasing"), "5\n2\n");
        assertThrows(PathSpecException.class, () -> PathSpec.parse("trace=decreasing", directory));

        assertThrows(PathSpecException.class, () -> PathSpec.parse("trace=x rate=1mbit", directory));
    }
}
