package io.pacelink.bbr.v1;

/**
 * Creates {@link Bbr1Controller}s that follow BBRplus ({@code tcp_bbrplus.c}, {@link Bbr1Variant#BBRPLUS}), selected
 * by the name {@value #NAME}; parameters {@code bbrplus.*} as {@code bbr.*} (docs/bbr.md).
 */
public final class BbrPlusControllerFactory extends Bbr1ControllerFactory
{
    /**
     * The name users select BBRplus by.
     */
    public static final String NAME = "bbrplus";

    /**
     * The factory of BBRplus.
     */
    public BbrPlusControllerFactory()
    {
        super(Bbr1Variant.BBRPLUS);
    }
}
