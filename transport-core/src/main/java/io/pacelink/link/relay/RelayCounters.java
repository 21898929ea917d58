package io.pacelink.link.relay;

import io.pacelink.transport.stats.CounterKey;
import io.pacelink.transport.stats.CounterType;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * A relay's {@link RelayStats} as counters (type {@link CounterType#RELAY}), so {@code pacelink stat} can watch a
 * running {@code pacelink netem} from another process. Published with every stats snapshot (every 100 ms), never per
 * packet.
 */
final class RelayCounters
{
    private final Direction forward;
    private final Direction reverse;
    private final AtomicCounter releasedPackets;
    private final AtomicCounter releaseLateP50Ns;
    private final AtomicCounter releaseLateP99Ns;
    private final AtomicCounter releaseLateMaxNs;
    private final AtomicCounter noClientDrops;
    private final AtomicCounter clients;
    private final AtomicCounter clientsOpened;
    private final AtomicCounter clientsForgotten;

    /**
     * @param countersManager where to register.
     * @param labelPrefix     e.g. {@code netem 127.0.0.1:9000 -> 127.0.0.1:9001}.
     */
    RelayCounters(final CountersManager countersManager, final String labelPrefix)
    {
        forward = new Direction(countersManager, labelPrefix, "forward-");
        reverse = new Direction(countersManager, labelPrefix, "reverse-");
        releasedPackets = newCounter(countersManager, labelPrefix, "released-packets");
        releaseLateP50Ns = newCounter(countersManager, labelPrefix, "release-late-p50-ns");
        releaseLateP99Ns = newCounter(countersManager, labelPrefix, "release-late-p99-ns");
        releaseLateMaxNs = newCounter(countersManager, labelPrefix, "release-late-max-ns");
        noClientDrops = newCounter(countersManager, labelPrefix, "no-client-drops");
        clients = newCounter(countersManager, labelPrefix, "clients");
        clientsOpened = newCounter(countersManager, labelPrefix, "clients-opened");
        clientsForgotten = newCounter(countersManager, labelPrefix, "clients-forgotten");
    }

    void publish(final RelayStats stats)
    {
        forward.publish(stats.forward());
        reverse.publish(stats.reverse());
        releasedPackets.setRelease(stats.releasedPackets());
        releaseLateP50Ns.setRelease(stats.releaseLateP50Ns());
        releaseLateP99Ns.setRelease(stats.releaseLateP99Ns());
        releaseLateMaxNs.setRelease(stats.releaseLateMaxNs());
        noClientDrops.setRelease(stats.noClientDrops());
        clients.setRelease(stats.clients());
        clientsOpened.setRelease(stats.clientsOpened());
        clientsForgotten.setRelease(stats.clientsForgotten());
    }

    private static AtomicCounter newCounter(
        final CountersManager countersManager, final String labelPrefix, final String name)
    {
        return CounterKey.newCounter(countersManager, CounterType.RELAY, 0, name, labelPrefix + ": " + name);
    }

    private static final class Direction
    {
        private final AtomicCounter receivedPackets;
        private final AtomicCounter receivedBytes;
        private final AtomicCounter forwardedPackets;
        private final AtomicCounter forwardedBytes;
        private final AtomicCounter randomLossPackets;
        private final AtomicCounter policedPackets;
        private final AtomicCounter queueDropPackets;
        private final AtomicCounter duplicatedPackets;
        private final AtomicCounter corruptedPackets;
        private final AtomicCounter queuedPackets;
        private final AtomicCounter queuedBytes;
        private final AtomicCounter sendFailures;
        private final AtomicCounter ecnCapablePackets;
        private final AtomicCounter queueMarkPackets;

        Direction(final CountersManager countersManager, final String labelPrefix, final String namePrefix)
        {
            receivedPackets = newCounter(countersManager, labelPrefix, namePrefix + "received-packets");
            receivedBytes = newCounter(countersManager, labelPrefix, namePrefix + "received-bytes");
            forwardedPackets = newCounter(countersManager, labelPrefix, namePrefix + "forwarded-packets");
            forwardedBytes = newCounter(countersManager, labelPrefix, namePrefix + "forwarded-bytes");
            randomLossPackets = newCounter(countersManager, labelPrefix, namePrefix + "random-loss-packets");
            policedPackets = newCounter(countersManager, labelPrefix, namePrefix + "policed-packets");
            queueDropPackets = newCounter(countersManager, labelPrefix, namePrefix + "queue-drop-packets");
            duplicatedPackets = newCounter(countersManager, labelPrefix, namePrefix + "duplicated-packets");
            corruptedPackets = newCounter(countersManager, labelPrefix, namePrefix + "corrupted-packets");
            queuedPackets = newCounter(countersManager, labelPrefix, namePrefix + "queued-packets");
            queuedBytes = newCounter(countersManager, labelPrefix, namePrefix + "queued-bytes");
            sendFailures = newCounter(countersManager, labelPrefix, namePrefix + "send-failures");
            ecnCapablePackets = newCounter(countersManager, labelPrefix, namePrefix + "ecn-capable-packets");
            queueMarkPackets = newCounter(countersManager, labelPrefix, namePrefix + "queue-mark-packets");
        }

        void publish(final RelayStats.Direction direction)
        {
            receivedPackets.setRelease(direction.receivedPackets());
            receivedBytes.setRelease(direction.receivedBytes());
            forwardedPackets.setRelease(direction.forwardedPackets());
            forwardedBytes.setRelease(direction.forwardedBytes());
            randomLossPackets.setRelease(direction.randomLossPackets());
            policedPackets.setRelease(direction.policedPackets());
            queueDropPackets.setRelease(direction.queueDropPackets());
            duplicatedPackets.setRelease(direction.duplicatedPackets());
            corruptedPackets.setRelease(direction.corruptedPackets());
            queuedPackets.setRelease(direction.queuedPackets());
            queuedBytes.setRelease(direction.queuedBytes());
            sendFailures.setRelease(direction.sendFailures());
            ecnCapablePackets.setRelease(direction.ecnCapablePackets());
            queueMarkPackets.setRelease(direction.queueMarkPackets());
        }
    }
}
