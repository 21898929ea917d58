package io.pacelink.transport.cc;

import org.agrona.concurrent.status.AtomicCounter;

/**
 * Where a controller registers the counters it publishes (e.g. BBR's bandwidth estimate, CUBIC's W_max). The
 * counters are labelled with the connection and released with it; allocate them once, at construction.
 */
public interface ControllerCounters
{
    /**
     * @param name short name of the quantity including its unit, e.g. {@code "bbr-max-bw-bps"}.
     * @return a counter the controller updates with {@code setOrdered}/{@code setRelease}.
     */
    AtomicCounter newCounter(String name);
}
