package io.pacelink.report;

/**
 * One entry of a suite scenario's flow list: {@code count} identical flows, with a fixed controller or the controller
 * under test.
 *
 * @param congestionControl the flows' controller, or null for the controller under test (the scenario then runs once
 *                          per controller of the report).
 * @param count             how many such flows, at least one.
 * @param startNs           when they connect.
 * @param stopNs            when they stop sending ({@link Long#MAX_VALUE}: at the end of the run).
 * @param accessDelayNs     extra one-way delay of each of the flow's two access links (sender and receiver host), so
 *                          its RTT is the path's plus four times this.
 */
public record FlowTemplate(String congestionControl, int count, long startNs, long stopNs, long accessDelayNs)
{
    /**
     * @return true if the flows take the controller under test.
     */
    public boolean takesControllerUnderTest()
    {
        return null == congestionControl;
    }
}
