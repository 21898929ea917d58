package io.pacelink.link;

import io.pacelink.transport.wire.EcnCodepoint;

import java.nio.file.Path;
import java.util.StringJoiner;

/**
 * One direction of an emulated path, parsed from netem-like text such as
 * {@code rate=100mbit delay=75ms jitter=7.5ms loss=8% queue=1bdp}. Used alike by the simulator, the real-time relay
 * and the command line. Immutable. {@link #toString()} gives the canonical text, which parses back to an equal spec.
 * The accepted keys are listed in {@link #ACCEPTED_FORM}; {@link Pair} holds the two directions of a path.
 *
 * <p>The model of a direction, in order: random loss, duplication and corruption as a packet arrives (as netem
 * does on enqueue), then a token-bucket policer ({@code police=} and {@code burst=}, as tc's {@code police} action)
 * that drops what exceeds it, then the bottleneck queue ({@code qdisc=}, limited by {@code queue=}), then
 * serialization at the bottleneck rate one packet at a time, then propagation delay plus jitter. With jitter, packets
 * may overtake each other as in netem unless {@code order=keep}.
 *
 * @param rate                 the bottleneck's rate over time ({@code rate=} or {@code trace=}), unlimited if absent.
 * @param delayNs              one-way propagation delay.
 * @param jitterNs             jitter around the delay: half-width for uniform, standard deviation for normal.
 * @param jitterDistribution   how jitter is drawn.
 * @param keepOrder            true if jitter must not reorder packets ({@code order=keep}).
 * @param loss                 random loss.
 * @param duplicateProbability probability that a packet is delivered twice.
 * @param corruptProbability   probability that one random bit of a packet is flipped.
 * @param policer              a token-bucket policer in front of the queue, or {@link PolicerSpec#NONE}.
 * @param queueLimit           the bottleneck queue's limit.
 * @param qdisc                the bottleneck queue discipline's {@link BottleneckQueueFactory#name()}.
 * @param quantumBytes         DRR quantum of fair queues.
 * @param flowBuckets          number of flow buckets of hashing fair queues.
 * @param codelTargetNs        CoDel target sojourn time.
 * @param codelIntervalNs      CoDel interval.
 * @param aqm                  ECN marking, RED and step-marking settings of the queue ({@link AqmSpec}).
 * @param ecnRewrite           an ECN codepoint every packet is rewritten to on arrival, as a broken middlebox would
 *                             (bleaching to not-ECT, remarking to ECT(1) or CE), or {@link #NO_ECN_REWRITE}.
 */
