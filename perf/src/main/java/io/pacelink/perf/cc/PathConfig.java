package io.pacelink.perf.cc;

/**
 * A single-bottleneck path a {@link ControllerTrace} is recorded on.
 *
 * @param bottleneckBytesPerSecond link rate of the bottleneck.
 * @param propagationRttNs         round-trip propagation delay (the RTT without queueing or serialization).
 * @param bufferBytes              drop-tail buffer in front of the bottleneck.
 * @param randomLossProbability    Bernoulli loss per packet, on top of buffer overflow.
 * @param packetSizeBytes          size of every data packet (the path's max datagram size).
 * @param seed                     seed of the random losses.
 */
public record PathConfig(
    long bottleneckBytesPerSecond,
    long propagationRttNs,
    long bufferBytes,
    double randomLossProbability,
    int packetSizeBytes,
    long seed)
{
    /**
     * @throws IllegalArgumentException if a value is out of range.
     */
    public PathConfig
    {
        if (bottleneckBytesPerSecond <= 0 || propagationRttNs <= 0 || bufferBytes < packetSizeBytes ||
            randomLossProbability < 0 || randomLossProbability >= 1 || packetSizeBytes <= 0)
        {
            throw new IllegalArgumentException("invalid path: rate=" + bottleneckBytesPerSecond + " B/s rtt=" +
                propagationRttNs + " ns buffer=" + bufferBytes + " B loss=" + randomLossProbability +
                " packet=" + packetSizeBytes + " B");
        }
    }
}
