package io.pacelink.cli;

import io.pacelink.link.PathSpec;
import io.pacelink.link.relay.NetemRelay;
import io.pacelink.link.relay.RelayReporter;
import io.pacelink.transport.port.DatagramPorts;
import io.pacelink.transport.port.PortType;
import io.pacelink.transport.port.RealtimePriority;
import io.pacelink.transport.stats.CountersFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code pacelink netem}: puts two programs on an emulated path. Clients send UDP to the listen port; the relay
 * forwards it to the server through the forward direction's model and sends the server's replies back to the client
 * they are for through the reverse direction's model, in real time. Each client has a socket of its own towards the
 * server, so any number may share the path at once. Runs until Ctrl-C or {@code --duration}, printing a
 * line of counters per second and a summary at the end.
 */
@Command(
    name = "netem",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Relay UDP between clients and a server through an emulated path, in real time, until Ctrl-C; each " +
            "client gets a socket of its own towards the server, so its replies reach it and no other.",
        "Example: pacelink netem --listen 9000 --forward 127.0.0.1:9001 --path \"rate=50mbit delay=40ms loss=1%%\" " +
            "then point the client at port 9000 and run the server on port 9001.%n"
    })
public final class NetemCommand implements Callable<Integer>
{
    @Option(names = "--listen", required = true, paramLabel = "[HOST:]PORT",
        description = "Where clients send (host defaults to 127.0.0.1).")
    private String listen;

    @Option(names = "--forward", required = true, paramLabel = "HOST:PORT",
        description = "The server datagrams are forwarded to.")
    private String forward;

    @Option(names = "--path", required = true, paramLabel = "SPEC", description = PathArguments.PATH_HELP)
    private String path;

    @Option(names = "--reverse-path", paramLabel = "SPEC", description = PathArguments.REVERSE_PATH_HELP)
    private String reversePath;

    @Option(names = "--duration", paramLabel = "TIME", description = "Stop after this long (default: at Ctrl-C).")
    private Duration duration;

    @Option(names = "--rebind-after", paramLabel = "TIME",
        description = "Give every client a new source port towards the server this long after the first " +
            "datagram, once, as a NAT that rebinds (e.g. 5s): the server hears its clients from new ports " +
            "(default: never).")
    private Duration rebindAfter;

    @Option(names = "--counters-dir", paramLabel = "DIR",
        description = "Where the relay's counters file goes, for pacelink stat (default: ${DEFAULT-VALUE}).")
    private Path countersDirectory = CountersFile.defaultDirectory();

    @Option(names = "--rt", paramLabel = "PRIORITY",
        description = "Run the relay's forwarding thread under the real-time policy SCHED_FIFO at this priority " +
            "(1-99), as a network forwards beside its hosts: its releases then stay on time while the endpoints " +
            "keep every core busy. Needs CAP_SYS_NICE (e.g. root) or an RLIMIT_RTPRIO (ulimit -r) of at least " +
            "PRIORITY; refused, the relay runs at a normal priority and says why (default: the normal policy).")
    private Integer realtimePriority;

    @Mixin
    private IoOptions ioOptions;

    @Option(names = "--seed", defaultValue = "1",
        description = "Seeds loss, jitter and the other random choices (default ${DEFAULT-VALUE}).")
    private long seed;

