package io.pacelink.sim;

import io.pacelink.link.FlowKeys;

/**
 * Derives independent, reproducible random streams from one scenario seed: each stream is named (e.g.
 * {@code "dumbbell.forward"}) and its seed depends only on the scenario seed and the name, so adding a stream
 * does not change the others.
 */
public final class Seeds
{
    private static final long FNV_OFFSET_BASIS = 0xCBF29CE484222325L;
    private static final long FNV_PRIME = 0x100000001B3L;

    private Seeds()
    {
    }

    /**
     * @param scenarioSeed the scenario's seed.
     * @param streamName   the stream's name.
     * @return the stream's seed.
     */
    public static long derive(final long scenarioSeed, final String streamName)
    {
        long nameHash = FNV_OFFSET_BASIS;
        for (int i = 0; i < streamName.length(); i++)
        {
            nameHash = (nameHash ^ streamName.charAt(i)) * FNV_PRIME;
        }
        return FlowKeys.mix(FlowKeys.mix(scenarioSeed) ^ nameHash);
    }
}
