package io.pacelink.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Generates the synthetic cellular downlink trace the built-in suites use ({@code cellular-synthetic.trace}, next to
 * the suites in the jar) in mahimahi's {@code mm-link} format: one line per 1504-byte delivery opportunity, its time
 * in ms; the last line is the period. The trace is made up, not recorded, to be plausible for an LTE downlink:
 * <ul>
 *     <li>the link's rate changes every 100 ms as a log-normal AR(1) process around 10 Mbit/s
 *     ({@code ln r' = ln 10M + 0.96 (ln r - ln 10M) + 0.18 N(0,1)}, so about 5 to 19 Mbit/s within one standard
 *     deviation), kept within 0.5 to 60 Mbit/s;</li>
 *     <li>now and then (probability 0.004 per 100 ms) a deep fade of 0.3 to 1.5 s at 5 % of the rate, as in a
 *     handover or a tunnel;</li>
 *     <li>the base station grants the flow a millisecond with probability 0.7; capacity accrues every millisecond
 *     and is delivered in the granted ones as whole opportunities, at most {@value #MAX_BURST_OPPORTUNITIES} at once
 *     (capacity beyond that is lost, as unused grants are), which gives the bursty delivery of real traces.</li>
 * </ul>
 * The same seed gives the same file; {@code CellularTraceTest} checks that the shipped file is this generator's
 * output. Regenerate with {@code main(path)} from the examples module's test class path.
 */
public final class CellularTraceGenerator
{
    /**
     * The seed of the shipped trace.
     */
    public static final long SEED = 16;

    /**
     * The shipped trace's period.
     */
    public static final int PERIOD_MS = 30_000;

    private static final int OPPORTUNITY_BYTES = 1504;
    private static final int RATE_STEP_MS = 100;
    private static final double MEAN_RATE_BPS = 10e6;
    private static final double AR_COEFFICIENT = 0.96;
    private static final double AR_NOISE = 0.18;
    private static final double MIN_RATE_BPS = 0.5e6;
    private static final double MAX_RATE_BPS = 60e6;
    private static final double FADE_PROBABILITY = 0.004;
    private static final int FADE_MIN_MS = 300;
    private static final int FADE_MAX_MS = 1500;
    private static final double FADE_FACTOR = 0.05;
    private static final double GRANT_PROBABILITY = 0.7;
    private static final int MAX_BURST_OPPORTUNITIES = 20;

    private CellularTraceGenerator()
    {
    }

    /**
     * @param seed     the seed.
     * @param periodMs the trace's length in ms.
     * @return the trace's text, one timestamp per line.
     */
    public static String generate(final long seed, final int periodMs)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final StringBuilder trace = new StringBuilder(periodMs * 8);
        final double meanLog = Math.log(MEAN_RATE_BPS);
        double logRate = meanLog;
        int fadeLeftMs = 0;
        double creditBytes = 0;
        int lastMs = -1;
        for (int ms = 1; ms <= periodMs; ms++)
        {
            if (ms % RATE_STEP_MS == 1)
            {
                logRate = meanLog + AR_COEFFICIENT * (logRate - meanLog) + AR_NOISE * gaussian(random);
                if (fadeLeftMs <= 0 && random.nextDouble() < FADE_PROBABILITY)
                {
                    fadeLeftMs = FADE_MIN_MS + random.nextInt(FADE_MAX_MS - FADE_MIN_MS + 1);
                }
            }
            double rateBps = Math.min(MAX_RATE_BPS, Math.max(MIN_RATE_BPS, Math.exp(logRate)));
            if (fadeLeftMs > 0)
            {
                rateBps *= FADE_FACTOR;
                fadeLeftMs--;
            }
            creditBytes += rateBps / 8 / 1000;
            if (random.nextDouble() < GRANT_PROBABILITY)
            {
                final int opportunities = Math.min(MAX_BURST_OPPORTUNITIES, (int)(creditBytes / OPPORTUNITY_BYTES));
                for (int i = 0; i < opportunities; i++)
                {
                    trace.append(ms).append('\n');
                    lastMs = ms;
                }
                creditBytes = opportunities == MAX_BURST_OPPORTUNITIES ? 0 : creditBytes - opportunities *
                    (double)OPPORTUNITY_BYTES;
            }
        }
        if (lastMs != periodMs)
        {
            // mahimahi repeats a trace with its last timestamp as the period: end it exactly there.
            trace.append(periodMs).append('\n');
        }
        return trace.toString();
    }

    /**
     * Standard normal draw (Box–Muller), from the seeded source.
     */
    private static double gaussian(final SplittableRandom random)
    {
        final double u1 = 1.0 - random.nextDouble();
        final double u2 = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    /**
     * @param args the file to write.
     * @throws IOException if it cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length != 1)
        {
            System.err.println("usage: CellularTraceGenerator FILE");
            System.exit(2);
        }
        Files.writeString(Path.of(args[0]), generate(SEED, PERIOD_MS), StandardCharsets.US_ASCII);
    }
}
