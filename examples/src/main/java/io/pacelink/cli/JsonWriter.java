package io.pacelink.cli;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Writes one JSON document (RFC 8259) into a string, with just what the command line's {@code --json} outputs need:
 * objects, arrays, strings, numbers and null. Commas are placed by the writer; strings are escaped;
 * non-finite numbers, which JSON cannot express, become {@code null}. A small hand-written writer keeps the command
 * line free of a JSON library for a few dozen fields.
 */
final class JsonWriter
{
    private final StringBuilder json = new StringBuilder(1024);
    private boolean needsComma;

    /**
     * Open an object, as a value or as the whole document.
     *
     * @return this.
     */
    JsonWriter beginObject()
    {
        separate();
        json.append('{');
        needsComma = false;
        return this;
    }

    /**
     * Open an object as the value of a member.
     *
     * @param name the member's name.
     * @return this.
     */
    JsonWriter beginObject(final String name)
    {
        name(name);
        json.append('{');
        needsComma = false;
        return this;
    }

    /**
     * @return this, after closing the innermost object.
     */
    JsonWriter endObject()
    {
        json.append('}');
        needsComma = true;
        return this;
    }

    /**
     * Open an array as the value of a member.
     *
     * @param name the member's name.
     * @return this.
     */
    JsonWriter beginArray(final String name)
    {
        name(name);
        json.append('[');
        needsComma = false;
        return this;
    }

    /**
     * @return this, after closing the innermost array.
     */
    JsonWriter endArray()
    {
        json.append(']');
        needsComma = true;
        return this;
    }

    /**
     * @param name  the member's name.
     * @param value a string, or null.
     * @return this.
     */
    JsonWriter field(final String name, final String value)
    {
        name(name);
        if (null == value)
        {
            json.append("null");
        }
        else
        {
            string(value);
        }
        needsComma = true;
        return this;
    }

    /**
     * @param name  the member's name.
     * @param value a whole number.
     * @return this.
     */
    JsonWriter field(final String name, final long value)
    {
        name(name);
        json.append(value);
        needsComma = true;
        return this;
    }

    /**
     * @param name  the member's name.
     * @param value true or false.
     * @return this.
     */
    JsonWriter field(final String name, final boolean value)
    {
        name(name);
        json.append(value);
        needsComma = true;
        return this;
    }

    /**
     * @param name  the member's name.
     * @param value a number; NaN and infinities are written as null.
     * @return this.
     */
    JsonWriter field(final String name, final double value)
    {
        name(name);
        if (Double.isFinite(value))
        {
            // Up to 6 decimals without exponent or trailing zeros: plain and exact enough for rates and times.
            json.append(new BigDecimal(String.format(Locale.ROOT, "%.6f", value))
                .stripTrailingZeros().toPlainString());
        }
        else
        {
            json.append("null");
        }
        needsComma = true;
        return this;
    }

    /**
     * @return the document written so far.
     */
    public String toString()
    {
        return json.toString();
    }

    private void name(final String name)
    {
        separate();
        string(name);
        json.append(':');
    }

    private void separate()
    {
        if (needsComma)
        {
            json.append(',');
        }
    }

    /**
     * RFC 8259 section 7: quote, backslash and control characters must be escaped; everything else may appear as is.
     */
    private void string(final String value)
    {
        json.append('"');
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            switch (c)
            {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                case '\b' -> json.append("\\b");
                case '\f' -> json.append("\\f");
                default ->
                {
                    if (c < 0x20)
                    {
                        json.append(String.format(Locale.ROOT, "\\u%04x", (int)c));
                    }
                    else
                    {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
