package io.pacelink.rules;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.status.ConcurrentCountersManager;
import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameStartingWith;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layering docs/architecture.md describes, checked on the compiled classes of every module (this module sees them
 * all): the transport knows nothing of the simulator or the link model, each controller sees only the
 * congestion-control SPI, the endpoint core is single-threaded, and protocol code reads no clock, sleeps nowhere,
 * starts no threads and uses only seeded randomness, so a simulation is reproducible.
 */
class ArchitectureRulesTest
{
    /**
     * Production classes only: not the test classes of this module, nor transport-core's test kit (its test-jar).
     */
    private static final JavaClasses PACELINK = new ClassFileImporter()
        .withImportOption((location) -> !location.contains("/test-classes/") && !location.contains("-tests.jar"))
        .importPackages("io.pacelink");

    /**
     * Protocol, recovery, congestion-control, scheduling, simulator and link-model code. Allowed elsewhere: the agent
     * (hands the core its clock and idles), the ports (real sockets), the real-time relay, the public
     * {@code Endpoint} (starts the agent's thread) and the command line.
     */
    private static final String[] DETERMINISTIC_PACKAGES = {
        "io.pacelink.transport.engine..",
        "io.pacelink.transport.admission..",
        "io.pacelink.transport.memory..",
        "io.pacelink.transport.wire..",
        "io.pacelink.transport.ack..",
        "io.pacelink.transport.recovery..",
        "io.pacelink.transport.cc..",
        "io.pacelink.transport.stream..",
        "io.pacelink.transport.schedule..",
        "io.pacelink.transport.secure..",
        "io.pacelink.sim..",
        "io.pacelink.link..",
        "io.pacelink.reno..",
        "io.pacelink.cubic..",
        "io.pacelink.bbr..",
        "io.pacelink.fq.." };

    private static final String REAL_TIME_RELAY = "io.pacelink.link.relay..";

    @Test
    void theRulesSeeEveryModulesProductionClassesAndNoTestKit()
    {
        for (final String name : new String[]{
            "io.pacelink.transport.engine.EndpointCore",
            "io.pacelink.reno.NewRenoController",
            "io.pacelink.cubic.CubicController",
            "io.pacelink.bbr.v3.Bbr3Controller",
            "io.pacelink.bbr.v1.BbrPlusControllerFactory",
            "io.pacelink.bbr.v3.Bbr2ControllerFactory",
            "io.pacelink.fq.FqScheduler",
            "io.pacelink.sim.Simulator" })
        {
            assertTrue(PACELINK.contain(name), name);
        }
        assertFalse(PACELINK.contain("io.pacelink.transport.testing.ScriptedPath"));
        assertFalse(PACELINK.contain(ArchitectureRulesTest.class));
    }

    @Test
    void theTransportKnowsNothingOfTheSimulatorOrTheLinkModel()
    {
        noClasses().that().resideInAPackage("io.pacelink.transport..")
            .should().dependOnClassesThat().resideInAnyPackage("io.pacelink.sim..", "io.pacelink.link..")
            .check(PACELINK);
    }

    @Test
    void eachControllerSeesOnlyTheCongestionControlSpi()
    {
        for (final String controller : new String[]{ "reno", "cubic", "bbr" })
        {
            final String controllerPackage = "io.pacelink." + controller + "..";
            classes().that().resideInAPackage(controllerPackage)
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage(controllerPackage, "io.pacelink.transport.cc..", "java..", "org.agrona..")
                .check(PACELINK);
        }
    }

    @Test
    void theFairQueueSeesOnlyTheSchedulerAndBottleneckQueueSpis()
    {
        classes().that().resideInAPackage("io.pacelink.fq..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                "io.pacelink.fq..",
                "io.pacelink.transport.schedule..",
                "io.pacelink.transport.cc..",
                "io.pacelink.link",
                "java..",
                "org.agrona..",
                "org.HdrHistogram..")
            .check(PACELINK);
    }

