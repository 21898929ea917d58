package io.pacelink.perf.cc;

import io.pacelink.transport.cc.CongestionController;

/**
 * Replays a ring of recorded events into one controller, forever: each call delivers the next event (showing its RTT
 * statistics first, as the transport updates RTT before calling the controller, and bounding its bytes in flight by
 * the controller's window), and after the last event the next lap starts so time and counters keep growing.
 * Allocation free.
 */
public final class TraceReplay
{
    private final TraceEvent[] events;
    private final ReplayAdjuster adjuster;
    private final ReplayRttStats rttStats;
    private final CongestionController controller;
    private int index;

    TraceReplay(
        final TraceEvent[] events,
        final ReplayAdjuster adjuster,
        final ReplayRttStats rttStats,
        final CongestionController controller)
    {
        if (0 == events.length)
        {
            throw new IllegalArgumentException("nothing to replay");
        }
        this.events = events;
        this.adjuster = adjuster;
        this.rttStats = rttStats;
        this.controller = controller;
    }

    /**
     * Deliver the next event to the controller.
     */
    public void replayNext()
    {
        final TraceEvent event = events[index];
        adjuster.congestionWindowBytes(controller.congestionWindowBytes());
        rttStats.show(event.rtt);
        event.replay(controller);
        if (++index == events.length)
        {
            index = 0;
            adjuster.nextLap();
        }
    }

    /**
     * @return the controller being driven.
     */
    public CongestionController controller()
    {
        return controller;
    }

    /**
     * @return events in one lap.
     */
    public int length()
    {
        return events.length;
    }
}
