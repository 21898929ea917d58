package io.pacelink.link;

import io.pacelink.transport.wire.EcnCodepoint;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * Parses path-spec text ({@code key=value} tokens separated by spaces) into a {@link PathSpec}, turning every
 * problem into a {@link PathSpecException} that names the key, the value and the accepted form.
 */
final class PathSpecParser
{
    private static final String KEYS =
        "rate, trace, delay, jitter, distribution, order, loss, gemodel, duplicate, corrupt, police, burst, queue, " +
        "limit, qdisc, quantum, flows, target, interval, ecn, ce_threshold, min, max, probability, avpkt, harddrop, " +
        "headdrop, redflowlimit, ecn_rewrite";
    private static final String QUEUE_FORM = "a number with p (packets), b, kb, mb (bytes) or bdp, e.g. 100p or 1bdp";

    private PathSpecParser()
    {
    }

    static PathSpec parse(final String text, final Path baseDirectory)
    {
        RateSchedule rate = StepRateSchedule.unlimited();
        long delayNs = 0;
        long jitterNs = 0;
        JitterDistribution distribution = JitterDistribution.UNIFORM;
        boolean keepOrder = false;
        LossModel loss = LossModel.NONE;
        double duplicate = 0;
        double corrupt = 0;
        long policeBitsPerSecond = 0;
        long burstBytes = 0;
        QueueLimit queueLimit = QueueLimit.DEFAULT;
        String qdisc = PathSpec.DEFAULT_QDISC;
        int quantumBytes = QueueConfig.DEFAULT_QUANTUM_BYTES;
        int flowBuckets = QueueConfig.DEFAULT_FLOW_BUCKETS;
        long codelTargetNs = QueueConfig.DEFAULT_CODEL_TARGET_NS;
        long codelIntervalNs = QueueConfig.DEFAULT_CODEL_INTERVAL_NS;
        AqmSpec.Toggle ecn = AqmSpec.Toggle.DEFAULT;
        long minBytes = 0;
        long maxBytes = 0;
        double probability = AqmSpec.DEFAULT_PROBABILITY;
        int avpktBytes = AqmSpec.DEFAULT_AVPKT_BYTES;
        long flowLimitBytes = 0;
        boolean hardDrop = false;
        boolean headDrop = false;
        long ceThresholdNs = 0;
        int ecnRewrite = PathSpec.NO_ECN_REWRITE;

        final Set<String> seen = new HashSet<>();
        for (final String token : text.trim().split("\\s+"))
        {
            if (token.isEmpty())
            {
                continue;
            }
            final int equals = token.indexOf('=');
            if (equals <= 0 || equals == token.length() - 1)
            {
                throw new PathSpecException(text, "\"" + token + "\" is not key=value (write delay=75ms, not " +
                    "delay 75ms)");
            }
            final String key = token.substring(0, equals).toLowerCase(Locale.ROOT);
            final String value = token.substring(equals + 1);
            if (!seen.add(exclusiveGroup(key)))
            {
                throw new PathSpecException(text, key + ": given twice, or together with " + conflictsOf(key));
            }

            try
            {
                switch (key)
                {
                    case "rate" -> rate = parseRateSteps(value);
                    case "trace" -> rate = loadTrace(value, baseDirectory);
                    case "delay" -> delayNs = SpecUnits.parseTime(value);
                    case "jitter" -> jitterNs = SpecUnits.parseTime(value);
                    case "distribution" -> distribution = parseDistribution(value);
                    case "order" -> keepOrder = parseOrder(value);
                    case "loss" -> loss = LossModel.bernoulli(SpecUnits.parsePercent(value));
                    case "gemodel" -> loss = parseGilbertElliott(value);
                    case "duplicate" -> duplicate = SpecUnits.parsePercent(value);
                    case "corrupt" -> corrupt = SpecUnits.parsePercent(value);
                    case "police" -> policeBitsPerSecond = parsePositiveRate(value);
                    case "burst" -> burstBytes = SpecUnits.parseBytes(value);
                    case "queue" -> queueLimit = parseQueueLimit(value);
                    case "limit" -> queueLimit = new QueueLimit(QueueLimit.Unit.PACKETS, parseCount(value, "packets"));
                    case "qdisc" -> qdisc = BottleneckQueues.factory(value).name();
                    case "quantum" -> quantumBytes = (int)parseCount(stripSuffix(value, "b"), "bytes");
                    case "flows" -> flowBuckets = (int)parseCount(value, "flow buckets");
                    case "target" -> codelTargetNs = SpecUnits.parseTime(value);
                    case "interval" -> codelIntervalNs = SpecUnits.parseTime(value);
                    case AqmSpec.ECN -> ecn = parseOnOff(value) ? AqmSpec.Toggle.ON : AqmSpec.Toggle.OFF;
                    case AqmSpec.CE_THRESHOLD -> ceThresholdNs = parsePositiveTime(value);
                    case AqmSpec.MIN -> minBytes = parsePositiveBytes(value);
                    case AqmSpec.MAX -> maxBytes = parsePositiveBytes(value);
                    case AqmSpec.PROBABILITY -> probability = parseProbability(value);
                    case AqmSpec.AVPKT -> avpktBytes = (int)Math.min(Integer.MAX_VALUE, parsePositiveBytes(value));
                    case AqmSpec.REDFLOWLIMIT -> flowLimitBytes = parsePositiveBytes(value);
                    case AqmSpec.HARDDROP -> hardDrop = parseOnOff(value);
                    case AqmSpec.HEADDROP -> headDrop = parseOnOff(value);
                    case "ecn_rewrite" -> ecnRewrite = EcnCodepoint.parse(value);
                    default -> throw new IllegalArgumentException("unknown key; accepted keys: " + KEYS);
                }
            }
            catch (final PathSpecException ex)
            {
                throw ex;
            }
            catch (final IllegalArgumentException ex)
            {
                throw new PathSpecException(text, key + ": " + ex.getMessage());
            }
        }

        if ((policeBitsPerSecond > 0) != seen.contains("burst"))
        {
            throw new PathSpecException(text, policeBitsPerSecond > 0 ?
                "police: needs the bucket size too, e.g. police=10mbit burst=100kb (as tc police rate 10mbit burst " +
                    "100kb)" :
                "burst: is the size of a policer's bucket and needs its rate, e.g. police=10mbit burst=100kb");
        }

        final BottleneckQueueFactory factory = BottleneckQueues.factory(qdisc);
        for (final String key : seen)
        {
            if (AqmSpec.isAqmKey(key) && !factory.aqmKeys().contains(key))
            {
                throw new PathSpecException(text, key + ": does not apply to qdisc=" + qdisc + "; it applies to " +
                    BottleneckQueues.disciplinesReading(key));
            }
        }

        final PathSpec spec;
        try
        {
            spec = new PathSpec(
                rate,
                delayNs,
                jitterNs,
                distribution,
                keepOrder,
                loss,
                duplicate,
                corrupt,
                0 == policeBitsPerSecond ? PolicerSpec.NONE : new PolicerSpec(policeBitsPerSecond, burstBytes),
                queueLimit,
                qdisc,
                quantumBytes,
                flowBuckets,
                codelTargetNs,
                codelIntervalNs,
                new AqmSpec(ecn, minBytes, maxBytes, probability, avpktBytes, flowLimitBytes, hardDrop, headDrop,
                    ceThresholdNs),
                ecnRewrite);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new PathSpecException(text, ex.getMessage());
        }
        checkQueueParameters(text, spec, factory);
        return spec;
    }