    @Test
    void theEndpointCoreIsTouchedByTheAgentThreadOnly()
    {
        final String[] agentOnly = {
            "io.pacelink.transport.engine..",
            "io.pacelink.transport.admission..",
            "io.pacelink.transport.recovery..",
            "io.pacelink.transport.ack..",
            "io.pacelink.transport.cc..",
            "io.pacelink.transport.schedule..",
            "io.pacelink.transport.secure..",
            "io.pacelink.transport.wire.." };
        // The handle is the application's side of a connection: its state is published through volatile fields;
        // the application's signals are the queue through which it tells the agent which connection it acted on.
        final String applicationSide = "io.pacelink.transport.engine.ConnectionHandle";
        final String applicationSignals = "io.pacelink.transport.engine.ApplicationSignals";

        noFields().that().areDeclaredInClassesThat().resideInAnyPackage(agentOnly)
            .and().areDeclaredInClassesThat().doNotHaveFullyQualifiedName(applicationSide)
            .and().areDeclaredInClassesThat().doNotHaveFullyQualifiedName(applicationSignals)
            .should().haveModifier(JavaModifier.VOLATILE)
            .check(PACELINK);
        noClasses().that().resideInAnyPackage(agentOnly)
            .should().dependOnClassesThat().resideInAnyPackage(
                "org.jctools..", "java.util.concurrent.atomic..", "java.util.concurrent.locks..")
            .check(PACELINK);
        // Every counters manager, in memory or in a CountersFile, has one writer: the endpoint's agent (after the
        // endpoint's constructor, before the agent starts) or a relay's loop.
        noClasses().should().dependOnClassesThat().belongToAnyOf(ConcurrentCountersManager.class).check(PACELINK);
    }

    @Test
    void protocolCodeReadsNoClockSleepsNowhereAndUsesOnlySeededRandomness()
    {
        deterministic(DETERMINISTIC_PACKAGES).check(PACELINK);
    }

    @Test
    void theDeterminismRuleCatchesAClockReadAndAnUnseededRandom()
    {
        final ArchRule rule = deterministic("io.pacelink.rules..");
        final ClassFileImporter importer = new ClassFileImporter();
        assertThrows(AssertionError.class, () -> rule.check(importer.importClasses(ReadsTheClock.class)));
        assertThrows(AssertionError.class, () -> rule.check(importer.importClasses(UnseededRandom.class)));
        rule.check(importer.importClasses(SeededRandom.class));
    }

    private static ArchRule deterministic(final String... packages)
    {
        return noClasses().that().resideInAnyPackage(packages).and().resideOutsideOfPackage(REAL_TIME_RELAY)
            .should().callMethod(System.class, "nanoTime")
            .orShould().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(Instant.class, "now")
            .orShould().callMethodWhere(target(owner(type(Clock.class))).and(target(nameStartingWith("system"))))
            .orShould().callMethodWhere(target(owner(type(Thread.class))).and(target(name("sleep"))))
            .orShould().callConstructorWhere(target(owner(assignableTo(Thread.class))))
            .orShould().callMethod(Math.class, "random")
            .orShould().callConstructor(Random.class)
            .orShould().callConstructor(SplittableRandom.class)
            .orShould().dependOnClassesThat().belongToAnyOf(
                ThreadLocalRandom.class,
                SecureRandom.class,
                LockSupport.class,
                Executors.class,
                SystemNanoClock.class,
                SystemEpochClock.class)
            .because("time is a parameter and randomness is handed in seeded, so a simulation is reproducible");
    }

    static final class ReadsTheClock
    {
        long now()
        {
            return System.nanoTime();
        }
    }

    static final class UnseededRandom
    {
        int roll()
        {
            return new Random().nextInt(6);
        }
    }

    static final class SeededRandom
    {
        int roll(final long seed)
        {
            return new SplittableRandom(seed).nextInt(6);
        }
    }
}
