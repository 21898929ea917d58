package io.pacelink.transport.stats;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
            counters.newCounter("cwnd-gain");
            counters.newCounter("n\u00e4me");
            final CountersManager expected = CountersBuffers.newManager(64 * 1024);
            for (int i = 0; i < ConnectionCounters.COUNT; i++)
            {
                CounterKey.newCounter(expected, CounterType.CONNECTION, 0x1f, ConnectionCounters.name(i),
                    prefix + ": " + ConnectionCounters.name(i));
            }
            CounterKey.newCounter(expected, CounterType.CONTROLLER, 0x1f, "cwnd-gain", prefix + ": cwnd-gain");
            CounterKey.newCounter(expected, CounterType.CONTROLLER, 0x1f, "n\u00e4me", prefix + ": n\u00e4me");

            assertEquals(countAllocated(expected), countAllocated(built));
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
