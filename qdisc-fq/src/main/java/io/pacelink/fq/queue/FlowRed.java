package io.pacelink.fq.queue;

import io.pacelink.link.LinkPacket;
import io.pacelink.link.Red;

/**
 * RED on each flow queue of a stochastic fair queue, as Linux {@code sch_sfq.c} runs it with {@code redflowlimit}
 * (SFQ-RED): at each arrival to a flow that already holds packets, RED updates the flow's average backlog (bytes; no
 * idle decay, {@code red_calc_qavg_no_idle_time}) and decides; a flow that was empty starts afresh
 * ({@code red_set_vars}) and takes the packet. A decision to mark marks CE with ECN on — with {@code headdrop}, the
 * flow's oldest packet when it can be marked, so the signal leaves a whole queue earlier — and otherwise drops.
 */
final class FlowRed
{
    private final Red red;
    private final boolean ecn;
    private final boolean hardDrop;
    private final boolean headDrop;

    /**
     * @param red      RED's state, one per flow index.
     * @param ecn      true to mark ECN-capable packets instead of dropping them.
     * @param hardDrop true to drop above {@code max} even ECN-capable packets.
     * @param headDrop true to mark (or drop) the flow's oldest packet rather than the arrival.
     */
    FlowRed(final Red red, final boolean ecn, final boolean hardDrop, final boolean headDrop)
    {
        this.red = red;
        this.ecn = ecn;
        this.hardDrop = hardDrop;
        this.headDrop = headDrop;
    }

    /**
     * @param flow   the arrival's flow index.
     * @param fifos  the flow queues, before the arrival joins.
     * @param packet the arrival.
     * @return true if the arrival may join its flow (unmarked, marked CE, or its flow's head marked instead); false
     * if RED drops (the caller drops the arrival, or with head drop the head).
     */
    boolean admit(final int flow, final FlowFifos fifos, final LinkPacket packet)
    {
        if (0 == fifos.packets(flow))
        {
            red.reset(flow);
            return true;
        }
        final int action = red.onArrival(flow, fifos.bytes(flow));
        if (Red.DONT_MARK == action)
        {
            return true;
        }
        final boolean mayMark = ecn && (Red.PROB_MARK == action || !hardDrop);
        if (headDrop && mayMark && fifos.peekHead(flow).markCe())
        {
            red.countMark(); // Linux prob_mark_head / forced_mark_head
            return true;
        }
        return red.admit(action, packet, ecn, hardDrop);
    }

    /**
     * @return true if congestion drops take the flow's oldest packet.
     */
    boolean isHeadDrop()
    {
        return headDrop;
    }

    /**
     * @return RED's state and counters.
     */
    Red red()
    {
        return red;
    }
}
