package io.pacelink.bbr.v3;

import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerParameters;

/**
 * Creates BBRv3 controllers (draft-ietf-ccwg-bbr), registered under the name {@value #NAME};
 * {@link Bbr2ControllerFactory} creates the BBRv2 alpha variant.
 */
public class Bbr3ControllerFactory implements CongestionControllerFactory
{
    /**
     * The name users select BBRv3 by.
     */
    public static final String NAME = "bbr3";

    private final Bbr3Variant variant;

    /**
     * The factory of BBRv3 ({@value #NAME}).
     */
    public Bbr3ControllerFactory()
    {
        this(Bbr3Variant.V3);
    }

    /**
     * @param variant the BBR the controllers run; its name is the factory's.
     */
    Bbr3ControllerFactory(final Bbr3Variant variant)
    {
        this.variant = variant;
    }

    public String name()
    {
        return variant.controllerName();
    }

    public void validate(final ControllerParameters parameters)
    {
        Bbr3Parameters.from(parameters, variant);
    }

    public CongestionController newController(final ControllerContext context)
    {
        return new Bbr3Controller(context, Bbr3Parameters.from(context.parameters(), variant));
    }
}
