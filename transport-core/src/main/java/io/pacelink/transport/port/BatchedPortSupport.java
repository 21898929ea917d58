package io.pacelink.transport.port;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Whether this machine runs {@link BatchedDatagramPort}, found out once per JVM by trying it: the native library
 * loads, two sockets on the loopback address exchange one UDP GSO message of three datagrams through
 * {@code sendmmsg(2)} and {@code recvmmsg(2)}, and the receiver gets the three datagrams intact. GSO or GRO alone
 * missing (kernels before 4.18 and 5.0) leaves the port available without them; anything else failing makes it
 * unavailable, with the reason in one line.
 * <p>
 * The system property {@value #DISABLE_PROPERTY}{@code =true} makes it unavailable without probing (an operator's
 * switch, and how tests take the fallback path); it is read at every {@link #current()}.
 */
public final class BatchedPortSupport
{
    /**
     * Set to {@code true} to keep every endpoint of this JVM on the NIO port.
     */
    public static final String DISABLE_PROPERTY = "pacelink.port.batched.disable";

    private static final int PROBE_DATAGRAM_BYTES = 100;
    private static final int PROBE_DATAGRAMS = 3;
    private static final long PROBE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);
    private static final BatchedPortSupport DISABLED = new BatchedPortSupport(false, false, false,
        "turned off by -D" + DISABLE_PROPERTY + "=true");

    private static BatchedPortSupport probed;

    private final boolean available;
    private final boolean gso;
    private final boolean gro;
    private final String reason;

    private BatchedPortSupport(final boolean available, final boolean gso, final boolean gro, final String reason)
    {
        this.available = available;
        this.gso = gso;
        this.gro = gro;
        this.reason = reason;
    }

    /**
     * @return what the probe found (run at the first call), or unavailable if {@value #DISABLE_PROPERTY} is set.
     */
    public static BatchedPortSupport current()
    {
        if (Boolean.getBoolean(DISABLE_PROPERTY))
        {
            return DISABLED;
        }
        return probed();
    }

    static synchronized BatchedPortSupport probed()
    {
        if (null == probed)
        {
            probed = probe();
        }
        return probed;
    }

    /**
     * @return true if this build carries the native library for this machine's processor: a Linux build with gcc
     * does, so there the batched port must work (tests fail rather than skip when it does not).
     */
    public static boolean isLibraryBundled()
    {
        return System.getProperty("os.name", "").startsWith("Linux") &&
            null != BatchedPortSupport.class.getResource(NativeLibrary.resourcePath());
    }

    /**
     * @return true if the batched port works here.
     */
    public boolean isAvailable()
    {
        return available;
    }

    /**
     * @return true if the kernel accepts UDP GSO sends.
     */
    public boolean hasGso()
    {
        return gso;
    }

    /**
     * @return true if the kernel coalesces received datagrams for a socket that asks (UDP GRO).
     */
    public boolean hasGro()
    {
        return gro;
    }

    /**
     * @return why the port is unavailable, or what it lacks (one line); empty if it has everything.
     */
    public String reason()
    {
        return reason;
    }

    public String toString()
    {
        return available ? "batched port available (GSO " + (gso ? "yes" : "no") + ", GRO " + (gro ? "yes" : "no") +
            ")" + (reason.isEmpty() ? "" : ": " + reason) : "batched port unavailable: " + reason;
    }

    private static BatchedPortSupport probe()
    {
        final String libraryProblem = NativeLibrary.unavailableReason();
        if (null != libraryProblem)
        {
            return new BatchedPortSupport(false, false, false, libraryProblem);
        }
        final InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (BatchedDatagramPort receiver = BatchedDatagramPort.open(loopback, 1 << 20, true);
            BatchedDatagramPort sender = BatchedDatagramPort.open(loopback, 1 << 20, true))
        {
            final SendBatch batch = new SendBatch(PROBE_DATAGRAMS, PROBE_DATAGRAMS * PROBE_DATAGRAM_BYTES);
            for (int i = 0; i < PROBE_DATAGRAMS; i++)
            {
                batch.buffer().setMemory(batch.nextOffset(), PROBE_DATAGRAM_BYTES, (byte)(i + 1));
                batch.commit(PROBE_DATAGRAM_BYTES, receiver.localAddress(), ReceiveBatch.NOT_ECT);
            }
            final int sent = sender.send(batch);
            if (PROBE_DATAGRAMS != sent)
            {
                return new BatchedPortSupport(false, false, false, "sendmmsg sent " + sent + " of " +
                    PROBE_DATAGRAMS + " datagrams on loopback (send errors " + sender.stats().sendErrors() + ")");
            }
            final String received = receiveProbe(receiver);
            if (null != received)
            {
                return new BatchedPortSupport(false, false, false, received);
            }
            final boolean gso = sender.isGsoEnabled();
            final boolean gro = receiver.isGroEnabled();
            final String lacks = (gso ? "" : "no UDP GSO (" + sender.describe() + ")") +
                (gro ? "" : (gso ? "" : "; ") + "no UDP GRO (kernel before 5.0?)");
            return new BatchedPortSupport(true, gso, gro, lacks);
        }
        catch (final UncheckedIOException | IllegalStateException | UnsatisfiedLinkError ex)
        {
            return new BatchedPortSupport(false, false, false, "the probe failed: " + ex.getMessage());
        }
    }

    /**
     * @return null if the probe's datagrams arrived intact, else what went wrong.
     */
    private static String receiveProbe(final BatchedDatagramPort receiver)
    {
        final ReceiveBatch batch = receiver.newReceiveBatch(PROBE_DATAGRAMS);
        final long deadlineNs = System.nanoTime() + PROBE_TIMEOUT_NS;
        int found = 0;
        while (found < PROBE_DATAGRAMS && System.nanoTime() - deadlineNs < 0)
        {
            receiver.awaitReadable(TimeUnit.MILLISECONDS.toNanos(100));
            receiver.receive(batch, PROBE_DATAGRAMS);
            for (int i = 0; i < batch.size(); i++)
            {
                if (PROBE_DATAGRAM_BYTES != batch.length(i) ||
                    batch.buffer().getByte(batch.offset(i)) != (byte)(found + 1) ||
                    batch.buffer().getByte(batch.offset(i) + PROBE_DATAGRAM_BYTES - 1) != (byte)(found + 1))
                {
                    return "recvmmsg returned datagram " + found + " of the loopback probe damaged (" +
                        batch.length(i) + " bytes)";
                }
                found++;
            }
        }
        return PROBE_DATAGRAMS == found ? null :
            "only " + found + " of " + PROBE_DATAGRAMS + " probe datagrams came back over loopback within 1 s";
    }
}
