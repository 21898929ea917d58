package io.pacelink.transport.cc;

import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Named controller parameters (e.g. {@code cubic.beta=0.7}, {@code bbr.startupPacingGain=2.885}) with typed,
 * validating getters. A controller reads its parameters once at construction; a value that does not parse or is
 * out of range fails fast with a message naming the parameter, the value and the accepted range.
 */
public final class ControllerParameters
{
    /**
     * No parameters: every controller uses its defaults.
     */
    public static final ControllerParameters EMPTY = new ControllerParameters(Collections.emptyMap());

    private final Map<String, String> values;

    private ControllerParameters(final Map<String, String> values)
    {
        this.values = values;
    }

    /**
     * @param values parameter names to values.
     * @return parameters backed by a copy of the map.
     */
    public static ControllerParameters of(final Map<String, String> values)
    {
        return new ControllerParameters(Collections.unmodifiableMap(new TreeMap<>(values)));
    }

    /**
     * Parse {@code name=value} pairs separated by commas, e.g. {@code "cubic.beta=0.7,cubic.hystart=false"}.
     *
     * @param text the pairs; empty or null means none.
     * @return the parsed parameters.
     * @throws IllegalArgumentException naming the pair that is not {@code name=value}.
     */
    public static ControllerParameters parse(final String text)
    {
        if (null == text || text.isBlank())
        {
            return EMPTY;
        }

        final Map<String, String> values = new TreeMap<>();
        for (final String pair : text.split(","))
        {
            final int eq = pair.indexOf('=');
            if (eq <= 0 || eq == pair.length() - 1)
            {
                throw new IllegalArgumentException(
                    "controller parameter '" + pair.trim() + "' is not name=value (e.g. cubic.beta=0.7)");
            }
            values.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return of(values);
    }

    /**
     * @return the names of all parameters given.
     */
    public Set<String> names()
    {
        return values.keySet();
    }

    /**
     * @param name parameter name.
     * @return true if the parameter was given.
     */
    public boolean contains(final String name)
    {
        return values.containsKey(name);
    }

    /**
     * @param name         parameter name.
     * @param defaultValue value when absent.
     * @param min          smallest accepted value (inclusive).
     * @param max          largest accepted value (inclusive).
     * @return the value.
     * @throws IllegalArgumentException if the value is not a number or out of range.
     */
    public double getDouble(final String name, final double defaultValue, final double min, final double max)
    {
        final String text = values.get(name);
        if (null == text)
        {
            return defaultValue;
        }

        final double value;
        try
        {
            value = Double.parseDouble(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(
                "controller parameter " + name + "=" + text + " is not a number; expected " + min + ".." + max);
        }

        if (!(value >= min && value <= max))
        {
            throw new IllegalArgumentException(
                "controller parameter " + name + "=" + text + " is out of range; expected " + min + ".." + max);
        }
        return value;
    }

    /**
     * @param name         parameter name.
     * @param defaultValue value when absent.
     * @param min          smallest accepted value (inclusive).
     * @param max          largest accepted value (inclusive).
     * @return the value.
     * @throws IllegalArgumentException if the value is not an integer or out of range.
     */
    public long getLong(final String name, final long defaultValue, final long min, final long max)
    {
        final String text = values.get(name);
        if (null == text)
        {
            return defaultValue;
        }

        final long value;
        try
        {
            value = Long.parseLong(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(
                "controller parameter " + name + "=" + text + " is not an integer; expected " + min + ".." + max);
        }

        if (value < min || value > max)
        {
            throw new IllegalArgumentException(
                "controller parameter " + name + "=" + text + " is out of range; expected " + min + ".." + max);
        }
        return value;
    }

    /**
     * @param name         parameter name.
     * @param defaultValue value when absent.
     * @return the value.
     * @throws IllegalArgumentException if the value is neither {@code true} nor {@code false}.
     */
    public boolean getBoolean(final String name, final boolean defaultValue)
    {
        final String text = values.get(name);
        if (null == text)
        {
            return defaultValue;
        }
        if ("true".equalsIgnoreCase(text))
        {
            return true;
        }
        if ("false".equalsIgnoreCase(text))
        {
            return false;
        }
        throw new IllegalArgumentException(
            "controller parameter " + name + "=" + text + " is not a boolean; expected true or false");
    }

    /**
     * @param name         parameter name.
     * @param defaultValue value when absent.
     * @param choices      the accepted values, lower case.
     * @return the value, lower case: one of the choices.
     * @throws IllegalArgumentException if the value is none of the choices (compared ignoring case).
     */
    public String getChoice(final String name, final String defaultValue, final List<String> choices)
    {
        final String text = values.get(name);
        if (null == text)
        {
            return defaultValue;
        }
        final String value = text.toLowerCase(Locale.ROOT);
        if (!choices.contains(value))
        {
            throw new IllegalArgumentException(
                "controller parameter " + name + "=" + text + " is not one of " + String.join(", ", choices));
        }
        return value;
    }

    /**
     * Fail fast on parameters meant for a controller (same prefix) that it does not know: a typo must not be
     * silently ignored.
     *
     * @param prefix the controller's prefix including the dot, e.g. {@code "cubic."}.
     * @param known  the parameter names the controller reads.
     * @throws IllegalArgumentException naming the unknown parameter and listing the known ones.
     */
    public void rejectUnknown(final String prefix, final Set<String> known)
    {
        for (final String name : values.keySet())
        {
            if (name.startsWith(prefix) && !known.contains(name))
            {
                throw new IllegalArgumentException(
                    "unknown controller parameter " + name + "; known: " + new TreeMap<>(toMap(known)).keySet());
            }
        }
    }

    /**
     * {@link #rejectUnknown(String, Set)} for a controller that names its parameters without the prefix because it
     * runs under several names ({@code bbr.cwndGain}, {@code bbrplus.cwndGain}).
     *
     * @param prefix           the controller's prefix including the dot, e.g. {@code "bbrplus."}.
     * @param namesAfterPrefix the parameter names the controller reads, without the prefix.
     * @throws IllegalArgumentException naming the unknown parameter and listing the known ones.
     */
    public void rejectUnknownAfterPrefix(final String prefix, final Collection<String> namesAfterPrefix)
    {
        final Set<String> known = new HashSet<>();
        for (final String name : namesAfterPrefix)
        {
            known.add(prefix + name);
        }
        rejectUnknown(prefix, known);
    }

    private static Map<String, String> toMap(final Set<String> names)
    {
        final Map<String, String> map = new TreeMap<>();
        names.forEach((n) -> map.put(n, ""));
        return map;
    }

    public String toString()
    {
        return values.toString();
    }
}
