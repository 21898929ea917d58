package io.pacelink.bbr.v3;

/**
 * Creates {@link Bbr3Controller}s that run BBRv2 alpha ({@link Bbr3Variant#V2_ALPHA}: the v3 state machine with
 * {@code tcp_bbr2.c}'s constants and rules where the two differ), selected by the name {@value #NAME}; parameters
 * {@code bbr2.*} as {@code bbr3.*} (docs/bbr.md).
 */
public final class Bbr2ControllerFactory extends Bbr3ControllerFactory
{
    /**
     * The name users select BBRv2 alpha by.
     */
    public static final String NAME = "bbr2";

    /**
     * The factory of BBRv2 alpha.
     */
    public Bbr2ControllerFactory()
    {
        super(Bbr3Variant.V2_ALPHA);
    }
}
