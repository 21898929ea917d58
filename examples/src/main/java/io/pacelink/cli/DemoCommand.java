package io.pacelink.cli;

import io.pacelink.transport.cc.CongestionControlRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code pacelink demo}: moves data between two endpoints in this process over loopback with every registered
 * congestion controller in turn, next to a raw-UDP baseline measured in the same run.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Move data over loopback with each congestion controller and compare with raw UDP.")
public final class DemoCommand implements Callable<Integer>
{
    @Option(names = "--size", defaultValue = "256MiB", description = "Bytes to move per controller (default ${DEFAULT-VALUE}).")
    private ByteSize size;

    @Option(names = "--message-size", defaultValue = "64KiB",
        description = "Size of each message offered (default ${DEFAULT-VALUE}).")
    private ByteSize messageSize;

    @Option(names = "--cc", split = ",",
        description = "Controllers to run, comma separated (default: every one on the class path).")
    private List<String> controllers;

    @Option(names = "--timeout", defaultValue = "120s",
        description = "Give up on a transfer after this long (default ${DEFAULT-VALUE}).")
    private Duration timeout;

    @Option(names = "--baseline", defaultValue = "2s",
        description = "How long to run the raw-UDP baseline; 0s skips it (default ${DEFAULT-VALUE}).")
    private Duration baseline;

    public Integer call()
    {
        final PrintStream out = System.out;
        final CongestionControlRegistry registry = CongestionControlRegistry.load();
        final List<String> names = null == controllers ? new ArrayList<>(registry.names()) : controllers;
        for (final String name : names)
        {
            registry.factory(name); // fail fast on a typo, listing what is available
        }
        if (messageSize.bytes() < 1 || messageSize.bytes() > 1 << 20)
        {
            throw new IllegalArgumentException("--message-size must be 1 B..1 MiB; got " + messageSize.bytes());
        }

        RawUdpBlast.Result raw = null;
        if (baseline.nanos() > 0)
        {
            raw = RawUdpBlast.run(baseline.nanos(), 1472);
            out.printf(Locale.ROOT, "raw UDP baseline (1472-byte datagrams, %.0f s): %s received, %d of %d " +
                "datagrams%n%n", baseline.seconds(), Units.bitsPerSecond(raw.receivedBitsPerSecond()),
                raw.datagramsReceived(), raw.datagramsSent());
        }

        final List<LoopbackTransfer.Result> results = new ArrayList<>();
        for (final String name : names)
        {
            out.printf(Locale.ROOT, "== %s: %s over loopback ==%n", name, Units.bytes(size.bytes()));
            results.add(LoopbackTransfer.run(name, size.bytes(), messageSize.intBytes(), timeout.nanos(), out));
            out.println();
        }

        out.printf(Locale.ROOT, "%-8s %12s %16s %10s %10s %10s %s%n",
            "cc", "delivered", "goodput", "vs raw", "sent pkts", "retr pkts", "result");
        boolean allDelivered = true;
        for (final LoopbackTransfer.Result result : results)
        {
            allDelivered &= null == result.failure();
            out.printf(Locale.ROOT, "%-8s %12s %16s %10s %10d %10d %s%n",
                result.congestionControl(),
                Units.bytes(result.bytesDelivered()),
                Units.bitsPerSecond(result.goodputBitsPerSecond()),
                null == raw ? "-" : String.format(Locale.ROOT, "%.2f", result.goodputBitsPerSecond() /
                    raw.receivedBitsPerSecond()),
                result.packetsSent(),
                result.packetsRetransmitted(),
                null == result.failure() ? "ok" : "FAILED: " + result.failure());
        }
        return allDelivered ? 0 : 1;
    }
}
