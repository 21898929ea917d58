package io.pacelink.cli;

import io.pacelink.sim.scenario.FlowOutcome;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The summary table of {@code pacelink demo} on an emulated path: one row per controller, alike for a run through
 * the real-time relay and for the same run in the simulator, so the two can be compared line by line.
 */
final class DemoTable
{
    /**
     * One controller's figures.
     *
     * @param congestionControl    the controller.
     * @param bytesDelivered       bytes the receiving application got.
     * @param goodputBitsPerSecond delivered bits per second.
     * @param packetsSent          packets the sender sent.
     * @param packetsRetransmitted packets that carried retransmitted data.
     * @param packetsLost          packets the sender declared lost.
     * @param minRttNs             smallest RTT sample.
     * @param meanRttNs            typical RTT: the smoothed RTT at the end on real sockets, the mean of all samples
     *                             in the simulator.
     * @param failure              null if the run completed, else what went wrong.
     */
    record Row(
        String congestionControl,
        long bytesDelivered,
        double goodputBitsPerSecond,
        long packetsSent,
        long packetsRetransmitted,
        long packetsLost,
        long minRttNs,
        long meanRttNs,
        String failure)
    {
        static Row of(final LoopbackTransfer.Result result)
        {
            return new Row(result.congestionControl(), result.bytesDelivered(), result.goodputBitsPerSecond(),
                result.packetsSent(), result.packetsRetransmitted(), result.packetsLost(), result.minRttNs(),
                result.smoothedRttNs(), result.failure());
        }

        static Row of(final FlowOutcome flow)
        {
            return new Row(flow.congestionControl(), flow.deliveredBytes(), flow.goodputBitsPerSecond(),
                flow.packetsSent(), flow.retransmittedPackets(), flow.lostPackets(), flow.rtt().minNs(),
                (long)flow.rtt().meanNs(), flow.isFailed() ? flow.failure() : null);
        }
    }

    private DemoTable()
    {
    }

    /**
     * @param out  where to print.
     * @param rows one per controller.
     * @return true if every run completed.
     */
    static boolean print(final PrintStream out, final List<Row> rows)
    {
        out.printf(Locale.ROOT, "%-8s %12s %16s %10s %10s %10s %9s %9s  %s%n",
            "cc", "delivered", "goodput", "sent pkts", "retr pkts", "lost pkts", "RTT min", "RTT avg", "result");
        boolean allCompleted = true;
        for (final Row row : rows)
        {
            allCompleted &= null == row.failure();
            out.printf(Locale.ROOT, "%-8s %12s %16s %10d %10d %10d %9s %9s  %s%n",
                row.congestionControl(),
                Units.bytes(row.bytesDelivered()),
                Units.bitsPerSecond(row.goodputBitsPerSecond()),
                row.packetsSent(),
                row.packetsRetransmitted(),
                row.packetsLost(),
                Units.millis(row.minRttNs()),
                Units.millis(row.meanRttNs()),
                null == row.failure() ? "ok" : "FAILED: " + row.failure());
        }
        out.println("RTT in ms; RTT avg is the smoothed RTT at the end on real sockets, the mean of all samples in " +
            "the simulator.");
        return allCompleted;
    }
}
