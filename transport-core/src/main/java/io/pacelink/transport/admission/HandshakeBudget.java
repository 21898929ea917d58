package io.pacelink.transport.admission;

import org.agrona.collections.Hashing;
import org.agrona.collections.Long2LongHashMap;

import java.net.InetAddress;
import java.util.Arrays;

/**
 * The server's handshakes that their clients have not confirmed yet, held apart from its established connections
 * (docs/security.md, "Admission"): at most a fixed number in all and a smaller number per source address, in the
 * order they began. When a new handshake would pass either cap, the oldest one of its source — or, with the whole
 * budget full, the oldest one of the sources holding the most — is named to make room, so half-open handshakes (a
 * client that never confirms, about 4 KB/s from one host) can delay nobody: a new client always gets a slot, and
 * loses it only to a flood from more addresses than the budget holds handshakes, and only if it takes longer to
 * confirm than that flood takes to fill the budget. The idea is TCP's SYN queue drop of the oldest embryonic
 * connection (RFC 4987 section 3.4, "Recycling the oldest half-open TCB"), taken from the sources that hold the most.
 * Its pressure, which turns address validation on, is counted per source too ({@link #isSourceOverShare},
 * {@link #isUnderPressure}): one host is its own pressure.
 * <p>
 * Slots are a doubly linked list over fixed arrays, oldest first; sources are counted in a fixed table of hash
 * buckets with a secret seed, as in {@link SourceRateLimiter} (two sources sharing a bucket share its cap). Nothing is
 * allocated once built. Agent thread only.
 */
public final class HandshakeBudget
{
    /**
     * {@link #victim}: nothing needs to make room.
     */
    public static final long NONE = 0;

    private static final int NIL = -1;
    private static final int SOURCE_BUCKETS = 4096;

    private final long[] ids;
    private final int[] sourceBuckets;
    private final int[] previous;
    private final int[] next;
    private final int[] countBySource = new int[SOURCE_BUCKETS];
    private final Long2LongHashMap slotById = new Long2LongHashMap(NIL);
    private final long seed;
    private final int maxPerSource;
    private final int sourceShare;
    private int heldBeyondShares;
    private int oldest = NIL;
    private int newest = NIL;
    private int free;
    private int size;

    /**
     * @param maxHandshakes unconfirmed handshakes held at once, at least 1.
     * @param maxPerSource  held at once from one source address, 1..maxHandshakes.
     * @param seed          secret seed of the source hash.
     */
    public HandshakeBudget(final int maxHandshakes, final int maxPerSource, final long seed)
    {
        if (maxHandshakes < 1 || maxPerSource < 1 || maxPerSource > maxHandshakes)
        {
            throw new IllegalArgumentException("maxHandshakes=" + maxHandshakes + " (at least 1), maxPerSource=" +
                maxPerSource + " (1..maxHandshakes)");
        }
        ids = new long[maxHandshakes];
        sourceBuckets = new int[maxHandshakes];
        previous = new int[maxHandshakes];
        next = new int[maxHandshakes];
        for (int i = 0; i < maxHandshakes; i++)
        {
            next[i] = i + 1 < maxHandshakes ? i + 1 : NIL;
        }
        Arrays.fill(previous, NIL);
        free = 0;
        this.maxPerSource = maxPerSource;
        this.sourceShare = (maxPerSource + 1) / 2;
        this.seed = seed;
    }

    /**
     * @return unconfirmed handshakes held now.
     */
    public int size()
    {
        return size;
    }

    /**
     * @return the most held at once.
     */
    public int capacity()
    {
        return ids.length;
    }

    /**
     * Whether the budget is under pressure from many sources: the handshakes held within their sources' shares (half
     * a source's cap, {@link #isSourceOverShare}) fill half the budget or more — reason enough to validate every
     * address before holding more ({@link io.pacelink.transport.RetryMode#AUTO}). What a source holds beyond its
     * share is left out: one busy or hostile host (it may hold its whole cap, half the budget) is that host's own
     * pressure and turns the RETRY on for that host only, so the other clients' first connects keep their single
     * round trip. A flood from many addresses (spoofed ones hold one handshake each) fills the budget within shares
     * and still turns it on for everyone.
     *
     * @return true when the handshakes held within their sources' shares fill half the budget or more.
     */
    public boolean isUnderPressure()
    {
        return 2 * (size - heldBeyondShares) >= ids.length;
    }

