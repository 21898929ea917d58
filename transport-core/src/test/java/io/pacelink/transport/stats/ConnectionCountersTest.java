package io.pacelink.transport.stats;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionCountersTest
{
    @Test
    void controllerStateIsPublishedAsAnIndexIntoTheNamesInItsLabel()
    {
        final CountersManager manager = CountersBuffers.newManager(64 * 1024);
        final ConnectionCounters counters = new ConnectionCounters(manager, 7, "conn 7 /127.0.0.1:4000 bbr");
        final List<String> names = List.of("STARTUP", "DRAIN", "PROBE_BW", "PROBE_RTT");
        counters.registerControllerState(names);
        counters.publishControllerState("DRAIN");

        final int[] found = { 0 };
        manager.forEach((id, typeId, key, label) ->
        {
            if (ConnectionCounters.CONTROLLER_STATE_NAME.equals(CounterKey.name(key)))
            {
                found[0]++;
                assertEquals(CounterType.CONTROLLER, typeId);
                assertEquals(7, CounterKey.ownerId(key));
                assertEquals("conn 7 /127.0.0.1:4000 bbr: cc-state [STARTUP DRAIN PROBE_BW PROBE_RTT]", label);
                assertEquals(names, ConnectionCounters.controllerStateNames(label));
                assertEquals(1, manager.getCounterValue(id));
            }
        });
        assertEquals(1, found[0]);

        counters.publishControllerState("NOT_LISTED");
        assertEquals(ConnectionCounters.UNKNOWN_STATE, counterValue(manager, ConnectionCounters.CONTROLLER_STATE_NAME));
        counters.close();
        assertEquals(0, countAllocated(manager), "released with the connection");
    }

    @Test
    void keysAndLabelsAreTheOnesCounterKeyWrites()
    {
        // A prefix with non-ASCII characters (UTF-8 in a label), and one long enough to be cut at Agrona's limit.
        for (final String prefix : List.of("conn 1f /[::1]:4000 cubic", "conn 2 h\u00f4te-\u00e9t\u00e9 reno",
            "conn 3 " + "x".repeat(CountersReader.MAX_LABEL_LENGTH)))
        {
            final CountersManager built = CountersBuffers.newManager(64 * 1024);
            final ConnectionCounters counters = new ConnectionCounters(built, 0x1f, prefix);
            // Every transport counter is registered by its first value other than 0.
            for (int i = 0; i < ConnectionCounters.COUNT; i++)
            {
                counters.set(i, i + 1);
            }
            counters.newCounter("cwnd-gain");
            counters.newCounter("n\u00e4me");
            final List<String> stateNames = List.of("\u00c9TAT", "PROBE_BW");
            counters.registerControllerState(stateNames);
            final CountersManager expected = CountersBuffers.newManager(64 * 1024);
            for (int i = 0; i < ConnectionCounters.COUNT; i++)
            {
                CounterKey.newCounter(expected, CounterType.CONNECTION, 0x1f, ConnectionCounters.name(i),
                    prefix + ": " + ConnectionCounters.name(i));
            }
            CounterKey.newCounter(expected, CounterType.CONTROLLER, 0x1f, "cwnd-gain", prefix + ": cwnd-gain");
            CounterKey.newCounter(expected, CounterType.CONTROLLER, 0x1f, "n\u00e4me", prefix + ": n\u00e4me");
            CounterKey.newCounter(expected, CounterType.CONTROLLER, 0x1f, ConnectionCounters.CONTROLLER_STATE_NAME,
                ConnectionCounters.controllerStateLabel(prefix + ": " + ConnectionCounters.CONTROLLER_STATE_NAME,
                stateNames));

            assertEquals(countAllocated(expected), countAllocated(built));
            // STATE first (registered at once), the others in the order of their first values, then the controller's.
            expected.forEach((id, typeId, key, label) ->
            {
                assertEquals(typeId, built.getCounterTypeId(id), prefix);
                assertEquals(label, built.getCounterLabel(id), prefix);
                assertEquals(CounterKey.ownerId(key), CounterKey.ownerId(keyOf(built, id)), prefix);
                assertEquals(CounterKey.name(key), CounterKey.name(keyOf(built, id)), prefix);
            });
            counters.close();
            assertEquals(0, countAllocated(built), "released with the connection");
        }
    }

    @Test
    void aCounterIsRegisteredByItsFirstValueOtherThanZeroOnly()
    {
        final CountersManager manager = CountersBuffers.newManager(64 * 1024);
        final ConnectionCounters counters = new ConnectionCounters(manager, 9, "conn 9 /127.0.0.1:4000 cubic");
        assertEquals(1, countAllocated(manager), "the state only");
        assertTrue(counters.isRegistered(ConnectionCounters.STATE));
        assertEquals(0, counterValue(manager, "state"));

        // Zeros register nothing and read 0.
        counters.set(ConnectionCounters.PACKETS_LOST, 0);
        counters.add(ConnectionCounters.BYTES_SENT, 0);
        assertEquals(1, countAllocated(manager));
        assertFalse(counters.isRegistered(ConnectionCounters.PACKETS_LOST));
        assertEquals(0, counters.get(ConnectionCounters.PACKETS_LOST));
        assertEquals(Long.MIN_VALUE, counterValue(manager, "packets-lost"), "absent from the buffer");

        // The first value other than 0 registers the counter with it, whichever way it is written.
        counters.set(ConnectionCounters.PACKETS_LOST, 3);
        counters.add(ConnectionCounters.BYTES_SENT, 1200);
        counters.increment(ConnectionCounters.PROBE_TIMEOUTS);
        counters.set(ConnectionCounters.ECN_STATE, -1);
        assertEquals(5, countAllocated(manager));
        assertEquals(3, counterValue(manager, "packets-lost"));
        assertEquals(1200, counterValue(manager, "bytes-sent"));
        assertEquals(1, counterValue(manager, "probe-timeouts"));
        assertEquals(-1, counterValue(manager, "ecn-state"));

        // Registered once: later writes, 0 included, go to the same counter.
        counters.add(ConnectionCounters.BYTES_SENT, 800);
        counters.increment(ConnectionCounters.PROBE_TIMEOUTS);
        counters.set(ConnectionCounters.PACKETS_LOST, 0);
        assertEquals(5, countAllocated(manager));
        assertEquals(2000, counters.get(ConnectionCounters.BYTES_SENT));
        assertEquals(2, counterValue(manager, "probe-timeouts"));
        assertEquals(0, counterValue(manager, "packets-lost"));

        counters.close();
        assertEquals(0, countAllocated(manager), "every counter registered is freed");
        // A closed connection's counters register nothing more (nothing would free them).
        counters.set(ConnectionCounters.SPURIOUS_LOSSES, 7);
        counters.increment(ConnectionCounters.DUPLICATE_PACKETS);
        counters.add(ConnectionCounters.BYTES_LOST, 7);
        assertEquals(0, countAllocated(manager));
        assertEquals(0, counters.get(ConnectionCounters.SPURIOUS_LOSSES));
    }

    @Test
    void theCountersNotRegisteredYetAreReservedUntilRegisteredOrClosed()
    {
        final CountersManager manager = CountersBuffers.newManager(64 * 1024);
        final CounterReservations reservations = new CounterReservations();
        final ConnectionCounters first = new ConnectionCounters(manager, 1, "conn 1", reservations);
        final ConnectionCounters second = new ConnectionCounters(manager, 2, "conn 2", reservations);
        assertEquals(2L * (ConnectionCounters.COUNT - 1), reservations.reservedCounters(), "all but the state");

        first.set(ConnectionCounters.CWND_BYTES, 12_000);
        first.set(ConnectionCounters.CWND_BYTES, 14_000);
        first.increment(ConnectionCounters.PACKETS_SENT);
        first.set(ConnectionCounters.STATE, 2);
        assertEquals(2L * (ConnectionCounters.COUNT - 1) - 2, reservations.reservedCounters(), "two registered");

        first.close();
        first.close();
        assertEquals(ConnectionCounters.COUNT - 1, reservations.reservedCounters(), "returned once, on close");
        second.close();
        assertEquals(0, reservations.reservedCounters());
    }

    @Test
    void aConnectionIsAdmittedOnlyIfItsCountersFitBesideTheReservedOnes()
    {
        final CountersManager manager = CountersBuffers.newManager(CountersSizing.MIN_VALUES_BUFFER_BYTES);
        final int available = manager.available();
        final int spare = available - CountersSizing.COUNTERS_PER_CONNECTION;
        assertTrue(spare >= 0);
        assertTrue(CountersSizing.hasRoomForConnection(manager, spare));
        assertFalse(CountersSizing.hasRoomForConnection(manager, spare + 1));
        // The same once some are in use and the ids above the highest used are not enough on their own.
        for (int i = 0; i < spare / 2; i++)
        {
            CounterKey.newCounter(manager, CounterType.CONNECTION, 1, "n" + i, "n" + i);
        }
        final int left = manager.available() - CountersSizing.COUNTERS_PER_CONNECTION;
        assertTrue(CountersSizing.hasRoomForConnection(manager, left));
        assertFalse(CountersSizing.hasRoomForConnection(manager, left + 1));
    }

    @Test
    void theControllerStateLabelIsTheSameForEveryConnectionOfAControllerType()
    {
        final CountersManager manager = CountersBuffers.newManager(64 * 1024);
        final List<String> names = List.of("SLOW_START", "CONGESTION_AVOIDANCE");
        for (int i = 1; i <= 3; i++)
        {
            new ConnectionCounters(manager, i, "conn " + i + " /127.0.0.1:400" + i + " reno")
                .registerControllerState(names);
        }
        // Equal lists that are not the same object get the same label.
        new ConnectionCounters(manager, 4, "conn 4 /127.0.0.1:4004 reno")
            .registerControllerState(List.of("SLOW_START", "CONGESTION_AVOIDANCE"));
        final int[] found = { 0 };
        manager.forEach((id, typeId, key, label) ->
        {
            if (ConnectionCounters.CONTROLLER_STATE_NAME.equals(CounterKey.name(key)))
            {
                final long owner = CounterKey.ownerId(key);
                assertEquals("conn " + owner + " /127.0.0.1:400" + owner + " reno: cc-state [SLOW_START " +
                    "CONGESTION_AVOIDANCE]", label);
                found[0]++;
            }
        });
        assertEquals(4, found[0]);
    }

    @Test
    void aNameTooLongIsRefused()
    {
        final ConnectionCounters counters =
            new ConnectionCounters(CountersBuffers.newManager(64 * 1024), 7, "conn 7 /127.0.0.1:4000 bbr");
        counters.newCounter("n".repeat(CounterKey.MAX_NAME_LENGTH));
        assertThrows(IllegalArgumentException.class,
            () -> counters.newCounter("n".repeat(CounterKey.MAX_NAME_LENGTH + 1)));
    }

    @Test
    void aLabelWithoutNamesMapsToNothing()
    {
        assertEquals(List.of(), ConnectionCounters.controllerStateNames("conn 7: cc-state"));
    }

    @Test
    void aValuePublishedAgainUnchangedIsNotStoredAndAddsCountOnFromTheLastValue()
    {
        final CountersManager manager = CountersBuffers.newManager(64 * 1024);
        final ConnectionCounters counters = new ConnectionCounters(manager, 9, "conn 9 /127.0.0.1:4000 cubic");
        final String cwnd = ConnectionCounters.name(ConnectionCounters.CWND_BYTES);

        // Zero, set or added, registers nothing.
        counters.set(ConnectionCounters.CWND_BYTES, 0);
        counters.add(ConnectionCounters.PACKETS_SENT, 0);
        assertFalse(counters.isRegistered(ConnectionCounters.CWND_BYTES));
        assertFalse(counters.isRegistered(ConnectionCounters.PACKETS_SENT));

        counters.set(ConnectionCounters.CWND_BYTES, 12_000);
        assertEquals(12_000, counters.get(ConnectionCounters.CWND_BYTES));

        // Overwrite the counter behind the class's back (no writer may: it is the only one), then publish the value it
        // was given last: nothing is stored, so the counter keeps what was written over it. A new value is stored.
        final int[] cwndId = { -1 };
        manager.forEach((id, typeId, key, label) -> cwndId[0] = cwnd.equals(CounterKey.name(key)) ? id : cwndId[0]);
        manager.setCounterValue(cwndId[0], 99);
        counters.set(ConnectionCounters.CWND_BYTES, 12_000);
        assertEquals(99, counters.get(ConnectionCounters.CWND_BYTES));
        counters.set(ConnectionCounters.CWND_BYTES, 12_001);
        assertEquals(12_001, counters.get(ConnectionCounters.CWND_BYTES));
        counters.set(ConnectionCounters.CWND_BYTES, 0);
        assertEquals(0, counters.get(ConnectionCounters.CWND_BYTES));

        counters.add(ConnectionCounters.PACKETS_SENT, 2);
        counters.increment(ConnectionCounters.PACKETS_SENT);
        assertEquals(3, counters.get(ConnectionCounters.PACKETS_SENT));
        counters.add(ConnectionCounters.PACKETS_SENT, -3);
        assertEquals(0, counters.get(ConnectionCounters.PACKETS_SENT));
        assertTrue(counters.isRegistered(ConnectionCounters.PACKETS_SENT));
        counters.add(ConnectionCounters.PACKETS_SENT, Long.MAX_VALUE);
        assertEquals(Long.MAX_VALUE, counters.get(ConnectionCounters.PACKETS_SENT));

        // Closed: a counter never registered stays so, whatever is published.
        counters.close();
        counters.set(ConnectionCounters.BYTES_LOST, 5);
        counters.add(ConnectionCounters.PACKETS_LOST, 5);
        assertFalse(counters.isRegistered(ConnectionCounters.BYTES_LOST));
        assertFalse(counters.isRegistered(ConnectionCounters.PACKETS_LOST));
        assertEquals(0, countAllocated(manager));
    }

    private static long counterValue(final CountersManager manager, final String name)
    {
        final long[] value = { Long.MIN_VALUE };
        manager.forEach((id, typeId, key, label) ->
        {
            if (name.equals(CounterKey.name(key)))
            {
                value[0] = manager.getCounterValue(id);
            }
        });
        return value[0];
    }

    private static DirectBuffer keyOf(final CountersManager manager, final int id)
    {
        final DirectBuffer[] found = { null };
        manager.forEach((counterId, typeId, key, label) ->
        {
            if (counterId == id)
            {
                found[0] = new UnsafeBuffer(key, 0, key.capacity());
            }
        });
        return found[0];
    }

    private static int countAllocated(final CountersManager manager)
    {
        final int[] count = { 0 };
        manager.forEach((id, typeId, key, label) -> count[0]++);
        return count[0];
    }
}
