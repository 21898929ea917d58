package io.pacelink.perf.loopback;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.status.SystemCounterDescriptor;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Aeron's side of the loopback runs, configured to match Pacelink's as closely as Aeron allows: two processes, each
 * with its own embedded media driver (its own {@code /dev/shm} directory), one exclusive publication to one
 * subscription over UDP on loopback ({@code aeron:udp?endpoint=127.0.0.1:PORT|mtu=...}, the MTU being the UDP
 * payload, as Pacelink's {@code maxDatagramSizeBytes}), 4 MiB socket buffers (Pacelink's default) and a 2 MiB initial
 * receiver window. Two modes, as Pacelink's:
 * <ul>
 *     <li>{@code invoker} — the driver in {@link io.aeron.driver.ThreadingMode#INVOKER} mode: the application's
 *     thread runs the driver's and the client's duty cycles between its offers or polls (one thread per process);</li>
 *     <li>{@code shared} — the driver's agents on one thread of their own
 *     ({@link io.aeron.driver.ThreadingMode#SHARED}) with a back-off idle strategy, the client's conductor run by the
 *     application's thread (two threads per process).</li>
 * </ul>
 * Aeron has no congestion control and no pacing (its flow control is the receiver's window); its receiver counts
 * fragment bytes as they arrive (no reassembly copy: Pacelink's receiver is handed whole messages).
 * <p>
 * This class runs in a JVM whose class path has {@code aeron-all} first (it bundles its own Agrona): it uses only
 * Aeron, the JDK and the harness's JSON result line.
 */
final class AeronBulk
{
    static final String SYSTEM = "aeron";

    private static final int STREAM_ID = 1001;
    private static final int SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;
    private static final int INITIAL_WINDOW_BYTES = 2 * 1024 * 1024;
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final int FRAGMENT_LIMIT = 256;

    private AeronBulk()
    {
    }

    /**
     * @param mode {@code invoker} or {@code shared}.
     * @return the media driver's threading mode for it.
     */
    private static io.aeron.driver.ThreadingMode threadingMode(final String mode)
    {
        switch (mode)
        {
            case "invoker":
                return io.aeron.driver.ThreadingMode.INVOKER;
            case "shared":
                return io.aeron.driver.ThreadingMode.SHARED;
            default:
                throw new IllegalArgumentException("aeron mode must be invoker or shared, got " + mode);
        }
    }

    private static MediaDriver launchDriver(final String mode)
    {
        // One directory per process (Aeron's default is one per user, shared by every driver).
        final File shm = new File("/dev/shm");
        final File directory = new File(shm.isDirectory() ? shm : new File(System.getProperty("java.io.tmpdir")),
            "aeron-pacelink-perf-" + ProcessHandle.current().pid());
        return MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(directory.getAbsolutePath())
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .threadingMode(threadingMode(mode))
            .sharedIdleStrategy(new BackoffIdleStrategy())
            .socketRcvbufLength(SOCKET_BUFFER_BYTES)
            .socketSndbufLength(SOCKET_BUFFER_BYTES)
            .initialWindowLength(INITIAL_WINDOW_BYTES));
    }

    private static Aeron connectClient(final MediaDriver driver)
    {
        return Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(driver.aeronDirectoryName())
            .useConductorAgentInvoker(true)
            .driverAgentInvoker(driver.sharedAgentInvoker()));
    }

    /**
     * The application's loop: run the driver (in INVOKER mode) and the client's conductor, then back off if nothing
     * was done.
     */
    private static final class AppLoop
    {
        private final AgentInvoker driverInvoker;
        private final AgentInvoker clientInvoker;
        private final IdleStrategy idleStrategy = new BackoffIdleStrategy();

        AppLoop(final MediaDriver driver, final Aeron aeron)
        {
            this.driverInvoker = driver.sharedAgentInvoker();
            this.clientInvoker = aeron.conductorAgentInvoker();
        }

        int turn(final int applicationWork)
        {
            int work = applicationWork + clientInvoker.invoke();
            if (null != driverInvoker)
            {
                work += driverInvoker.invoke();
            }
            idleStrategy.idle(work);
            return work;
        }
    }

    /**
     * Receive until the publication has been quiet for {@code quietNs}, then print the result.
     *
     * @param port    the UDP port to receive on.
     * @param mode    {@code invoker} or {@code shared}.
     * @param quietNs how long without a fragment ends the run.
     * @param out     where the ready line and the result go.
     */
    static void receive(final int port, final String mode, final long quietNs, final PrintStream out)
    {
        try (MediaDriver driver = launchDriver(mode);
            Aeron aeron = connectClient(driver);
            Subscription subscription = aeron.addSubscription("aeron:udp?endpoint=127.0.0.1:" + port, STREAM_ID))
        {
            final AppLoop loop = new AppLoop(driver, aeron);
            ResultLine.processCpuNs();
            out.println(ResultLine.READY);
            out.flush();
            final ReceiveMeter meter = new ReceiveMeter();
            final long[] nowNs = { System.nanoTime() };
            while (!meter.quietFor(nowNs[0], quietNs))
            {
                final int fragments = subscription.poll(
                    (buffer, offset, length, header) -> meter.onMessage(length, nowNs[0]), FRAGMENT_LIMIT);
                loop.turn(fragments);
                nowNs[0] = System.nanoTime();
                meter.onTime(nowNs[0]);
            }
            out.println(meter.result(SYSTEM)
                .put("mode", mode)
                .put("status_messages_sent",
                    driver.context().systemCounters().get(SystemCounterDescriptor.STATUS_MESSAGES_SENT).get())
                .put("nak_messages_sent",
                    driver.context().systemCounters().get(SystemCounterDescriptor.NAK_MESSAGES_SENT).get())
                .format());
        }
    }

    /**
     * Offer messages of {@code messageBytes} for {@code durationNs} once the subscription is connected, then print
     * the result.
     *
     * @param port         the receiver's UDP port.
     * @param mode         {@code invoker} or {@code shared}.
     * @param mtuBytes     the publication's MTU (UDP payload), a multiple of 32.
     * @param messageBytes bytes per message.
     * @param durationNs   how long to offer.
     * @param out          where the result goes.
     */
    static void send(
        final int port,
        final String mode,
        final int mtuBytes,
        final int messageBytes,
        final long durationNs,
        final PrintStream out)
    {
        try (MediaDriver driver = launchDriver(mode);
            Aeron aeron = connectClient(driver);
            ExclusivePublication publication = aeron.addExclusivePublication(
                "aeron:udp?endpoint=127.0.0.1:" + port + "|mtu=" + mtuBytes, STREAM_ID))
        {
            final AppLoop loop = new AppLoop(driver, aeron);
            final long connectStartNs = System.nanoTime();
            while (!publication.isConnected())
            {
                if (System.nanoTime() - connectStartNs > CONNECT_TIMEOUT_NS)
                {
                    throw new IllegalStateException("no subscriber on port " + port + " within 10 s");
                }
                loop.turn(0);
            }
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(messageBytes));
            final SendMeter meter = new SendMeter(durationNs);
            long nowNs = meter.startNs();
            while (meter.sending(nowNs))
            {
                int offered = 0;
                while (offered < FRAGMENT_LIMIT && publication.offer(message, 0, messageBytes) > 0)
                {
                    meter.onSent(messageBytes);
                    offered++;
                }
                loop.turn(offered);
                nowNs = System.nanoTime();
                meter.onTime(nowNs);
            }
            out.println(meter.result(SYSTEM, nowNs)
                .put("mode", mode)
                .put("mtu_bytes", mtuBytes)
                .put("status_messages_received",
                    driver.context().systemCounters().get(SystemCounterDescriptor.STATUS_MESSAGES_RECEIVED).get())
                .format());
        }
    }

    /**
     * {@code receive PORT MODE QUIET_MS} or {@code send PORT MODE MTU MESSAGE_BYTES DURATION_MS}: the suite starts
     * this class directly (picocli is not needed for a line it writes itself).
     *
     * @param args the role and its values.
     */
    public static void main(final String[] args)
    {
        if (args.length == 4 && "receive".equals(args[0]))
        {
            receive(Integer.parseInt(args[1]), args[2], TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[3])),
                System.out);
        }
        else if (args.length == 6 && "send".equals(args[0]))
        {
            send(Integer.parseInt(args[1]), args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[5])), System.out);
        }
        else
        {
            System.err.println("usage: AeronBulk receive PORT invoker|shared QUIET_MS | " +
                "send PORT invoker|shared MTU MESSAGE_BYTES DURATION_MS");
            System.exit(2);
        }
        System.exit(0);
    }
}
