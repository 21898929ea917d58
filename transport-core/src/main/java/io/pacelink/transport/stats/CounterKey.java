package io.pacelink.transport.stats;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * The key every Pacelink counter carries, so a reader in another process ({@code pacelink stat}) can group and name
 * counters without parsing labels: the id of what owns it (the local connection id for per-connection counters, 0
 * for endpoint-wide ones) and the counter's short name with its unit, e.g. {@code cwnd-bytes}. The label stays free
 * text for people.
 * <pre>
 *   0                   8              12
 *   +-------------------+--------------+------------------------+
 *   | owner id (long)   | name length  | name (ASCII, &lt;= 100 B) |
 *   +-------------------+--------------+------------------------+
 * </pre>
 */
public final class CounterKey
{
    public static final int OWNER_ID_OFFSET = 0;
    public static final int NAME_OFFSET = OWNER_ID_OFFSET + SIZE_OF_LONG;

    /**
     * Longest name that fits in Agrona's 112-byte key.
     */
    public static final int MAX_NAME_LENGTH = CountersReader.MAX_KEY_LENGTH - NAME_OFFSET - SIZE_OF_INT;

    private CounterKey()
    {
    }

    /**
     * Register a counter with this key layout.
     *
     * @param countersManager where.
     * @param typeId          one of {@link CounterType}.
     * @param ownerId         the connection id, or 0.
     * @param name            short name with unit, at most {@link #MAX_NAME_LENGTH} ASCII characters.
     * @param label           text for people.
     * @return the counter.
     * @throws IllegalArgumentException if the name is too long.
     */
    public static AtomicCounter newCounter(
        final CountersManager countersManager,
        final int typeId,
        final long ownerId,
        final String name,
        final String label)
    {
        if (name.length() > MAX_NAME_LENGTH)
        {
            throw new IllegalArgumentException("counter name '" + name + "' is longer than " + MAX_NAME_LENGTH +
                " characters");
        }
        final int id = countersManager.allocate(label, typeId, (keyBuffer) ->
        {
            keyBuffer.putLong(OWNER_ID_OFFSET, ownerId);
            keyBuffer.putStringAscii(NAME_OFFSET, name);
        });
        return new AtomicCounter(countersManager.valuesBuffer(), id, countersManager);
    }

    /**
     * @param keyBuffer a counter's key.
     * @return the owner id.
     */
    public static long ownerId(final DirectBuffer keyBuffer)
    {
        return keyBuffer.getLong(OWNER_ID_OFFSET);
    }

    /**
     * @param keyBuffer a counter's key.
     * @return the counter's name, or the empty string for a key of another layout.
     */
    public static String name(final DirectBuffer keyBuffer)
    {
        final int length = keyBuffer.getInt(NAME_OFFSET);
        if (length <= 0 || length > MAX_NAME_LENGTH)
        {
            return "";
        }
        return keyBuffer.getStringAscii(NAME_OFFSET);
    }
}
