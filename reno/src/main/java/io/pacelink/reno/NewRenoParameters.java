package io.pacelink.reno;

import io.pacelink.transport.cc.ControllerParameters;

import java.util.Set;

/**
 * The {@code reno.*} controller parameters, validated once at construction.
 */
public final class NewRenoParameters
{
    /**
     * Name of the factor applied to cwnd on a congestion event: {@code ssthresh = cwnd * factor}.
     */
    public static final String LOSS_REDUCTION = "reno.lossReduction";

    /**
     * RFC 9002 section 7.3.2 {@code kLossReductionFactor}.
     */
    public static final double DEFAULT_LOSS_REDUCTION = 0.5;

    /**
     * Smallest accepted loss reduction factor: a deeper cut than the standard halving has no use.
     */
    public static final double MIN_LOSS_REDUCTION = 0.5;

    /**
     * Largest accepted loss reduction factor (e.g. 0.7 for a Reno that backs off like CUBIC in fairness experiments).
     */
    public static final double MAX_LOSS_REDUCTION = 0.9;

    private static final Set<String> KNOWN_NAMES = Set.of(LOSS_REDUCTION);

    private final double lossReductionFactor;

    private NewRenoParameters(final double lossReductionFactor)
    {
        this.lossReductionFactor = lossReductionFactor;
    }

    /**
     * @param parameters the connection's controller parameters.
     * @return the validated {@code reno.*} values, defaults for those absent.
     * @throws IllegalArgumentException on an unknown {@code reno.*} name or a value out of range.
     */
    public static NewRenoParameters from(final ControllerParameters parameters)
    {
        parameters.rejectUnknown("reno.", KNOWN_NAMES);
        return new NewRenoParameters(parameters.getDouble(
            LOSS_REDUCTION, DEFAULT_LOSS_REDUCTION, MIN_LOSS_REDUCTION, MAX_LOSS_REDUCTION));
    }

    /**
     * @return the factor cwnd is multiplied by on a congestion event.
     */
    public double lossReductionFactor()
    {
        return lossReductionFactor;
    }
}
