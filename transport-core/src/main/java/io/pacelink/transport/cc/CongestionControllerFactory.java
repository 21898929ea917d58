package io.pacelink.transport.cc;

/**
 * Creates controllers of one algorithm. Implementations are found with {@link java.util.ServiceLoader} (listed in
 * {@code META-INF/services/io.pacelink.transport.cc.CongestionControllerFactory}) and selected by {@link #name()}.
 */
public interface CongestionControllerFactory
{
    /**
     * @return the algorithm's name as users type it, e.g. {@code "reno"}, {@code "cubic"}, {@code "bbr"},
     * {@code "bbr3"}.
     */
    String name();

    /**
     * Validate parameters without building a controller, so configuration errors surface at start-up.
     *
     * @param parameters the parameters the controller would get.
     * @throws IllegalArgumentException if a parameter for this controller is unknown, malformed or out of range.
     */
    void validate(ControllerParameters parameters);

    /**
     * @param context the connection's controller context.
     * @return a new controller for one connection.
     */
    CongestionController newController(ControllerContext context);
}
