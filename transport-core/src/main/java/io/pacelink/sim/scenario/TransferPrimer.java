package io.pacelink.sim.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.SecurityConfig;
import io.pacelink.transport.cc.ControllerParameters;
import org.agrona.concurrent.NanoClock;

import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs one short bulk transfer with random loss through the engine, a controller and a packet scheduler — the same
 * classes a real endpoint runs — in virtual time in this process, before a real transfer starts, so that the JIT has
 * seen the transfer's rare paths by the time it compiles the hot ones. A process that moves data for hours meets the
 * first loss, the first recovery episode and BBR's first PROBE_RTT in its first seconds and never again for the first
 * time; a fresh one meets them while its compilers are still at work: HotSpot's C2 compiles each hot root with the
 * branches the profile has seen and an uncommon trap for every branch it has not, and the first loss (the send log's
 * and the recovery's ranges), the first PROBE_RTT and the first retransmission each take such a trap and throw away,
 * then recompile, the largest compiled units of both ends — seconds of a compiler thread in a 1 Gbit/s test's
 * measured window on a two-core machine (perf/FINDINGS.md, branches thr11 and thr12). Run once first, here, those
 * branches are in the profile: the endpoint's own compiles include them and no trap throws the code away.
 * <p>
 * The transfer is a {@link Scenario} of two flows of the controller — one bulk, one whose application offers a
 * tenth of the path — over {@value #PATH} (ACKs: {@value #REVERSE_PATH}) for {@link #VIRTUAL_DURATION_NS} of virtual
 * time, past BBR's first PROBE_RTT (BBRv1 probes when its 10-s min-RTT filter expires, BBRv2 and v3 every 5 s:
 * draft-cardwell-iccrg-bbr-congestion-control, "ProbeRTT"), with both ends in this process, so the receiving path is
 * primed too. Deterministic as every scenario; nothing of it is kept or touches any endpoint of the application: it
 * costs the wall time it runs (about a second on the two-core development machine, in a fresh JVM) and the
 * compilations it triggers, which the JIT's threads finish in the background. A wall-clock budget stops it early. A
 * secure endpoint's packets are protected with its AEAD here too (the two ends share a throwaway key). Each
 * controller, scheduler and AEAD is primed once per process.
 */
public final class TransferPrimer
{
    /**
     * The simulated path: 20 Mbit/s (few packets, so the run is short) with a 10 ms round trip, 1 % random loss and a
     * one-BDP drop-tail queue (so losses come both at random and from the queue, and BBR's queue keeps its min-RTT
     * sample from being refreshed until PROBE_RTT).
     */
    public static final String PATH = "rate=20mbit delay=5ms loss=1% queue=1bdp";

    /**
     * The ACKs' direction: the same delay, no rate, queue or loss.
     */
    public static final String REVERSE_PATH = "delay=5ms";

    /**
     * Virtual time the transfer runs: to BBRv1's first PROBE_RTT (10 s after its min-RTT sample) and through its
     * 200 ms.
     */
    public static final long VIRTUAL_DURATION_NS = TimeUnit.MILLISECONDS.toNanos(10_600);

    /**
     * The second flow's application rate: a tenth of the path, so that flow is application-limited (the rate
     * sampler's app-limited marks, a send log that runs dry, a flight that empties and restarts between messages),
     * which a sender whose application cannot keep up meets too and the bulk flow never does.
     */
    private static final long APP_LIMITED_BYTES_PER_SECOND = 250_000;

    private static final long SEED = 1;

    /**
     * What each priming did, by controller, scheduler and AEAD: the JIT's state is the process's.
     */
    private static final Map<String, Result> RESULTS = new ConcurrentHashMap<>();

    private TransferPrimer()
    {
    }

    /**
     * What a priming did.
     *
     * @param congestionControl the controller it ran.
     * @param simulatedNs       virtual time it ran.
     * @param complete          true if it ran {@link #VIRTUAL_DURATION_NS}, false if the budget stopped it first.
     * @param packetsSent       packets the bulk flow's sender sent.
     * @param lostPackets       of them, packets it declared lost (and so went through loss recovery).
     * @param elapsedNs         wall time it took.
     */
    public record Result(
        String congestionControl, long simulatedNs, boolean complete, long packetsSent, long lostPackets,
        long elapsedNs)
    {
    }

    /**
     * Prime the transfer path for an endpoint about to be launched with this context — its controller, scheduler and
     * security mode — unless this process already did for the same three.
     *
     * @param endpointContext the endpoint's context: read, never changed (nor concluded).
     * @param budgetNs        the longest wall time to spend; 0 primes nothing.
     * @param clock           the wall clock the budget is measured on.
     * @return what the priming did, or null if none ran.
     * @throws IllegalArgumentException if no controller or scheduler has the context's names.
     */
    public static Result primeOnce(final PacelinkContext endpointContext, final long budgetNs, final NanoClock clock)
    {
        final String congestionControl = endpointContext.congestionControl();
        final String aead = aead(endpointContext.security());
        final String key = congestionControl + "/" + endpointContext.packetScheduler() + "/" + aead;
        if (budgetNs <= 0 || RESULTS.containsKey(key))
        {
            return null;
        }
        final Result result = prime(congestionControl, endpointContext.packetScheduler(), aead, budgetNs, clock);
        RESULTS.put(key, result);
        return result;
    }

    /**
     * Run the priming transfer.
     *
     * @param congestionControl the controller's name.
     * @param packetScheduler   the scheduler's name, or null for the preferred one.
     * @param aead              the AEAD's Noise name ({@code AESGCM}, {@code ChaChaPoly}) to protect the packets with,
     *                          as a secure endpoint does, or null for plaintext: the packet path differs by it.
     * @param budgetNs          the longest wall time to spend; the run stops at the first look past it.
     * @param clock             the wall clock the budget is measured on.
     * @return what it did.
     */
    public static Result prime(
        final String congestionControl,
        final String packetScheduler,
        final String aead,
        final long budgetNs,
        final NanoClock clock)
    {
        Objects.requireNonNull(congestionControl, "congestionControl");
        final long startNs = clock.nanoTime();
        final Scenario scenario = Scenario.builder()
            .seed(SEED)
            .path(PathSpec.Pair.parse(PATH, REVERSE_PATH))
            .durationNs(VIRTUAL_DURATION_NS)
            .scheduler(packetScheduler, ControllerParameters.EMPTY)
            .flow(FlowSpec.bulk(congestionControl))
            .flow(FlowSpec.bulk(congestionControl).with(AppPattern.rateLimited(APP_LIMITED_BYTES_PER_SECOND)))
            .contextCustomizer((context) ->
            {
                if (null != aead)
                {
                    // Both ends share a throwaway key (Noise NNpsk0): the handshake differs from the endpoint's
                    // (HandshakePathPrimer primes that); the packet protection, which the transfer runs, does not.
                    context.security().preSharedKey(throwawayKey()).aead(aead);
                }
            })
            .build();
        final ScenarioResult result =
            scenario.run((nowNs, eventsFired) -> clock.nanoTime() - startNs < budgetNs);
        final FlowOutcome flow = result.flows().get(0);
        return new Result(congestionControl, result.durationNs(), result.isComplete(), flow.packetsSent(),
            flow.lostPackets(), clock.nanoTime() - startNs);
    }

    /**
     * @return what each priming of this process did, in no particular order.
     */
    public static Collection<Result> primed()
    {
        return RESULTS.values();
    }

    /**
     * @return the AEAD a secure endpoint with these settings protects its packets with, or null for plaintext.
     */
    private static String aead(final SecurityConfig security)
    {
        return security.isSecure() ? security.aead().noiseName() : null;
    }

    /**
     * @return a key only the priming's two ends use, the same every time so the run stays deterministic.
     */
    private static byte[] throwawayKey()
    {
        final byte[] key = new byte[SecurityConfig.KEY_LENGTH];
        for (int i = 0; i < key.length; i++)
        {
            key[i] = (byte)(i + 1);
        }
        return key;
    }
}
