package io.pacelink.perf.scale;

import io.pacelink.perf.loopback.ResultLine;
import io.pacelink.sim.results.Fairness;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The scale run's active phase: every open connection sends as fast as its transport takes data, all at once from one
 * thread, and each connection's share is what its peer acknowledged ({@code streamBytesAcked}) over the last
 * {@link #MEASURED_FRACTION} of the phase (the first part lets every connection leave slow start). The application
 * keeps every connection backlogged and visits them in turn, taking at most {@link #MESSAGES_PER_VISIT} messages each
 * time, so what divides the path between them is the transport: its congestion controllers and its packet scheduler
 * (fq, the Linux qdisc's flow fairness, when the run names it).
 */
final class ActivePhase
{
    private static final double MEASURED_FRACTION = 0.5;
    private static final int MESSAGES_PER_VISIT = 4;
    private static final int MAX_MESSAGE_BYTES = 16 * 1024;
    private static final long IDLE_PARK_NS = TimeUnit.MICROSECONDS.toNanos(50);

    private final List<Connection> connections;
    private final UnsafeBuffer message;

    /**
     * @param connections      the open connections; those not CONNECTED are left out.
     * @param maxMessageBytes  the endpoint's longest message.
     */
    ActivePhase(final List<Connection> connections, final int maxMessageBytes)
    {
        this.connections = connections.stream().filter((c) -> ConnectionState.CONNECTED == c.state()).toList();
        this.message = new UnsafeBuffer(new byte[Math.min(MAX_MESSAGE_BYTES, maxMessageBytes)]);
    }

    /**
     * @param seconds how long every connection sends.
     * @param result  gets the phase's figures ({@code active_*}).
     */
    void run(final int seconds, final ResultLine result)
    {
        final int count = connections.size();
        final long startNs = System.nanoTime();
        final long measureFromNs = startNs + (long)(TimeUnit.SECONDS.toNanos(seconds) * (1 - MEASURED_FRACTION));
        final long endNs = startNs + TimeUnit.SECONDS.toNanos(seconds);
        final long[] ackedAtStart = new long[count];
        boolean isMeasuring = false;
        long cpuAtMeasureNs = 0;
        long measuredFromNs = 0;
        while (true)
        {
            final long nowNs = System.nanoTime();
            if (nowNs - endNs >= 0)
            {
                break;
            }
            if (!isMeasuring && nowNs - measureFromNs >= 0)
            {
                isMeasuring = true;
                measuredFromNs = nowNs;
                cpuAtMeasureNs = ResultLine.processCpuNs();
                for (int i = 0; i < count; i++)
                {
                    ackedAtStart[i] = connections.get(i).stats().streamBytesAcked();
                }
            }
            boolean offered = false;
            for (int i = 0; i < count; i++)
            {
                final Connection connection = connections.get(i);
                for (int m = 0; m < MESSAGES_PER_VISIT && connection.offer(message, 0, message.capacity()) > 0; m++)
                {
                    offered = true;
                }
            }
            if (!offered)
            {
                LockSupport.parkNanos(IDLE_PARK_NS);
            }
        }
        final long measuredNs = System.nanoTime() - measuredFromNs;
        final double cpuPercent = 100.0 * (ResultLine.processCpuNs() - cpuAtMeasureNs) / measuredNs;
        final double[] bitsPerSecond = new double[count];
        double totalBitsPerSecond = 0;
        double least = Double.MAX_VALUE;
        double most = 0;
        int stillConnected = 0;
        for (int i = 0; i < count; i++)
        {
            final Connection connection = connections.get(i);
            bitsPerSecond[i] = (connection.stats().streamBytesAcked() - ackedAtStart[i]) * 8e9 / measuredNs;
            totalBitsPerSecond += bitsPerSecond[i];
            least = Math.min(least, bitsPerSecond[i]);
            most = Math.max(most, bitsPerSecond[i]);
            stillConnected += ConnectionState.CONNECTED == connection.state() ? 1 : 0;
        }
        result.put("active_connections", count)
            .put("active_still_connected", stillConnected)
            .put("active_measured_s", measuredNs / 1e9)
            .put("active_total_mbps", totalBitsPerSecond / 1e6)
            .put("active_jain", Fairness.jainIndex(bitsPerSecond))
            .put("active_least_mbps", 0 == count ? 0 : least / 1e6)
            .put("active_most_mbps", most / 1e6)
            .put("active_client_cpu_percent", cpuPercent);
    }
}
