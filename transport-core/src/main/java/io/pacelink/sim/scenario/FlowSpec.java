package io.pacelink.sim.scenario;

import io.pacelink.transport.cc.ControllerParameters;

/**
 * One flow of a scenario: its controller, when it runs, what its application does, and which sender endpoint it
 * shares (flows with the same sender group share one endpoint, one socket, one packet scheduler).
 *
 * @param congestionControl controller name, e.g. {@code bbr}.
 * @param parameters        controller parameters.
 * @param startNs           when the client connects.
 * @param stopNs            when the application stops offering ({@link Long#MAX_VALUE}: never).
 * @param pattern           the application.
 * @param senderGroup       flows with the same non-negative group share a sender endpoint; -1 gives the flow its
 *                          own.
 * @param accessDelayNs     extra one-way delay of this flow's hosts' access links (different RTTs).
 */
public record FlowSpec(
    String congestionControl,
    ControllerParameters parameters,
    long startNs,
    long stopNs,
    AppPattern pattern,
    int senderGroup,
    long accessDelayNs)
{
    /**
     * @param congestionControl controller name.
     * @return a bulk flow for the whole scenario on its own endpoint.
     */
    public static FlowSpec bulk(final String congestionControl)
    {
        return new FlowSpec(congestionControl, ControllerParameters.EMPTY, 0, Long.MAX_VALUE, AppPattern.bulk(), -1, 0);
    }

    /**
     * @param startNs when the flow starts.
     * @param stopNs  when it stops offering.
     * @return a copy running in that window.
     */
    public FlowSpec during(final long startNs, final long stopNs)
    {
        return new FlowSpec(congestionControl, parameters, startNs, stopNs, pattern, senderGroup, accessDelayNs);
    }

    /**
     * @param newPattern the application.
     * @return a copy with that application.
     */
    public FlowSpec with(final AppPattern newPattern)
    {
        return new FlowSpec(congestionControl, parameters, startNs, stopNs, newPattern, senderGroup, accessDelayNs);
    }

    /**
     * @param newParameters controller parameters.
     * @return a copy with those parameters.
     */
    public FlowSpec with(final ControllerParameters newParameters)
    {
        return new FlowSpec(congestionControl, newParameters, startNs, stopNs, pattern, senderGroup, accessDelayNs);
    }

    /**
     * @param group sender group (see the record's description).
     * @return a copy in that group.
     */
    public FlowSpec inSenderGroup(final int group)
    {
        return new FlowSpec(congestionControl, parameters, startNs, stopNs, pattern, group, accessDelayNs);
    }

    /**
     * @param delayNs extra one-way access delay.
     * @return a copy with that access delay.
     */
    public FlowSpec withAccessDelay(final long delayNs)
    {
        return new FlowSpec(congestionControl, parameters, startNs, stopNs, pattern, senderGroup, delayNs);
    }
}
