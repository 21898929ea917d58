package io.pacelink.sim.results;

/**
 * Fairness across flows.
 */
public final class Fairness
{
    private Fairness()
    {
    }

    /**
     * Jain's fairness index (Jain, Chiu, Hawe 1984): {@code (Σx)² / (n·Σx²)}, 1 when all flows get the same, 1/n
     * when one flow gets everything.
     *
     * @param throughputs each flow's throughput (any unit), not negative.
     * @return the index in [1/n, 1]; 1 for no flows or all zeros.
     */
    public static double jainIndex(final double... throughputs)
    {
        double sum = 0;
        double sumOfSquares = 0;
        for (final double x : throughputs)
        {
            if (x < 0)
            {
                throw new IllegalArgumentException("throughput must not be negative: " + x);
            }
            sum += x;
            sumOfSquares += x * x;
        }
        return sumOfSquares == 0 ? 1.0 : sum * sum / (throughputs.length * sumOfSquares);
    }
}