    /**
     * @param source a source address.
     * @return true if the source holds its share of the budget or more — half its cap, rounded up — so that
     * {@link io.pacelink.transport.RetryMode#AUTO} validates its address before holding another of its handshakes.
     */
    public boolean isSourceOverShare(final InetAddress source)
    {
        return countBySource[bucket(source)] >= sourceShare;
    }

    /**
     * Which handshake must go before a new one from this source is held: its source's oldest when the source has
     * its cap, else, when the budget is full, the oldest of the sources holding the most. Taking the oldest of all
     * instead let an attacker from a few addresses (each under its cap, together over the budget) evict a client
     * that holds one handshake: with 500 Diffie-Hellman handshakes a second it had half a second to confirm, and
     * under that flood its confirmation waited longer in the server's socket (perf/scripts/flood.sh). Now such a
     * client loses its slot only to a flood from more sources than the budget holds handshakes.
     *
     * @param source the new handshake's source address.
     * @return that handshake's id, or {@link #NONE} if there is room.
     */
    public long victim(final InetAddress source)
    {
        final int bucket = bucket(source);
        if (countBySource[bucket] >= maxPerSource)
        {
            return oldestOf(bucket);
        }
        if (size < ids.length)
        {
            return NONE;
        }
        int mostHeld = 0;
        int busiestBucket = sourceBuckets[oldest];
        for (int slot = oldest; NIL != slot; slot = next[slot])
        {
            final int held = countBySource[sourceBuckets[slot]];
            if (held > mostHeld)
            {
                mostHeld = held;
                busiestBucket = sourceBuckets[slot];
            }
        }
        return oldestOf(busiestBucket);
    }

    private long oldestOf(final int bucket)
    {
        for (int slot = oldest; NIL != slot; slot = next[slot])
        {
            if (sourceBuckets[slot] == bucket)
            {
                return ids[slot];
            }
        }
        return NONE;
    }

    /**
     * Hold a new handshake; call {@link #victim} first and remove the one it names.
     *
     * @param id     the server connection's id, not {@link #NONE}.
     * @param source its client's address.
     * @throws IllegalStateException if there is no room.
     */
    public void add(final long id, final InetAddress source)
    {
        if (NIL == free)
        {
            throw new IllegalStateException("handshake budget full: remove the victim first");
        }
        final int slot = free;
        free = next[slot];
        final int bucket = bucket(source);
        ids[slot] = id;
        sourceBuckets[slot] = bucket;
        previous[slot] = newest;
        next[slot] = NIL;
        if (NIL == newest)
        {
            oldest = slot;
        }
        else
        {
            next[newest] = slot;
        }
        newest = slot;
        if (++countBySource[bucket] > sourceShare)
        {
            heldBeyondShares++;
        }
        slotById.put(id, slot);
        size++;
    }

    /**
     * A handshake was confirmed, or its connection closed: its slot is free. An id not held is ignored.
     *
     * @param id the server connection's id.
     */
    public void remove(final long id)
    {
        final int slot = (int)slotById.remove(id);
        if (NIL == slot)
        {
            return;
        }
        final int before = previous[slot];
        final int after = next[slot];
        if (NIL == before)
        {
            oldest = after;
        }
        else
        {
            next[before] = after;
        }
        if (NIL == after)
        {
            newest = before;
        }
        else
        {
            previous[after] = before;
        }
        if (countBySource[sourceBuckets[slot]]-- > sourceShare)
        {
            heldBeyondShares--;
        }
        previous[slot] = NIL;
        next[slot] = free;
        free = slot;
        size--;
    }

    private int bucket(final InetAddress source)
    {
        return Hashing.hash(source.hashCode() ^ seed, SOURCE_BUCKETS - 1);
    }
}