public record PathSpec(
    RateSchedule rate,
    long delayNs,
    long jitterNs,
    JitterDistribution jitterDistribution,
    boolean keepOrder,
    LossModel loss,
    double duplicateProbability,
    double corruptProbability,
    PolicerSpec policer,
    QueueLimit queueLimit,
    String qdisc,
    int quantumBytes,
    int flowBuckets,
    long codelTargetNs,
    long codelIntervalNs,
    AqmSpec aqm,
    int ecnRewrite)
{
    /**
     * The queue discipline used unless {@code qdisc=} names another: drop-tail FIFO.
     */
    public static final String DEFAULT_QDISC = "fifo";

    /**
     * {@link #ecnRewrite()} when packets keep the ECN field they were sent with.
     */
    public static final int NO_ECN_REWRITE = -1;

    /**
     * Every key a path spec accepts, with examples: shown by parse errors and usable as command-line help.
     */
    public static final String ACCEPTED_FORM = String.join(System.lineSeparator(),
        "  rate=100mbit                  bottleneck rate (bit, kbit, mbit, gbit, tbit); absent: no bottleneck",
        "  rate=100mbit,20mbit@30s       rate steps: a new rate from the given time on",
        "  trace=FILE                    mahimahi trace instead of rate= (one 1504-byte opportunity per ms line)",
        "  delay=75ms                    one-way propagation delay (ns, us, ms, s)",
        "  jitter=7.5ms                  jitter around the delay",
        "  distribution=uniform|normal   jitter distribution (default uniform)",
        "  order=reorder|keep            whether jitter may reorder packets (default reorder, like netem)",
        "  loss=1%                       Bernoulli loss",
        "  gemodel=p,r,1-h,1-k           Gilbert-Elliott loss, e.g. gemodel=1%,10%,100%,0% (as netem loss gemodel)",
        "  duplicate=1%                  duplication",
        "  corrupt=0.1%                  flip one random bit",
        "  police=10mbit burst=100kb     token-bucket policer: drop what exceeds rate and bucket (as tc police)",
        "  queue=100p|64kb|150000b|1bdp  bottleneck queue limit (default 1000p); limit=N is queue=Np",
        "  qdisc=fifo                    queue discipline (fifo; fq, fq_codel, sfq with qdisc-fq)",
        "  quantum=1514 flows=1024       fair-queue quantum (bytes) and flow buckets",
        "  target=5ms interval=100ms     CoDel target and interval",
        "  ecn=on|off                    mark ECN-capable packets CE, not drop them (fq_codel, sfqred: on; red: off)",
        "  ce_threshold=1ms              fq_codel: also mark CE every packet that waited longer (L4S-style step)",
        "  min=4500b max=18kb            red, sfqred: average backlog where marking starts and where it is certain",
        "  probability=2% avpkt=1000b    red, sfqred: marking probability at max, mean packet size",
        "  harddrop=on|off               red, sfqred: drop above max even ECN-capable packets (default off)",
        "  redflowlimit=32kb headdrop=on sfqred: per-flow byte limit the thresholds derive from; mark/drop the head",
        "  ecn_rewrite=not-ect|ect0|ect1|ce  a middlebox rewriting every packet's ECN field (bleaching, remarking)",
        "Give the two directions of a path different specs with \"FORWARD | REVERSE\".");

    /**
     * @param rate                 the bottleneck's rate over time.
     * @param delayNs              one-way propagation delay.
     * @param jitterNs             jitter around the delay.
     * @param jitterDistribution   how jitter is drawn.
     * @param keepOrder            true if jitter must not reorder packets.
     * @param loss                 random loss.
     * @param duplicateProbability probability that a packet is delivered twice.
     * @param corruptProbability   probability that one random bit of a packet is flipped.
     * @param policer              a token-bucket policer, or {@link PolicerSpec#NONE}.
     * @param queueLimit           the bottleneck queue's limit.
     * @param qdisc                the bottleneck queue discipline.
     * @param quantumBytes         DRR quantum of fair queues.
     * @param flowBuckets          number of flow buckets.
     * @param codelTargetNs        CoDel target.
     * @param codelIntervalNs      CoDel interval.
     * @param aqm                  ECN marking, RED and step-marking settings.
     * @param ecnRewrite           a codepoint every packet is rewritten to, or {@link #NO_ECN_REWRITE}.
     */
    public PathSpec
    {
        if (delayNs < 0 || jitterNs < 0)
        {
            throw new IllegalArgumentException("delay and jitter must not be negative");
        }
        if (!(duplicateProbability >= 0 && duplicateProbability <= 1) ||
            !(corruptProbability >= 0 && corruptProbability <= 1))
        {
            throw new IllegalArgumentException("duplicate and corrupt must be probabilities in [0, 1]");
        }
        if (quantumBytes <= 0 || flowBuckets <= 0 || codelTargetNs <= 0 || codelIntervalNs <= 0)
        {
            throw new IllegalArgumentException("quantum, flows, target and interval must be positive");
        }
        if (queueLimit.isInBdp() && rate.nominalBitsPerSecond() == RateSchedule.UNLIMITED_BITS_PER_SECOND)
        {
            throw new IllegalArgumentException("a queue in BDP (" + queueLimit.toSpec() +
                ") needs a bottleneck rate (rate= or trace=)");
        }
        if (qdisc.isEmpty())
        {
            throw new IllegalArgumentException("qdisc must name a queue discipline");
        }
        if (null == aqm)
        {
            throw new IllegalArgumentException("aqm must be given (AqmSpec.DEFAULT for none)");
        }
        if (NO_ECN_REWRITE != ecnRewrite && (ecnRewrite < 0 || ecnRewrite > EcnCodepoint.MASK))
        {
            throw new IllegalArgumentException("ecn_rewrite must be an ECN codepoint 0..3, or none");
        }
    }

    /**
     * A spec without AQM settings or ECN rewriting, as before they existed.
     *
     * @param rate                 the bottleneck's rate over time.
     * @param delayNs              one-way propagation delay.
     * @param jitterNs             jitter around the delay.
     * @param jitterDistribution   how jitter is drawn.
     * @param keepOrder            true if jitter must not reorder packets.
     * @param loss                 random loss.
     * @param duplicateProbability probability that a packet is delivered twice.
     * @param corruptProbability   probability that one random bit of a packet is flipped.
     * @param policer              a token-bucket policer, or {@link PolicerSpec#NONE}.
     * @param queueLimit           the bottleneck queue's limit.
     * @param qdisc                the bottleneck queue discipline.
     * @param quantumBytes         DRR quantum of fair queues.
     * @param flowBuckets          number of flow buckets.
     * @param codelTargetNs        CoDel target.
     * @param codelIntervalNs      CoDel interval.
     * @deprecated use the canonical constructor with {@link AqmSpec#DEFAULT} and {@link #NO_ECN_REWRITE}, or
     * {@link #parse(String)}; to be removed in the next minor version.
     */
    @Deprecated
    public PathSpec(
        final RateSchedule rate,
        final long delayNs,
        final long jitterNs,
        final JitterDistribution jitterDistribution,
        final boolean keepOrder,
        final LossModel loss,
        final double duplicateProbability,
        final double corruptProbability,
        final PolicerSpec policer,
        final QueueLimit queueLimit,
        final String qdisc,
        final int quantumBytes,
        final int flowBuckets,
        final long codelTargetNs,
        final long codelIntervalNs)
    {
        this(rate, delayNs, jitterNs, jitterDistribution, keepOrder, loss, duplicateProbability, corruptProbability,
            policer, queueLimit, qdisc, quantumBytes, flowBuckets, codelTargetNs, codelIntervalNs, AqmSpec.DEFAULT,
            NO_ECN_REWRITE);
    }

    /**
     * @param text the spec, e.g. {@code rate=100mbit delay=75ms loss=8% queue=1bdp}; empty for a perfect link.
     * @return the parsed spec; a {@code trace=} file is read relative to the working directory.
     * @throws PathSpecException saying what is wrong and showing the accepted form.
     */
    public static PathSpec parse(final String text)
    {
        return PathSpecParser.parse(text, null);
    }

    /**
     * @param text          the spec.
     * @param baseDirectory where relative {@code trace=} files are found.
     * @return the parsed spec.
     * @throws PathSpecException saying what is wrong and showing the accepted form.
     */
    public static PathSpec parse(final String text, final Path baseDirectory)
    {
        return PathSpecParser.parse(text, baseDirectory);
    }

    /**
     * @param delayNs the one-way delay.
     * @return a link with only a propagation delay (no bottleneck, loss or jitter): an access link.
     */
    public static PathSpec delayOnly(final long delayNs)
    {
        return new PathSpec(
            StepRateSchedule.unlimited(),
            delayNs,
            0,
            JitterDistribution.UNIFORM,
            false,
            LossModel.NONE,
            0,
            0,
            PolicerSpec.NONE,
            QueueLimit.DEFAULT,
            DEFAULT_QDISC,
            QueueConfig.DEFAULT_QUANTUM_BYTES,
            QueueConfig.DEFAULT_FLOW_BUCKETS,
            QueueConfig.DEFAULT_CODEL_TARGET_NS,
            QueueConfig.DEFAULT_CODEL_INTERVAL_NS,
            AqmSpec.DEFAULT,
            NO_ECN_REWRITE);
    }

    /**
     * @param bitsPerSecond the rate, positive.
     * @return a link that only serializes at a rate, with netem's default 1000-packet queue (no delay, loss or
     * jitter): a host's network interface.
     */
    public static PathSpec lineRateOnly(final long bitsPerSecond)
    {
        final PathSpec perfect = delayOnly(0);
        return new PathSpec(
            StepRateSchedule.constant(bitsPerSecond),
            0,
            0,
            perfect.jitterDistribution,
            false,
            LossModel.NONE,
            0,
            0,
            PolicerSpec.NONE,
            perfect.queueLimit,
            perfect.qdisc,
            perfect.quantumBytes,
            perfect.flowBuckets,
            perfect.codelTargetNs,
            perfect.codelIntervalNs,
            perfect.aqm,
            NO_ECN_REWRITE);
    }

    /**
     * @return a spec with this one's propagation delay and jitter (distribution and ordering included) and nothing
     * else: no bottleneck, policer, loss, duplication or corruption. The command line's default for the reverse (ACK)
     * direction when only the forward one is given.
     */
    public PathSpec delayAndJitterOnly()
    {
        return new PathSpec(
            StepRateSchedule.unlimited(),
            delayNs,
            jitterNs,
            jitterDistribution,
            keepOrder,
            LossModel.NONE,
            0,
            0,
            PolicerSpec.NONE,
            QueueLimit.DEFAULT,
            DEFAULT_QDISC,
            QueueConfig.DEFAULT_QUANTUM_BYTES,
            QueueConfig.DEFAULT_FLOW_BUCKETS,
            QueueConfig.DEFAULT_CODEL_TARGET_NS,
            QueueConfig.DEFAULT_CODEL_INTERVAL_NS,
            AqmSpec.DEFAULT,
            NO_ECN_REWRITE);
    }

    /**
     * Resolve the queue's limits and parameters; a {@code queue=Nbdp} limit becomes bytes from the nominal rate
     * (see {@link RateSchedule#nominalBitsPerSecond()}) and the given base RTT.
     *
     * @param baseRttNs the path's base round-trip time ({@link Pair#baseRttNs()}; {@code 2 * delayNs} alone).
     * @param seed      the queue's seed (hash perturbation), derived from the scenario's seed.
     * @return the queue configuration.
     */
    public QueueConfig queueConfig(final long baseRttNs, final long seed)
    {
        return new QueueConfig(
            queueLimit.limitPackets(),
            queueLimit.limitBytes(rate.nominalBitsPerSecond(), baseRttNs),
            quantumBytes,
            flowBuckets,
            codelTargetNs,
            codelIntervalNs,
            seed,
            aqm,
            rate.nominalBitsPerSecond());
    }

    /**
     * @return the canonical spec text: every key that differs from its default.
     */
    public String toString()
    {
        final StringJoiner spec = new StringJoiner(" ");
        addIfPresent(spec, rate.toSpec());
        if (delayNs != 0)
        {
            spec.add("delay=" + SpecUnits.formatTime(delayNs));
        }
        if (jitterNs != 0)
        {
            spec.add("jitter=" + SpecUnits.formatTime(jitterNs));
        }
        if (jitterDistribution != JitterDistribution.UNIFORM)
        {
            spec.add("distribution=" + jitterDistribution.specName());
        }
        if (keepOrder)
        {
            spec.add("order=keep");
        }
        addIfPresent(spec, loss.toSpec());
        if (duplicateProbability != 0)
        {
            spec.add("duplicate=" + SpecUnits.formatPercent(duplicateProbability));
        }
        if (corruptProbability != 0)
        {
            spec.add("corrupt=" + SpecUnits.formatPercent(corruptProbability));
        }
        addIfPresent(spec, policer.toSpec());
        if (!queueLimit.equals(QueueLimit.DEFAULT))
        {
            spec.add(queueLimit.toSpec());
        }
        if (!qdisc.equals(DEFAULT_QDISC))
        {
            spec.add("qdisc=" + qdisc);
        }
        if (quantumBytes != QueueConfig.DEFAULT_QUANTUM_BYTES)
        {
            spec.add("quantum=" + quantumBytes);
        }
        if (flowBuckets != QueueConfig.DEFAULT_FLOW_BUCKETS)
        {
            spec.add("flows=" + flowBuckets);
        }
        if (codelTargetNs != QueueConfig.DEFAULT_CODEL_TARGET_NS)
        {
            spec.add("target=" + SpecUnits.formatTime(codelTargetNs));
        }
        if (codelIntervalNs != QueueConfig.DEFAULT_CODEL_INTERVAL_NS)
        {
            spec.add("interval=" + SpecUnits.formatTime(codelIntervalNs));
        }
        aqm.appendTo(spec);
        if (NO_ECN_REWRITE != ecnRewrite)
        {
            spec.add("ecn_rewrite=" + EcnCodepoint.name(ecnRewrite));
        }
        return spec.toString();
    }

    private static void addIfPresent(final StringJoiner spec, final String part)
    {
        if (!part.isEmpty())
        {
            spec.add(part);
        }
    }

    /**
     * The two directions of a path: forward (client to server, left to right in a dumbbell) and reverse.
     *
     * @param forward the forward direction.
     * @param reverse the reverse direction.
     */
    public record Pair(PathSpec forward, PathSpec reverse)
    {
        /**
         * Separates the forward and the reverse spec in one text.
         */
        public static final char SEPARATOR = '|';

        /**
         * @param forward the forward direction.
         * @param reverse the reverse direction.
         * @throws PathSpecException if a queue is given in BDP on a path without delay: its BDP would be zero.
         */
        public Pair
        {
            if (forward.delayNs() + reverse.delayNs() == 0)
            {
                checkBdpQueueHasDelay(forward);
                checkBdpQueueHasDelay(reverse);
            }
        }

        /**
         * @param text one spec for both directions, or {@code "FORWARD | REVERSE"}.
         * @return the pair.
         * @throws PathSpecException saying what is wrong.
         */
        public static Pair parse(final String text)
        {
            final int separator = text.indexOf(SEPARATOR);
            if (separator < 0)
            {
                final PathSpec both = PathSpec.parse(text);
                return new Pair(both, both);
            }
            if (text.indexOf(SEPARATOR, separator + 1) >= 0)
            {
                throw new PathSpecException(text, "more than one '|'; give \"FORWARD | REVERSE\"");
            }
            return new Pair(
                PathSpec.parse(text.substring(0, separator)), PathSpec.parse(text.substring(separator + 1)));
        }

        /**
         * @param forward the forward spec.
         * @param reverse the reverse spec, or null to use the forward one for both directions.
         * @return the pair.
         * @throws PathSpecException saying what is wrong.
         */
        public static Pair parse(final String forward, final String reverse)
        {
            final PathSpec forwardSpec = PathSpec.parse(forward);
            return new Pair(forwardSpec, null == reverse ? forwardSpec : PathSpec.parse(reverse));
        }

        /**
         * @return the base round-trip time (the sum of both propagation delays): what {@code queue=Nbdp} uses.
         */
        public long baseRttNs()
        {
            return forward.delayNs() + reverse.delayNs();
        }

        private static void checkBdpQueueHasDelay(final PathSpec spec)
        {
            if (spec.queueLimit().isInBdp())
            {
                throw new PathSpecException(spec.toString(), spec.queueLimit().toSpec() + ": the path has no delay " +
                    "(delay= is 0 in both directions), so its bandwidth-delay product is 0 bytes; give the queue in " +
                    "packets or bytes (e.g. queue=100p or queue=64kb), or give the path a delay");
            }
        }

        /**
         * @return {@code "FORWARD | REVERSE"}, or one spec if both directions are equal.
         */
        public String toString()
        {
            return forward.equals(reverse) ? forward.toString() : forward + " " + SEPARATOR + " " + reverse;
        }
    }
}
