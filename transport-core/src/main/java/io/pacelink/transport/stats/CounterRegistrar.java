package io.pacelink.transport.stats;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.nio.charset.StandardCharsets;

/**
 * Registers the counters of one owner (a connection) with {@link CounterKey}'s key layout and the label
 * {@code PREFIX: NAME} (UTF-8, as Agrona's {@link CountersManager} encodes a label), building both in buffers of its
 * own: the owner id and the label's prefix are written once, and each counter only copies its name's bytes. A
 * connection registers about 50 counters when it opens, on the agent thread, and a String concatenated and encoded
 * for every one of them was a large part of a connect's cost (perf/FINDINGS.md, "Scale round 4"). Keys and labels
 * are byte for byte what {@link CounterKey#newCounter} writes. Agent thread only.
 */
final class CounterRegistrar
{
    private static final byte[] SEPARATOR = ": ".getBytes(StandardCharsets.US_ASCII);

    private final CountersManager countersManager;
    // Array buffers, not UnsafeBuffers over a byte[]: Agrona's strict alignment checks (the tests switch them on) warn
    // about every UnsafeBuffer wrapping an array, and nothing here needs atomic access.
    private final ExpandableArrayBuffer key = new ExpandableArrayBuffer(CountersReader.MAX_KEY_LENGTH);
    private final ExpandableArrayBuffer label;
    private final int prefixLength;

    /**
     * @param countersManager where to register the counters.
     * @param ownerId         the id every counter's key carries.
     * @param labelPrefix     what every label starts with, before {@code ": NAME"}.
     */
    CounterRegistrar(final CountersManager countersManager, final long ownerId, final String labelPrefix)
    {
        this.countersManager = countersManager;
        key.putLong(CounterKey.OWNER_ID_OFFSET, ownerId);
        final byte[] prefix = labelPrefix.getBytes(StandardCharsets.UTF_8);
        final int prefixBytes = Math.min(prefix.length + SEPARATOR.length, CountersReader.MAX_LABEL_LENGTH);
        label = new ExpandableArrayBuffer(
            Math.min(CountersReader.MAX_LABEL_LENGTH, prefixBytes + 4 * CounterKey.MAX_NAME_LENGTH));
        label.putBytes(0, prefix, 0, Math.min(prefix.length, prefixBytes));
        if (prefixBytes > prefix.length)
        {
            label.putBytes(prefix.length, SEPARATOR, 0, prefixBytes - prefix.length);
        }
        prefixLength = prefixBytes;
    }

    /**
     * Register a counter.
     *
     * @param typeId one of {@link CounterType}.
     * @param name   its name with its unit, at most {@link CounterKey#MAX_NAME_LENGTH} characters: ASCII in the key
     *               (anything else becomes {@code ?}, as Agrona writes an ASCII string), UTF-8 in the label.
     * @return the counter.
     * @throws IllegalArgumentException if the name is too long.
     */
    AtomicCounter allocate(final int typeId, final String name)
    {
        if (name.length() > CounterKey.MAX_NAME_LENGTH)
        {
            throw new IllegalArgumentException("counter name '" + name + "' is longer than " +
                CounterKey.MAX_NAME_LENGTH + " characters");
        }
        return allocate(typeId, name.getBytes(StandardCharsets.US_ASCII), name.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Register a counter whose name's bytes are ready.
     *
     * @param typeId    one of {@link CounterType}.
     * @param keyName   the name's ASCII bytes, for the key.
     * @param labelName the name's UTF-8 bytes, for the label.
     * @return the counter.
     * @throws IllegalArgumentException if the name is longer than {@link CounterKey#MAX_NAME_LENGTH}.
     */
    AtomicCounter allocate(final int typeId, final byte[] keyName, final byte[] labelName)
    {
        if (keyName.length > CounterKey.MAX_NAME_LENGTH)
        {
            throw new IllegalArgumentException("counter name '" + new String(labelName, StandardCharsets.UTF_8) +
                "' is longer than " + CounterKey.MAX_NAME_LENGTH + " characters");
        }
        key.putInt(CounterKey.NAME_OFFSET, keyName.length);
        key.putBytes(CounterKey.NAME_OFFSET + Integer.BYTES, keyName);
        final int labelLength = Math.min(label.capacity(), prefixLength + labelName.length);
        label.putBytes(prefixLength, labelName, 0, labelLength - prefixLength);
        final int id = countersManager.allocate(
            typeId, key, 0, CounterKey.NAME_OFFSET + Integer.BYTES + keyName.length, label, 0, labelLength);
        return new AtomicCounter(countersManager.valuesBuffer(), id, countersManager);
    }
}
