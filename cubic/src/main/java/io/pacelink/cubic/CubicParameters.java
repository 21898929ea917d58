package io.pacelink.cubic;

import io.pacelink.transport.cc.ControllerParameters;

import java.util.List;
import java.util.Set;

/**
 * The {@code cubic.*} controller parameters, validated once at construction (RFC 9438 section 4.1).
 */
public final class CubicParameters
{
    /**
     * Name of the multiplicative decrease factor β_cubic.
     */
    public static final String BETA = "cubic.beta";

    /**
     * Name of the cubic scaling constant C in segments per second cubed.
     */
    public static final String C = "cubic.c";

    /**
     * Name of the choice of how the initial slow start ends: {@code rfc9406} (HyStart++, the default), {@code linux}
     * (Linux {@code tcp_cubic.c}'s HyStart) or {@code off} (at the first loss). {@code true} and {@code false} are
     * accepted for {@code rfc9406} and {@code off}.
     */
    public static final String HYSTART = "cubic.hystart";

    /**
     * Name of the switch for fast convergence (RFC 9438 section 4.7).
     */
    public static final String FAST_CONVERGENCE = "cubic.fastConvergence";

    /**
     * RFC 9438 section 4.6: β_cubic SHOULD be 0.7.
     */
    public static final double DEFAULT_BETA = 0.7;

    /**
     * Smallest accepted β_cubic: Reno's halving.
     */
    public static final double MIN_BETA = 0.5;

    /**
     * Largest accepted β_cubic: the Reno-friendly α = 3(1 − β)/(1 + β) is still about 0.16 there.
     */
    public static final double MAX_BETA = 0.9;

    /**
     * RFC 9438 section 5.1: C SHOULD be 0.4.
     */
    public static final double DEFAULT_C = 0.4;

    /**
     * Smallest accepted C.
     */
    public static final double MIN_C = 0.01;

    /**
     * Largest accepted C.
     */
    public static final double MAX_C = 10.0;

    private static final Set<String> KNOWN_NAMES = Set.of(BETA, C, HYSTART, FAST_CONVERGENCE);

    /**
     * The values {@link #HYSTART} takes: the modes' names, then the booleans of its earlier, on/off form.
     */
    private static final List<String> HYSTART_CHOICES = List.of("rfc9406", "linux", "off", "true", "false");

    /**
     * How the initial slow start ends ({@value #HYSTART}).
     */
    public enum HyStartMode
    {
        /**
         * HyStart++ (RFC 9406): Conservative Slow Start after a rise of the round's minimum RTT.
         */
        RFC9406,

        /**
         * Linux's HyStart ({@code tcp_cubic.c}): ACK-train and delay-increase detectors, straight to congestion
         * avoidance.
         */
        LINUX,

        /**
         * Standard slow start until the first loss.
         */
        OFF
    }

    private final double beta;
    private final double c;
    private final HyStartMode hyStartMode;
    private final boolean isFastConvergenceEnabled;

    private CubicParameters(
        final double beta, final double c, final HyStartMode hyStartMode, final boolean isFastConvergenceEnabled)
    {
        this.beta = beta;
        this.c = c;
        this.hyStartMode = hyStartMode;
        this.isFastConvergenceEnabled = isFastConvergenceEnabled;
    }

    /**
     * @param parameters the connection's controller parameters.
     * @return the validated {@code cubic.*} values, defaults for those absent.
     * @throws IllegalArgumentException on an unknown {@code cubic.*} name or a malformed or out-of-range value.
     */
    public static CubicParameters from(final ControllerParameters parameters)
    {
        parameters.rejectUnknown("cubic.", KNOWN_NAMES);
        return new CubicParameters(
            parameters.getDouble(BETA, DEFAULT_BETA, MIN_BETA, MAX_BETA),
            parameters.getDouble(C, DEFAULT_C, MIN_C, MAX_C),
            hyStartMode(parameters.getChoice(HYSTART, "rfc9406", HYSTART_CHOICES)),
            parameters.getBoolean(FAST_CONVERGENCE, true));
    }

    /**
     * @return β_cubic.
     */
    public double beta()
    {
        return beta;
    }

    /**
     * @return C in segments per second cubed.
     */
    public double c()
    {
        return c;
    }

    /**
     * @return how the initial slow start ends.
     */
    public HyStartMode hyStartMode()
    {
        return hyStartMode;
    }

    /**
     * @return true if a reduction below the previous W_max lowers W_max further.
     */
    public boolean isFastConvergenceEnabled()
    {
        return isFastConvergenceEnabled;
    }

    private static HyStartMode hyStartMode(final String choice)
    {
        return switch (choice)
        {
            case "linux" -> HyStartMode.LINUX;
            case "off", "false" -> HyStartMode.OFF;
            default -> HyStartMode.RFC9406;
        };
    }
}
