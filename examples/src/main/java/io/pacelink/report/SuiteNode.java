package io.pacelink.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.pacelink.cli.Duration;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A mapping of a suite file, read strictly: unknown keys and values of the wrong kind are errors that name the place
 * ({@code scenario "x": flows[1]: ...}), the key and what is accepted.
 */
final class SuiteNode
{
    private final JsonNode node;
    private final String where;

    private SuiteNode(final JsonNode node, final String where)
    {
        this.node = node;
        this.where = where;
    }

    /**
     * @param node          a mapping.
     * @param where         how errors name it.
     * @param acceptedKeys  the keys it may have.
     * @return the reader.
     * @throws IllegalArgumentException if it is not a mapping or has a key not accepted.
     */
    static SuiteNode of(final JsonNode node, final String where, final Set<String> acceptedKeys)
    {
        if (null == node || !node.isObject())
        {
            throw new IllegalArgumentException(where + ": expected a mapping of " + new TreeSet<>(acceptedKeys));
        }
        final Iterator<String> names = node.fieldNames();
        while (names.hasNext())
        {
            final String name = names.next();
            if (!acceptedKeys.contains(name))
            {
                throw new IllegalArgumentException(where + ": unknown key \"" + name + "\"; accepted keys: " +
                    String.join(", ", new TreeSet<>(acceptedKeys)));
            }
        }
        return new SuiteNode(node, where);
    }

    /**
     * @return how errors name this mapping.
     */
    String where()
    {
        return where;
    }

    /**
     * @param key a key.
     * @return true if the mapping has it.
     */
    boolean has(final String key)
    {
        return node.has(key) && !node.get(key).isNull();
    }

    /**
     * @param key a key.
     * @return its raw value, or null.
     */
    JsonNode raw(final String key)
    {
        return has(key) ? node.get(key) : null;
    }

    /**
     * @param key          a key.
     * @param defaultValue used when the key is absent.
     * @return its text.
     */
    String text(final String key, final String defaultValue)
    {
        if (!has(key))
        {
            return defaultValue;
        }
        final JsonNode value = node.get(key);
        if (!value.isValueNode())
        {
            throw error(key, "expected text, got " + value.getNodeType().name().toLowerCase());
        }
        return value.asText();
    }

    /**
     * @param key          a key.
     * @param defaultValue used when the key is absent.
     * @return its value: YAML's {@code true}/{@code false} (also {@code on}/{@code off} as text).
     */
    boolean flag(final String key, final boolean defaultValue)
    {
        if (!has(key))
        {
            return defaultValue;
        }
        final JsonNode value = node.get(key);
        if (value.isBoolean())
        {
            return value.booleanValue();
        }
        return switch (value.isTextual() ? value.asText() : "")
        {
            case "on", "true" -> true;
            case "off", "false" -> false;
            default -> throw error(key, "expected true or false (on or off), got " + value);
        };
    }

    /**
     * @param key a key that must be present.
     * @return its text.
     */
    String requiredText(final String key)
    {
        if (!has(key))
        {
            throw new IllegalArgumentException(where + ": \"" + key + "\" is missing");
        }
        return text(key, null);
    }

    /**
     * @param key          a key.
     * @param defaultValue used when the key is absent.
     * @param min          the smallest value accepted.
     * @param max          the largest value accepted.
     * @return its whole number.
     */
    int integer(final String key, final int defaultValue, final int min, final int max)
    {
        if (!has(key))
        {
            return defaultValue;
        }
        final JsonNode value = node.get(key);
        if (!value.canConvertToInt() || !value.isIntegralNumber() || value.asInt() < min || value.asInt() > max)
        {
            throw error(key, "expected a whole number from " + min + " to " + max + ", got " + value);
        }
        return value.asInt();
    }

    /**
     * @param key          a key.
     * @param defaultValue used when the key is absent.
     * @return its number.
     */
    double number(final String key, final double defaultValue)
    {
        if (!has(key))
        {
            return defaultValue;
        }
        final JsonNode value = node.get(key);
        if (!value.isNumber())
        {
            throw error(key, "expected a number, got " + value);
        }
        return value.asDouble();
    }

    /**
     * @param key       a key.
     * @param defaultNs used when the key is absent.
     * @return its duration in ns (a number with a unit: 30s, 500ms).
     */
    long durationNs(final String key, final long defaultNs)
    {
        if (!has(key))
        {
            return defaultNs;
        }
        final String text = text(key, null);
        final long nanos;
        try
        {
            nanos = Duration.parse(text).nanos();
        }
        catch (final IllegalArgumentException ex)
        {
            throw error(key, ex.getMessage());
        }
        if (nanos < 0)
        {
            throw error(key, "\"" + text + "\" is negative");
        }
        return nanos;
    }

    /**
     * @param key a key.
     * @return its list of texts (a single text counts as a list of one), empty if absent.
     */
    List<String> texts(final String key)
    {
        final List<String> texts = new ArrayList<>();
        if (!has(key))
        {
            return texts;
        }
        final JsonNode value = node.get(key);
        if (value.isArray())
        {
            for (final JsonNode element : value)
            {
                if (!element.isValueNode())
                {
                    throw error(key, "expected a list of names, got " + value);
                }
                texts.add(element.asText());
            }
        }
        else if (value.isValueNode())
        {
            texts.add(value.asText());
        }
        else
        {
            throw error(key, "expected a list of names, got " + value);
        }
        return texts;
    }

    /**
     * @param key a key.
     * @return its list of elements, empty if absent.
     */
    List<JsonNode> list(final String key)
    {
        final List<JsonNode> elements = new ArrayList<>();
        if (!has(key))
        {
            return elements;
        }
        final JsonNode value = node.get(key);
        if (!value.isArray())
        {
            throw error(key, "expected a list");
        }
        value.forEach(elements::add);
        return elements;
    }

    /**
     * @param key     the key at fault.
     * @param problem what is wrong with its value.
     * @return an exception naming the place, the key and the problem.
     */
    IllegalArgumentException error(final String key, final String problem)
    {
        return new IllegalArgumentException(where + ": " + key + ": " + problem);
    }
}