    /**
     * A discipline with AQM settings (RED's thresholds against the limit) is built once here, so that a setting it
     * cannot use fails now rather than when a run starts. A limit in BDP is resolved with this direction's delay both
     * ways.
     */
    private static void checkQueueParameters(
        final String text, final PathSpec spec, final BottleneckQueueFactory factory)
    {
        if (factory.aqmKeys().isEmpty())
        {
            return;
        }
        try
        {
            factory.newQueue(spec.queueConfig(2 * spec.delayNs(), 0), (packet, nowNs) -> { });
        }
        catch (final IllegalArgumentException ex)
        {
            throw new PathSpecException(text, "qdisc=" + spec.qdisc() + ": " + ex.getMessage());
        }
    }

    private static boolean parseOnOff(final String value)
    {
        return switch (value.toLowerCase(Locale.ROOT))
        {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException("\"" + value + "\" is not on or off");
        };
    }

    private static long parsePositiveBytes(final String value)
    {
        final long bytes = SpecUnits.parseBytes(value);
        if (bytes <= 0)
        {
            throw new IllegalArgumentException("\"" + value + "\" must be a positive size, e.g. 4500b or 18kb");
        }
        return bytes;
    }

    private static long parsePositiveTime(final String value)
    {
        final long ns = SpecUnits.parseTime(value);
        if (ns <= 0)
        {
            throw new IllegalArgumentException("\"" + value + "\" must be a positive time, e.g. 1ms");
        }
        return ns;
    }

