package io.pacelink.sim.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.transport.cc.ControllerParameters;
import org.agrona.concurrent.NanoClock;

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
 * The transfer is a {@link Scenario}: {@value #PATH} (ACKs: {@value #REVERSE_PATH}) for
 * {@link #VIRTUAL_DURATION_NS} of virtual time, past BBR's first PROBE_RTT (BBRv1 probes when its 10-s min-RTT
 * filter expires, BBRv2 and v3 every 5 s: draft-cardwell-iccrg-bbr-congestion-control, "ProbeRTT"), with both ends in
 * this process, so the receiving path is primed too. Deterministic as every scenario;
 * nothing of it is kept or touches any endpoint of the application: it costs the wall time it runs (about a second
 * on the two-core development machine, in a fresh JVM) and the compilations it triggers, which the JIT's threads
 * finish in the background. A wall-clock budget stops it early; each controller is primed once per process.
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

    private static final long SEED = 1;

    private static final Map<String, Result> RESULTS_BY_CONTROLLER = new ConcurrentHashMap<>();

    private TransferPrimer()
    {
    }

    /**
     * What a priming did.
     *
     * @param congestionControl the controller it ran.
     * @param simulatedNs       virtual time it ran.
     * @param complete          true if it ran {@link #VIRTUAL_DURATION_NS}, false if the budget stopped it first.
     * @param packetsSent       packets the transfer's sender sent.
     * @param lostPackets       of them, packets it declared lost (and so went through loss recovery).
     * @param elapsedNs         wall time it took.
     */
    public record Result(
        String congestionControl, long simulatedNs, boolean complete, long packetsSent, long lostPackets,
        long elapsedNs)
    {
    }

    /**
     * Prime the transfer path for this controller and scheduler unless this process already did for the controller.
     *
     * @param congestionControl the controller's name, as a context takes it.
     * @param packetScheduler   the scheduler's name, or null for the preferred one (as a context takes it).
     * @param budgetNs          the longest wall time to spend; 0 primes nothing.
     * @param clock             the wall clock the budget is measured on.
     * @return what the priming did, or null if none ran.
     * @throws IllegalArgumentException if no controller or scheduler has that name.
     */
    public static Result primeOnce(
        final String congestionControl, final String packetScheduler, final long budgetNs, final NanoClock clock)
    {
        Objects.requireNonNull(congestionControl, "congestionControl");
        if (budgetNs <= 0 || RESULTS_BY_CONTROLLER.containsKey(congestionControl))
        {
            return null;
        }
        final Result result = prime(congestionControl, packetScheduler, budgetNs, clock);
        RESULTS_BY_CONTROLLER.put(congestionControl, result);
        return result;
    }

    /**
     * Run the priming transfer.
     *
     * @param congestionControl the controller's name.
     * @param packetScheduler   the scheduler's name, or null for the preferred one.
     * @param budgetNs          the longest wall time to spend; the run stops at the first look past it.
     * @param clock             the wall clock the budget is measured on.
     * @return what it did.
     */
    public static Result prime(
        final String congestionControl, final String packetScheduler, final long budgetNs, final NanoClock clock)
    {
        final long startNs = clock.nanoTime();
        final Scenario scenario = Scenario.builder()
            .seed(SEED)
            .path(PathSpec.Pair.parse(PATH, REVERSE_PATH))
            .durationNs(VIRTUAL_DURATION_NS)
            .scheduler(packetScheduler, ControllerParameters.EMPTY)
            .flow(FlowSpec.bulk(congestionControl))
            .build();
        final ScenarioResult result =
            scenario.run((nowNs, eventsFired) -> clock.nanoTime() - startNs < budgetNs);
        final FlowOutcome flow = result.flows().get(0);
        return new Result(congestionControl, result.durationNs(), result.isComplete(), flow.packetsSent(),
            flow.lostPackets(), clock.nanoTime() - startNs);
    }

    /**
     * @param congestionControl a controller's name.
     * @return what this process's priming for that controller did, or null if it has not primed it.
     */
    public static Result primed(final String congestionControl)
    {
        return RESULTS_BY_CONTROLLER.get(congestionControl);
    }
}
