package io.pacelink.perf.cc;

import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.testing.RecordingController;

/**
 * One recorded controller callback with the RTT statistics the controller could read at the time; immutable, its
 * values adjusted by the trace's {@link ReplayAdjuster} when replayed.
 */
abstract class TraceEvent
{
    final RecordingController.Rtt rtt;
    final ReplayAdjuster adjuster;

    TraceEvent(final RecordingController.Rtt rtt, final ReplayAdjuster adjuster)
    {
        this.rtt = rtt;
        this.adjuster = adjuster;
    }

    /**
     * Deliver the event to a controller, as the transport would.
     *
     * @param controller the controller being replayed.
     */
    abstract void replay(CongestionController controller);
}
