package io.pacelink.transport.engine;

import io.pacelink.transport.cc.CongestionController;

/**
 * Makes a connection a fresh congestion controller of its kind, in its initial state, its counters registered anew:
 * for a connection that moved to a new path (RFC 9000 section 9.4).
 */
@FunctionalInterface
interface ControllerSource
{
    /**
     * @return a new controller; the previous one's counters are freed first.
     */
    CongestionController newController();
}
