package io.pacelink.perf.cc;

import io.pacelink.transport.cc.CongestionController;

/**
 * One recorded controller callback with the RTT statistics the controller could read at the time; immutable, its
 * absolute values shifted by the trace's {@link TraceLap} when replayed.
 */
abstract class TraceEvent
{
    final RttSnapshot rtt;
    final TraceLap lap;

    TraceEvent(final RttSnapshot rtt, final TraceLap lap)
    {
        this.rtt = rtt;
        this.lap = lap;
    }

    /**
     * Deliver the event to a controller, as the transport would.
     *
     * @param controller the controller being replayed.
     */
    abstract void replay(CongestionController controller);
}
