package io.pacelink.bbr.v3;

import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerParameters;

/**
 * Creates BBRv3 controllers (draft-ietf-ccwg-bbr), registered under the name {@value #NAME}.
 */
public final class Bbr3ControllerFactory implements CongestionControllerFactory
{
    /**
     * The name users select BBRv3 by.
     */
    public static final String NAME = "bbr3";

    public String name()
    {
        return NAME;
    }

    public void validate(final ControllerParameters parameters)
    {
        Bbr3Parameters.from(parameters);
    }

    public CongestionController newController(final ControllerContext context)
    {
        return new Bbr3Controller(context, Bbr3Parameters.from(context.parameters()));
    }
}
