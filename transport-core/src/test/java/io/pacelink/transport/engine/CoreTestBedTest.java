package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.testing.TestNetwork;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The engine's test bed repeats itself: two beds made alike make cores that draw alike (connection ids, skipped packet
 * numbers, keys), and a seed the test gives is the one its core draws from.
 */
class CoreTestBedTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);

    /**
     * @param serverSeed the server's own seed, or null for the bed's.
     * @return the client's and the server's connection ids of one connection in a new bed.
     */
    private static long[] connectionIds(final Long serverSeed)
    {
        final CoreTestBed bed = new CoreTestBed(10 * SECOND_NS, SECOND_NS);
        final TestNetwork.Port serverPort = bed.network().newPort(1000);
        final PacelinkContext serverContext = new PacelinkContext();
        if (null != serverSeed)
        {
            serverContext.randomSeed(serverSeed);
        }
        final EndpointCore server = bed.newCore(serverPort, true, 16, serverContext, new ArrayList<>(), null);
        final EndpointCore client = bed.newCore(bed.network().newPort(2000), false, 16);
        final Connection[] pair = bed.connect(client, server, serverPort);
        return new long[]{ pair[0].connectionId(), pair[1].connectionId() };
    }

    @Test
    void twoBedsMadeAlikeDrawAlike()
    {
        final long[] first = connectionIds(null);
        final long[] second = connectionIds(null);
        assertEquals(first[0], second[0], "the client's connection id");
        assertEquals(first[1], second[1], "the server's connection id");
    }

    @Test
    void aSeedTheTestGivesIsTheOneItsCoreDrawsFrom()
    {
        final long[] bedSeeded = connectionIds(null);
        final long[] ownSeed = connectionIds(CoreTestBed.FIRST_SEED + 1000);
        assertEquals(ownSeed[1], connectionIds(CoreTestBed.FIRST_SEED + 1000)[1], "the server's id, from its own seed");
        assertNotEquals(bedSeeded[1], ownSeed[1], "the server's id, from another seed than the bed's");
    }
}
