package io.pacelink.sim.scenario;

import io.pacelink.sim.SimHost;
import io.pacelink.sim.SimulatedAgent;
import io.pacelink.transport.port.DatagramHandler;
import io.pacelink.transport.port.DatagramPort;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;

/**
 * Measures the path's round-trip time like ping: a small datagram carrying its send time every interval from a left
 * host, echoed by a right host, through the same bottleneck queues as the flows. It bypasses the transport, so what
 * it sees is propagation plus queueing delay, as an ICMP echo would.
 */
final class PingProbe
{
    /**
     * Size of a probe: an 8-byte timestamp plus padding to a small ICMP echo's size.
     */
    static final int PROBE_BYTES = 64;

    private final Histogram rttNs;

    PingProbe(final SimHost pinger, final SimHost echoer, final long startNs, final long intervalNs, final long stopNs,
        final Histogram rttNs)
    {
        this.rttNs = rttNs;
        echoer.addAgent(new Echo(echoer.port()));
        pinger.addAgent(new Pinger(pinger.port(), echoer.address(), startNs, intervalNs, stopNs));
    }

    private final class Pinger implements SimulatedAgent, DatagramHandler
    {
        private final DatagramPort port;
        private final InetSocketAddress echoAddress;
        private final long intervalNs;
        private final long stopNs;
        private final UnsafeBuffer probe = new UnsafeBuffer(new byte[PROBE_BYTES]);
        private long nextPingNs;

        Pinger(final DatagramPort port, final InetSocketAddress echoAddress, final long startNs, final long intervalNs,
            final long stopNs)
        {
            this.port = port;
            this.echoAddress = echoAddress;
            this.intervalNs = intervalNs;
            this.stopNs = stopNs;
            this.nextPingNs = startNs;
        }

        public int doWork(final long nowNs)
        {
            int work = port.receive(this, Integer.MAX_VALUE, nowNs);
            if (nowNs >= nextPingNs && nowNs < stopNs)
            {
                probe.putLong(0, nowNs);
                port.send(probe, 0, PROBE_BYTES, echoAddress);
                nextPingNs += intervalNs;
                work++;
            }
            return work;
        }

        public long nextDeadlineNs()
        {
            return nextPingNs < stopNs ? nextPingNs : Long.MAX_VALUE;
        }

        public void onDatagram(
            final DirectBuffer buffer,
            final int offset,
            final int length,
            final InetSocketAddress source,
            final long nowNs)
        {
            rttNs.recordValue(Math.max(0, nowNs - buffer.getLong(offset)));
        }
    }

    private static final class Echo implements SimulatedAgent, DatagramHandler
    {
        private final DatagramPort port;

        Echo(final DatagramPort port)
        {
            this.port = port;
        }

        public int doWork(final long nowNs)
        {
            return port.receive(this, Integer.MAX_VALUE, nowNs);
        }

        public long nextDeadlineNs()
        {
            return Long.MAX_VALUE;
        }

        public void onDatagram(
            final DirectBuffer buffer,
            final int offset,
            final int length,
            final InetSocketAddress source,
            final long nowNs)
        {
            port.send(buffer, offset, length, source);
        }
    }
}
