package io.pacelink.link;

import java.math.BigDecimal;

/**
 * A drop-tail limit of the bottleneck queue as written in a path spec: packets ({@code queue=100p}), bytes
 * ({@code queue=150000b}, {@code 64kb}, {@code 2mb}; k and m are 1024 and 1024² like tc) or a multiple of the path's
 * bandwidth-delay product ({@code queue=1bdp}).
 *
 * @param unit   what the amount counts.
 * @param amount the number of packets, bytes or BDPs.
 */
public record QueueLimit(Unit unit, double amount)
{
    /**
     * netem's default limit: 1000 packets.
     */
    public static final QueueLimit DEFAULT = new QueueLimit(Unit.PACKETS, 1000);

    /**
     * A BDP-sized queue is never smaller than one full-size Ethernet frame, or nothing could pass a short path.
     */
    public static final long MIN_BDP_LIMIT_BYTES = 1514;

    /**
     * What a limit counts.
     */
    public enum Unit
    {
        /**
         * Packets waiting in the queue.
         */
        PACKETS,
        /**
         * Bytes waiting in the queue.
         */
        BYTES,
        /**
         * Multiples of the bandwidth-delay product, resolved to bytes.
         */
        BDP
    }

    /**
     * @param unit   what the amount counts.
     * @param amount positive; whole for packets and bytes.
     */
    public QueueLimit
    {
        if (!(amount > 0) || (unit != Unit.BDP && amount != Math.rint(amount)))
        {
            throw new IllegalArgumentException("a queue limit must be positive (and whole for packets and bytes), " +
                "got " + amount);
        }
    }

    /**
     * @return true if the limit is a multiple of the bandwidth-delay product.
     */
    public boolean isInBdp()
    {
        return unit == Unit.BDP;
    }

    /**
     * The BDP uses the base round-trip time handed in: for a {@link PathSpec.Pair} the sum of the two directions'
     * propagation delays, for a lone direction twice its delay; jitter and queueing are not part of it.
     *
     * @param bitsPerSecond the link's nominal rate.
     * @param baseRttNs     the base round-trip time.
     * @return the byte limit, {@link Long#MAX_VALUE} if this limit counts packets.
     */
    public long limitBytes(final long bitsPerSecond, final long baseRttNs)
    {
        return switch (unit)
        {
            case PACKETS -> Long.MAX_VALUE;
            case BYTES -> (long)amount;
            case BDP -> Math.max(MIN_BDP_LIMIT_BYTES, (long)(amount * bitsPerSecond / 8.0 * baseRttNs / 1e9));
        };
    }

    /**
     * @return the packet limit, {@link Integer#MAX_VALUE} unless this limit counts packets.
     */
    public int limitPackets()
    {
        return unit == Unit.PACKETS ? (int)Math.min(Integer.MAX_VALUE, (long)amount) : Integer.MAX_VALUE;
    }

    /**
     * @return the limit in path-spec form, e.g. {@code queue=1bdp}.
     */
    public String toSpec()
    {
        final String number = BigDecimal.valueOf(amount).stripTrailingZeros().toPlainString();
        return "queue=" + number + switch (unit)
        {
            case PACKETS -> "p";
            case BYTES -> "b";
            case BDP -> "bdp";
        };
    }
}
