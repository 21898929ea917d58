package io.pacelink.bbr.v1;

import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerParameters;

/**
 * Creates {@link Bbr1Controller}s: BBRv1 with Linux {@code tcp_bbr.c} behaviour, selected by the name
 * {@code "bbr"}.
 */
public final class Bbr1ControllerFactory implements CongestionControllerFactory
{
    /**
     * The name users select BBRv1 by.
     */
    public static final String NAME = "bbr";

    public String name()
    {
        return NAME;
    }

    public void validate(final ControllerParameters parameters)
    {
        Bbr1Parameters.from(parameters);
    }

    public CongestionController newController(final ControllerContext context)
    {
        return new Bbr1Controller(context, Bbr1Parameters.from(context.parameters()));
    }
}
