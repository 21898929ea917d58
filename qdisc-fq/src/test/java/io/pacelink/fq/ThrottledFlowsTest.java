package io.pacelink.fq;

import org.junit.jupiter.api.Test;

import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class ThrottledFlowsTest
{
    @Test
    void pollsInDeadlineOrderWithTiesInThrottlingOrderUnderRandomAddsAndRemoves()
    {
        final ThrottledFlows throttled = new ThrottledFlows(2);
        final SplittableRandom random = new SplittableRandom(7);
        final Map<FqFlow, Integer> throttlingOrder = new IdentityHashMap<>();
        final TreeSet<FqFlow> reference = new TreeSet<>(Comparator
            .comparingLong((FqFlow flow) -> flow.timeNextPacketNs)
            .thenComparingInt(throttlingOrder::get));

        for (int step = 0; step < 20_000; step++)
        {
            final int action = random.nextInt(10);
            if (action < 5 || reference.isEmpty())
            {
                final FqFlow flow = new FqFlow();
                // Few distinct deadlines, so ties are common.
                flow.timeNextPacketNs = random.nextInt(50);
                throttlingOrder.put(flow, step);
                throttled.add(flow);
                reference.add(flow);
            }
            else if (action < 8)
            {
                assertSame(reference.pollFirst(), throttled.poll(), "step " + step);
            }
            else
            {
                final FqFlow victim = reference.stream().skip(random.nextInt(reference.size())).findFirst().get();
                reference.remove(victim);
                throttled.remove(victim);
                assertEquals(-1, victim.heapIndex);
            }
            assertEquals(reference.size(), throttled.size());
            assertSame(reference.isEmpty() ? null : reference.first(), throttled.peek());
        }

        while (!reference.isEmpty())
        {
            assertSame(reference.pollFirst(), throttled.poll());
        }
        assertNull(throttled.peek());
    }
}
