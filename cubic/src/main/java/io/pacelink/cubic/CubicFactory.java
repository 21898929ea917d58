package io.pacelink.cubic;

import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerParameters;

/**
 * Registers CUBIC with HyStart++ under the name {@value #NAME}.
 */
public final class CubicFactory implements CongestionControllerFactory
{
    /**
     * The name users select the controller by.
     */
    public static final String NAME = "cubic";

    public String name()
    {
        return NAME;
    }

    public void validate(final ControllerParameters parameters)
    {
        CubicParameters.from(parameters);
    }

    public CongestionController newController(final ControllerContext context)
    {
        return new CubicController(context, CubicParameters.from(context.parameters()));
    }
}
