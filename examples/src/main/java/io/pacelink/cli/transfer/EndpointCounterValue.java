package io.pacelink.cli.transfer;

import io.pacelink.transport.Endpoint;
import org.agrona.concurrent.status.CountersReader;

/**
 * Reads one of an endpoint's counters by name, the way {@code pacelink stat} shows it, for a tool's summary.
 */
final class EndpointCounterValue
{
    private EndpointCounterValue()
    {
    }

    /**
     * @param endpoint the endpoint.
     * @return packets it dropped because their CRC32C or AEAD tag did not check ({@code integrity-failures}).
     */
    static long integrityFailures(final Endpoint endpoint)
    {
        return of(endpoint, "integrity-failures");
    }

    /**
     * @param endpoint the endpoint.
     * @param name     the counter's name: its label ends with {@code ": " + name}.
     * @return its value, or 0 if it has no such counter.
     */
    static long of(final Endpoint endpoint, final String name)
    {
        final CountersReader reader = endpoint.countersReader();
        final String suffix = ": " + name;
        final long[] value = {0};
        reader.forEach((counterId, typeId, keyBuffer, label) ->
        {
            if (label.endsWith(suffix))
            {
                value[0] = reader.getCounterValue(counterId);
            }
        });
        return value[0];
    }
}
