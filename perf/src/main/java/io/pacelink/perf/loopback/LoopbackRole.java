package io.pacelink.perf.loopback;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * One process of a Pacelink or raw-UDP loopback run, started by {@link LoopbackSuite} (Aeron's is {@link AeronBulk},
 * which needs its own class path):
 * <pre>
 * LoopbackRole receive pacelink|raw-udp|port PORT MODE DATAGRAM_BYTES QUIET_MS
 * LoopbackRole send    pacelink|raw-udp|port PORT MODE DATAGRAM_BYTES MESSAGE_BYTES DURATION_MS
 * </pre>
 * A receiver prints {@link ResultLine#READY} once it listens; each prints one {@link ResultLine} when it ends. MODE
 * is {@code dedicated}, {@code dedicated-nogso}, {@code dedicated-nio}, {@code invoker} or {@code invoker-nogso} for
 * Pacelink, {@code nio}, {@code batched} or {@code batched-nogso} for a bare port ({@link PortBulk}), and ignored for
 * raw UDP; a raw sender's datagrams are MESSAGE_BYTES long.
 */
public final class LoopbackRole
{
    private LoopbackRole()
    {
    }

    /**
     * @param args the role and its values.
     */
    public static void main(final String[] args) throws IOException
    {
        final boolean receive = args.length == 6 && "receive".equals(args[0]);
        final boolean send = args.length == 7 && "send".equals(args[0]);
        if (!receive && !send || !PacelinkBulk.SYSTEM.equals(args[1]) && !RawUdpBulk.SYSTEM.equals(args[1]) &&
            !PortBulk.SYSTEM.equals(args[1]))
        {
            System.err.println("usage: LoopbackRole receive pacelink|raw-udp|port PORT MODE DATAGRAM_BYTES " +
                "QUIET_MS | send pacelink|raw-udp|port PORT MODE DATAGRAM_BYTES MESSAGE_BYTES DURATION_MS");
            System.exit(2);
        }
        final boolean bare = PortBulk.SYSTEM.equals(args[1]);
        final boolean pacelink = PacelinkBulk.SYSTEM.equals(args[1]);
        final InetSocketAddress address = new InetSocketAddress("127.0.0.1", Integer.parseInt(args[2]));
        final int datagramBytes = Integer.parseInt(args[4]);
        if (receive)
        {
            final long quietNs = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[5]));
            if (bare)
            {
                PortBulk.receive(address, args[3], quietNs, System.out);
            }
            else if (pacelink)
            {
                PacelinkBulk.receive(address, PacelinkBulk.Mode.parse(args[3]), datagramBytes, quietNs, System.out);
            }
            else
            {
                RawUdpBulk.receive(address, quietNs, System.out);
            }
        }
        else
        {
            final int messageBytes = Integer.parseInt(args[5]);
            final long durationNs = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[6]));
            if (bare)
            {
                PortBulk.send(address, args[3], datagramBytes, durationNs, System.out);
            }
            else if (pacelink)
            {
                PacelinkBulk.send(address, PacelinkBulk.Mode.parse(args[3]), datagramBytes, messageBytes,
                    durationNs, System.out);
            }
            else
            {
                RawUdpBulk.send(address, messageBytes, durationNs, System.out);
            }
        }
        System.out.flush();
        System.exit(0);
    }
}
