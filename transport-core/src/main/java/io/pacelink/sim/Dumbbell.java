package io.pacelink.sim;

import io.pacelink.link.LinkDirection;
import io.pacelink.link.LinkPacket;
import io.pacelink.link.PathSpec;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The classic congestion-control topology: hosts on the left and on the right, one shared bottleneck per direction
 * between them (forward: left to right; reverse: right to left), each with its own queue from the path spec. A host
 * may have an access link with its own one-way delay, added in both directions, to give flows different RTTs.
 *
 * <p>Addresses are in 127.0.0.0/8, created from bytes (never resolved): left hosts are 127.1.x.y, right hosts
 * 127.2.x.y, all on port {@link #PORT}. A {@code queue=Nbdp} limit uses the pair's base RTT (the two bottleneck
 * delays, without access delays).
 *
 * <p>Nothing in a simulated host takes time, so on a path whose bottleneck has no rate a sender could deliver any
 * window in no time at all and virtual time would stand still. Left hosts may therefore be given a network interface
 * with a line rate ({@link #Dumbbell(Simulator, PathSpec.Pair, long)}): what they send is serialized at that rate,
 * behind netem's default 1000-packet queue, before it reaches the access link and the bottleneck.
 */
public final class Dumbbell
{
    /**
     * The UDP port of every simulated host.
     */
    public static final int PORT = 4433;

    private static final int MAX_HOSTS_PER_SIDE = 65_000;

    private final Simulator simulator;
    private final long leftLineRateBitsPerSecond;
    private final SimLink forward;
    private final SimLink reverse;
    private final Router leftRouter = new Router();
    private final Router rightRouter = new Router();
    private final List<SimHost> leftHosts = new ArrayList<>();
    private final List<SimHost> rightHosts = new ArrayList<>();
    private boolean hostsCarryEcn;

    /**
     * @param simulator the simulator; its seed derives the links' seeds.
     * @param path      the bottleneck's two directions.
     */
    public Dumbbell(final Simulator simulator, final PathSpec.Pair path)
    {
        this(simulator, path, 0);
    }

    /**
     * @param simulator                 the simulator; its seed derives the links' seeds.
     * @param path                      the bottleneck's two directions.
     * @param leftLineRateBitsPerSecond the line rate of each left host's network interface; 0 for none.
     */
    public Dumbbell(final Simulator simulator, final PathSpec.Pair path, final long leftLineRateBitsPerSecond)
    {
        if (leftLineRateBitsPerSecond < 0)
        {
            throw new IllegalArgumentException("a line rate must be positive, or 0 for none: " +
                leftLineRateBitsPerSecond);
        }
        this.simulator = simulator;
        this.leftLineRateBitsPerSecond = leftLineRateBitsPerSecond;
        final long baseRttNs = path.baseRttNs();
        this.forward = new SimLink(simulator, new LinkDirection(
            path.forward(), baseRttNs, simulator.seedFor("dumbbell.forward"), simulator.pool()), rightRouter);
        this.reverse = new SimLink(simulator, new LinkDirection(
            path.reverse(), baseRttNs, simulator.seedFor("dumbbell.reverse"), simulator.pool()), leftRouter);
    }

    /**
     * @return a new left host directly on the bottleneck.
     */
    public SimHost addLeftHost()
    {
        return addLeftHost(0);
    }

    /**
     * @param accessDelayNs one-way delay of the host's access link, added in both directions.
     * @return a new left host.
     */
    public SimHost addLeftHost(final long accessDelayNs)
    {
        return addHost("left", 1, leftHosts, leftRouter, forward, accessDelayNs, leftLineRateBitsPerSecond);
    }

    /**
     * @return a new right host directly on the bottleneck.
     */
    public SimHost addRightHost()
    {
        return addRightHost(0);
    }

    /**
     * @param accessDelayNs one-way delay of the host's access link, added in both directions.
     * @return a new right host.
     */
    public SimHost addRightHost(final long accessDelayNs)
    {
        return addHost("right", 2, rightHosts, rightRouter, reverse, accessDelayNs, 0);
    }

    /**
     * @return the left-to-right bottleneck.
     */
    public LinkDirection forward()
    {
        return forward.link();
    }

    /**
     * @return the right-to-left bottleneck.
     */
    public LinkDirection reverse()
    {
        return reverse.link();
    }

    /**
     * @return the left hosts in the order they were added.
     */
    public List<SimHost> leftHosts()
    {
        return Collections.unmodifiableList(leftHosts);
    }

    /**
     * @return the right hosts in the order they were added.
     */
    public List<SimHost> rightHosts()
    {
        return Collections.unmodifiableList(rightHosts);
    }

    /**
     * @return datagrams dropped because no host on the far side had their destination address.
     */
    public long unroutablePackets()
    {
        return leftRouter.unroutable + rightRouter.unroutable;
    }

    private SimHost addHost(
        final String side,
        final int sideOctet,
        final List<SimHost> hosts,
        final Router inbound,
        final SimLink bottleneck,
        final long accessDelayNs,
        final long lineRateBitsPerSecond)
    {
        if (hosts.size() == MAX_HOSTS_PER_SIDE)
        {
            throw new IllegalStateException("at most " + MAX_HOSTS_PER_SIDE + " hosts per side");
        }
        final int index = hosts.size();
        final String name = side + "-" + index;
        final InetSocketAddress address = loopbackAddress(sideOctet, index + 1);

        final PacketSink access = accessDelayNs == 0 ? bottleneck : accessLink(name + ".up", accessDelayNs, bottleneck);
        final PacketSink uplink = lineRateBitsPerSecond == 0 ? access : new SimLink(simulator, new LinkDirection(
            PathSpec.lineRateOnly(lineRateBitsPerSecond), 0, simulator.seedFor(name + ".nic"), simulator.pool()),
            access);
        final SimHost host = new SimHost(simulator, name, address, uplink);
        host.port().ecn(hostsCarryEcn);
        inbound.routes.put(address, accessDelayNs == 0 ? host : accessLink(name + ".down", accessDelayNs, host));
        hosts.add(host);
        return host;
    }

    /**
     * @param carryEcn true if the hosts added from now on carry the ECN field on their ports (sockets with
     *                 {@code IP_RECVTOS}); false (the default) for ports that, like NIO's, do not.
     * @return this.
     */
    public Dumbbell hostsCarryEcn(final boolean carryEcn)
    {
        this.hostsCarryEcn = carryEcn;
        return this;
    }

    private SimLink accessLink(final String name, final long delayNs, final PacketSink next)
    {
        final PathSpec spec = PathSpec.delayOnly(delayNs);
        return new SimLink(
            simulator, new LinkDirection(spec, 2 * delayNs, simulator.seedFor(name), simulator.pool()), next);
    }

    private static InetSocketAddress loopbackAddress(final int sideOctet, final int hostNumber)
    {
        try
        {
            final byte[] octets = { 127, (byte)sideOctet, (byte)(hostNumber >>> 8), (byte)hostNumber };
            return new InetSocketAddress(InetAddress.getByAddress(octets), PORT);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Hands packets coming off a bottleneck to the host (or its access link) that owns their destination address.
     */
    private final class Router implements PacketSink
    {
        private final Map<InetSocketAddress, PacketSink> routes = new HashMap<>();
        private long unroutable;

        public void accept(final LinkPacket packet, final long nowNs)
        {
            final PacketSink sink = routes.get((InetSocketAddress)packet.destination());
            if (null == sink)
            {
                unroutable++;
                simulator.pool().release(packet);
            }
            else
            {
                sink.accept(packet, nowNs);
            }
        }
    }
}
