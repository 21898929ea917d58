package io.pacelink.bbr.v1;

import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerParameters;

/**
 * Creates {@link Bbr1Controller}s: BBRv1 with Linux {@code tcp_bbr.c} behaviour, selected by the name
 * {@code "bbr"}; {@link BbrPlusControllerFactory} creates the BBRplus variant.
 */
public class Bbr1ControllerFactory implements CongestionControllerFactory
{
    /**
     * The name users select BBRv1 by.
     */
    public static final String NAME = "bbr";

    private final Bbr1Variant variant;

    /**
     * The factory of Linux BBRv1 ({@value #NAME}).
     */
    public Bbr1ControllerFactory()
    {
        this(Bbr1Variant.LINUX);
    }

    /**
     * @param variant the {@code tcp_bbr.c} the controllers follow; its name is the factory's.
     */
    Bbr1ControllerFactory(final Bbr1Variant variant)
    {
        this.variant = variant;
    }

    public String name()
    {
        return variant.controllerName();
    }

    public void validate(final ControllerParameters parameters)
    {
        Bbr1Parameters.from(parameters, variant);
    }

    public CongestionController newController(final ControllerContext context)
    {
        return new Bbr1Controller(context, Bbr1Parameters.from(context.parameters(), variant));
    }
}
