package io.pacelink.reno;

import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerParameters;

/**
 * Registers NewReno under the name {@value #NAME}.
 */
public final class NewRenoFactory implements CongestionControllerFactory
{
    /**
     * The name users select the controller by.
     */
    public static final String NAME = "reno";

    public String name()
    {
        return NAME;
    }

    public void validate(final ControllerParameters parameters)
    {
        NewRenoParameters.from(parameters);
    }

    public CongestionController newController(final ControllerContext context)
    {
        return new NewRenoController(context, NewRenoParameters.from(context.parameters()));
    }
}
