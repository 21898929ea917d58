package io.pacelink.transport.stats;

import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

    private static int countAllocated(final CountersManager manager)
    {
        final int[] count = { 0 };
        manager.forEach((id, typeId, key, label) -> count[0]++);
        return count[0];
    }
}
