package io.pacelink.sim.scenario;

import io.pacelink.sim.results.GoodputSeries;
import io.pacelink.sim.results.LatencySummary;
import org.HdrHistogram.Histogram;

import java.util.Map;

/**
 * What one flow of a scenario achieved.
 *
 * @param index                flow number in the scenario (0-based).
 * @param congestionControl    its controller.
 * @param startNs              when it started.
 * @param endNs                when its active window ended (its stop time or the end of the run).
 * @param deliveredBytes       message bytes the receiving application got.
 * @param goodputBitsPerSecond delivered bits over its active window.
 * @param sentBytes            bytes the sender put on the wire (headers and retransmissions included).
 * @param packetsSent          packets the sender sent.
 * @param retransmittedBytes   stream bytes sent again.
 * @param retransmittedPackets packets that carried retransmitted data.
 * @param lostPackets          packets declared lost.
 * @param spuriousLosses       losses later found to be spurious (the packet had arrived).
 * @param rtt                  the sender's RTT samples.
 * @param rttHistogram         the same samples in ns, to merge flows or read other percentiles; do not modify.
 * @param responseTime         request to response time, for request/response flows (else null).
 * @param goodput              delivered bytes over time.
 * @param controllerCounters   the counters the sender's congestion controller publishes, by name, at the end of the
 *                             run (e.g. {@code bbr-lt-bw-engagements}); empty if the flow never connected.
 * @param ecn                  what ECN did: validation's outcome, CE marks reported, answered and received.
 * @param sender               how the sending connection stood at the end: open, or closed, when and why.
 * @param receiver             how the receiving connection stood at the end.
 */
public record FlowOutcome(
    int index,
    String congestionControl,
    long startNs,
    long endNs,
    long deliveredBytes,
    double goodputBitsPerSecond,
    long sentBytes,
    long packetsSent,
    long retransmittedBytes,
    long retransmittedPackets,
    long lostPackets,
    long spuriousLosses,
    LatencySummary rtt,
    Histogram rttHistogram,
    LatencySummary responseTime,
    GoodputSeries goodput,
    Map<String, Long> controllerCounters,
    EcnOutcome ecn,
    ConnectionEnd sender,
    ConnectionEnd receiver)
{
    /**
     * An outcome without ECN figures ({@link EcnOutcome#NONE}) or connection ends ({@link ConnectionEnd#ABSENT}).
     *
     * @deprecated use the canonical constructor; to be removed in the next minor version.
     */
    @Deprecated
    public FlowOutcome(
        final int index,
        final String congestionControl,
        final long startNs,
        final long endNs,
        final long deliveredBytes,
        final double goodputBitsPerSecond,
        final long sentBytes,
        final long packetsSent,
        final long retransmittedBytes,
        final long retransmittedPackets,
        final long lostPackets,
        final long spuriousLosses,
        final LatencySummary rtt,
        final Histogram rttHistogram,
        final LatencySummary responseTime,
        final GoodputSeries goodput,
        final Map<String, Long> controllerCounters)
    {
        this(index, congestionControl, startNs, endNs, deliveredBytes, goodputBitsPerSecond, sentBytes, packetsSent,
            retransmittedBytes, retransmittedPackets, lostPackets, spuriousLosses, rtt, rttHistogram, responseTime,
            goodput, controllerCounters, EcnOutcome.NONE, ConnectionEnd.ABSENT, ConnectionEnd.ABSENT);
    }

    /**
     * @return true if either of the flow's connections closed abnormally during the run (a protocol violation, a
     * timeout, an abort): its figures stop there, and a run that reports it must say so.
     */
    public boolean isFailed()
    {
        return sender.isAbnormal() || receiver.isAbnormal();
    }

    /**
     * @return the first abnormal close of the flow's connections, e.g. "the receiver's connection closed at 3.214 s:
     * a protocol violation: reassembly limit: ...", or empty if none closed abnormally.
     */
    public String failure()
    {
        final boolean isReceiverFirst = receiver.isAbnormal() &&
            (!sender.isAbnormal() || receiver.closedAtNs() <= sender.closedAtNs());
        if (isReceiverFirst)
        {
            return "the receiver's connection " + receiver.describe();
        }
        return sender.isAbnormal() ? "the sender's connection " + sender.describe() : "";
    }

    /**
     * @param fromNs window start.
     * @param toNs   window end.
     * @return goodput over the window.
     */
    public double goodputBitsPerSecond(final long fromNs, final long toNs)
    {
        return goodput.bitsPerSecond(fromNs, toNs);
    }
}