    /**
     * tc's form (a fraction, {@code 0.02}) or a percentage ({@code 2%}).
     */
    private static double parseProbability(final String value)
    {
        if (value.endsWith("%"))
        {
            return SpecUnits.parsePercent(value);
        }
        try
        {
            return Double.parseDouble(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("\"" + value + "\" is not a probability; e.g. 0.02 or 2%", ex);
        }
    }

    /**
     * Keys that set the same thing share a group, so giving both is caught as a conflict.
     */
    private static String exclusiveGroup(final String key)
    {
        return switch (key)
        {
            case "rate", "trace" -> "rate";
            case "loss", "gemodel" -> "loss";
            case "queue", "limit" -> "queue";
            default -> key;
        };
    }

    private static String conflictsOf(final String key)
    {
        return switch (exclusiveGroup(key))
        {
            case "rate" -> "rate= or trace= (give one of them, once)";
            case "loss" -> "loss= or gemodel= (give one of them, once)";
            case "queue" -> "queue= or limit= (give one of them, once)";
            default -> "itself";
        };
    }

    private static StepRateSchedule parseRateSteps(final String value)
    {
        final String[] steps = value.split(",", -1);
        final long[] startNs = new long[steps.length];
        final long[] bitsPerSecond = new long[steps.length];
        for (int i = 0; i < steps.length; i++)
        {
            final String step = steps[i];
            final int at = step.indexOf('@');
            if (at < 0)
            {
                if (i > 0)
                {
                    throw new IllegalArgumentException("step \"" + step + "\" needs a start time, e.g. " +
                        "rate=100mbit,50mbit@30s");
                }
                bitsPerSecond[i] = SpecUnits.parseRate(step);
            }
            else
            {
                bitsPerSecond[i] = SpecUnits.parseRate(step.substring(0, at));
                startNs[i] = SpecUnits.parseTime(step.substring(at + 1));
            }
        }
        return StepRateSchedule.steps(startNs, bitsPerSecond);
    }

    private static MahimahiTrace loadTrace(final String value, final Path baseDirectory)
    {
        final Path file = null == baseDirectory ? Path.of(value) : baseDirectory.resolve(value);
        return MahimahiTrace.load(file, value);
    }

    private static JitterDistribution parseDistribution(final String value)
    {
        return switch (value.toLowerCase(Locale.ROOT))
        {
            case "uniform" -> JitterDistribution.UNIFORM;
            case "normal" -> JitterDistribution.NORMAL;
            default -> throw new IllegalArgumentException("\"" + value + "\" is not uniform or normal");
        };
    }

    private static boolean parseOrder(final String value)
    {
        return switch (value.toLowerCase(Locale.ROOT))
        {
            case "keep" -> true;
            case "reorder" -> false;
            default -> throw new IllegalArgumentException("\"" + value + "\" is not keep or reorder");
        };
    }

    /**
     * netem's defaults for the parameters left out (iproute2 {@code q_netem.c}): r = 1 - p, 1-h = 100%, 1-k = 0%.
     */
    private static LossModel parseGilbertElliott(final String value)
    {
        final String[] parts = value.split(",", -1);
        if (parts.length > 4)
        {
            throw new IllegalArgumentException("at most four values p,r,1-h,1-k, e.g. gemodel=1%,10%,100%,0%");
        }
        final double p = SpecUnits.parsePercent(parts[0]);
        final double r = parts.length > 1 ? SpecUnits.parsePercent(parts[1]) : 1 - p;
        final double lossInBad = parts.length > 2 ? SpecUnits.parsePercent(parts[2]) : 1;
        final double lossInGood = parts.length > 3 ? SpecUnits.parsePercent(parts[3]) : 0;
        return LossModel.gilbertElliott(p, r, lossInBad, lossInGood);
    }

    private static QueueLimit parseQueueLimit(final String value)
    {
        final Matcher matcher = SpecUnits.match(value, QUEUE_FORM);
        final BigDecimal amount = new BigDecimal(matcher.group(1));
        final String unit = matcher.group(2).toLowerCase(Locale.ROOT);
        if (SpecUnits.sizeMultiplier(unit) > 0)
        {
            return new QueueLimit(QueueLimit.Unit.BYTES, SpecUnits.parseBytes(value));
        }
        return switch (unit)
        {
            case "p" -> new QueueLimit(QueueLimit.Unit.PACKETS, wholeAmount(amount, value));
            case "bdp" -> new QueueLimit(QueueLimit.Unit.BDP, amount.doubleValue());
            case "" -> throw new IllegalArgumentException("\"" + value + "\" has no unit; expected " + QUEUE_FORM);
            default -> throw new IllegalArgumentException("\"" + value + "\" has an unknown unit \"" +
                matcher.group(2) + "\"; expected " + QUEUE_FORM);
        };
    }

    private static long parsePositiveRate(final String value)
    {
        final long bitsPerSecond = SpecUnits.parseRate(value);
        if (bitsPerSecond <= 0)
        {
            throw new IllegalArgumentException("\"" + value + "\" must be a positive rate, e.g. 10mbit");
        }
        return bitsPerSecond;
    }

    private static long wholeAmount(final BigDecimal amount, final String value)
    {
        if (amount.stripTrailingZeros().scale() > 0)
        {
            throw new IllegalArgumentException("\"" + value + "\" must be a whole number");
        }
        return SpecUnits.exactLong(amount, value);
    }

    private static long parseCount(final String value, final String what)
    {
        try
        {
            final long count = Long.parseLong(value);
            if (count <= 0 || count > Integer.MAX_VALUE)
            {
                throw new IllegalArgumentException("\"" + value + "\" must be a positive number of " + what);
            }
            return count;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("\"" + value + "\" is not a whole number of " + what, ex);
        }
    }

    private static String stripSuffix(final String value, final String suffix)
    {
        return value.toLowerCase(Locale.ROOT).endsWith(suffix) ? value.substring(0, value.length() - suffix.length()) :
            value;
    }
}
