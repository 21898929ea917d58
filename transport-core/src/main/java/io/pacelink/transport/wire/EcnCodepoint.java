package io.pacelink.transport.wire;

import java.util.Locale;

/**
 * The two-bit ECN field of the IP header a datagram travels in (RFC 3168 section 5): set by the sender's port, changed
 * to CE by a queue that marks instead of dropping, read by the receiver's port and counted in the ACK frame's ECN
 * counts ({@link AckFrameFlyweight#FLAG_ECN}). Plain {@code int} constants, as ports and queues carry them per
 * datagram without boxing.
 */
public final class EcnCodepoint
{
    /**
     * Not ECN-capable: a queue drops such a packet where it would mark it.
     */
    public static final int NOT_ECT = 0;

    /**
     * ECT(1): ECN-capable; the identifier of L4S traffic (RFC 9331 section 4.1).
     */
    public static final int ECT_1 = 1;

    /**
     * ECT(0): ECN-capable; what a classic ECN sender sets (RFC 3168, RFC 9000 section 13.4.2).
     */
    public static final int ECT_0 = 2;

    /**
     * Congestion Experienced: set by a queue on an ECN-capable packet instead of dropping it.
     */
    public static final int CE = 3;

    /**
     * The field's bits within the IP TOS / IPv6 traffic class byte.
     */
    public static final int MASK = 0x3;

    private static final String[] NAMES = {"not-ect", "ect1", "ect0", "ce"};

    private EcnCodepoint()
    {
    }

    /**
     * @param codepoint a codepoint (only its two low bits count).
     * @return true for ECT(0), ECT(1) and CE: a queue may mark the packet.
     */
    public static boolean isEcnCapable(final int codepoint)
    {
        return NOT_ECT != (codepoint & MASK);
    }

    /**
     * @param codepoint a codepoint (only its two low bits count).
     * @return its name as path specs and counters write it: {@code not-ect}, {@code ect1}, {@code ect0}, {@code ce}.
     */
    public static String name(final int codepoint)
    {
        return NAMES[codepoint & MASK];
    }

    /**
     * @param name {@code not-ect}, {@code ect0}, {@code ect1} or {@code ce} (any case).
     * @return the codepoint.
     * @throws IllegalArgumentException naming the accepted names.
     */
    public static int parse(final String name)
    {
        final String lower = name.toLowerCase(Locale.ROOT);
        for (int codepoint = 0; codepoint < NAMES.length; codepoint++)
        {
            if (NAMES[codepoint].equals(lower))
            {
                return codepoint;
            }
        }
        throw new IllegalArgumentException("\"" + name + "\" is not an ECN codepoint: not-ect, ect0, ect1 or ce");
    }
}