    public Integer call() throws InterruptedException
    {
        final PathSpec.Pair pair = PathArguments.pair(path, reversePath);
        PathArguments.printWarnings(System.err, "netem", pair);
        final InetSocketAddress listenAddress = SocketAddresses.parse("--listen", listen, "127.0.0.1");
        final InetSocketAddress forwardAddress = SocketAddresses.parse("--forward", forward, null);
        if (null != duration && duration.nanos() <= 0)
        {
            throw new IllegalArgumentException("--duration must be positive, e.g. 60s (leave it out to run until " +
                "Ctrl-C)");
        }

        if (null != rebindAfter && rebindAfter.nanos() <= 0)
        {
            throw new IllegalArgumentException("--rebind-after must be positive, e.g. 5s (leave it out to keep the " +
                "clients' source ports)");
        }

        if (null != realtimePriority &&
            (realtimePriority < RealtimePriority.MIN || realtimePriority > RealtimePriority.MAX))
        {
            throw new IllegalArgumentException("--rt takes a SCHED_FIFO priority, " + RealtimePriority.MIN + "-" +
                RealtimePriority.MAX + ", got " + realtimePriority);
        }

        ioOptions.validate();
        if (!ioOptions.ecn())
        {
            throw new IllegalArgumentException("--ecn chooses whether endpoints mark their packets; the relay " +
                "carries each datagram's codepoint as it arrives (a path rewrites it with ecn_rewrite=not-ect in " +
                "--path)");
        }
        final PortType portType = ioOptions.portType();
        final boolean gso = ioOptions.gso();
        if (null != duration)
        {
            duration = new Duration(DurationCap.capNs("--duration", duration.nanos()));
        }
        else
        {
            // Until Ctrl-C is not bounded, but a malformed bound is still said at once.
            DurationCap.boundNs();
        }
        final PrintStream out = System.out;
        final NetemRelay.PortFactory ports = (bindAddress, socketBufferBytes) ->
            DatagramPorts.open(portType, bindAddress, socketBufferBytes, gso).port();
        final NetemRelay relay = new NetemRelay(relayContext(listenAddress, forwardAddress, pair, seed, out, System.err)
            .countersDirectory(countersDirectory)
            .realtimePriority(null == realtimePriority ? NetemRelay.Context.NO_REALTIME_PRIORITY : realtimePriority)
            .rebindAfterNs(null == rebindAfter ? NetemRelay.Context.NO_REBINDING :
                rebindAfter.nanos())
            .portFactory(ports));
        // Its sockets are bound (a port in use is said at once); now its forwarding path is compiled before the first
        // client's packet crosses it (RelayWarmUp says why), and only then does it say it relays.
        warmUp(relay, pair, ports);
        out.printf("relaying %s -> %s%n  forward: %s%n  reverse: %s%n  ECN: %s%n",
            SocketAddresses.format(relay.listenAddress()), SocketAddresses.format(forwardAddress),
            describe(pair.forward()), describe(pair.reverse()),
            relay.carriesEcn() ? "carried (the batched port reads and sets each datagram's codepoint)" :
            "not carried (the NIO port cannot read a datagram's codepoint: everything is forwarded not-ECT)");

        final CountDownLatch stop = new CountDownLatch(1);
        final Thread onCtrlC = new Thread(() ->
        {
            stop.countDown();
            relay.close();
        }, "pacelink-netem-shutdown");
        Runtime.getRuntime().addShutdownHook(onCtrlC);
        relay.start();
        if (null == duration)
        {
            stop.await();
        }
        else
        {
            stop.await(duration.nanos(), TimeUnit.NANOSECONDS);
        }
        relay.close();
        ShutdownHooks.remove(onCtrlC);
        return 0;
    }

    private void warmUp(final NetemRelay relay, final PathSpec.Pair pair, final NetemRelay.PortFactory ports)
    {
        try
        {
            RelayWarmUp.run(pair, seed, ports);
        }
        catch (final RuntimeException ex)
        {
            relay.close();
            throw ex;
        }
    }

    /**
     * @param listenAddress  where clients send.
     * @param forwardAddress the server.
     * @param pair           the emulated path.
     * @param seed           seeds the path's random choices.
     * @param out            where the per-second reports and the summary go.
     * @param err            where the warning goes when the relay's own lateness distorts the path.
     * @return the relay's configuration as the command runs it (without its counters file).
     */
    static NetemRelay.Context relayContext(
        final InetSocketAddress listenAddress,
        final InetSocketAddress forwardAddress,
        final PathSpec.Pair pair,
        final long seed,
        final PrintStream out,
        final PrintStream err)
    {
        return new NetemRelay.Context()
            .listenAddress(listenAddress)
            .forwardAddress(forwardAddress)
            .path(pair)
            .seed(seed)
            .reporter(new RelayLatenessWarning(RelayReporter.printingTo(out), err, pair));
    }

    private static String describe(final PathSpec spec)
    {
        final String text = spec.toString();
        return text.isEmpty() ? "(no impairment)" : text;
    }
}
