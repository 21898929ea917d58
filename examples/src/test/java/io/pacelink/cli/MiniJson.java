package io.pacelink.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict RFC 8259 parser for tests, so that the command line's JSON is checked by something other than the code
 * that wrote it: objects become {@link Map}s, arrays {@link List}s, numbers {@link Double}s. It rejects trailing
 * commas, unquoted names, bad escapes, control characters in strings, leading zeros and anything after the value.
 * (No JSON library is on the build's class path; a small parser avoids adding one for a test.)
 */
final class MiniJson
{
    private final String text;
    private int position;

    private MiniJson(final String text)
    {
        this.text = text;
    }

    /**
     * @param text one JSON document.
     * @return its value.
     * @throws IllegalArgumentException at the first violation, with its position.
     */
    static Object parse(final String text)
    {
        final MiniJson parser = new MiniJson(text);
        final Object value = parser.value();
        parser.skipWhitespace();
        if (parser.position != text.length())
        {
            throw parser.error("text after the value");
        }
        return value;
    }

    /**
     * @param value a parsed value.
     * @return it as a JSON object.
     * @throws IllegalArgumentException if it is not one.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> object(final Object value)
    {
        if (!(value instanceof Map))
        {
            throw new IllegalArgumentException("not an object: " + value);
        }
        return (Map<String, Object>)value;
    }

    /**
     * @param value a parsed value.
     * @return it as a JSON array.
     * @throws IllegalArgumentException if it is not one.
     */
    @SuppressWarnings("unchecked")
    static List<Object> list(final Object value)
    {
        if (!(value instanceof List))
        {
            throw new IllegalArgumentException("not an array: " + value);
        }
        return (List<Object>)value;
    }

    private Object value()
    {
        skipWhitespace();
        if (position >= text.length())
        {
            throw error("unexpected end");
        }
        final char c = text.charAt(position);
        return switch (c)
        {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object()
    {
        final Map<String, Object> members = new LinkedHashMap<>();
        position++;
        skipWhitespace();
        if (peek() == '}')
        {
            position++;
            return members;
        }
        while (true)
        {
            skipWhitespace();
            if (peek() != '"')
            {
                throw error("expected a quoted name");
            }
            final String name = string();
            skipWhitespace();
            expect(':');
            if (members.containsKey(name))
            {
                throw error("duplicate name " + name);
            }
            members.put(name, value());
            skipWhitespace();
            if (peek() == ',')
            {
                position++;
                continue;
            }
            expect('}');
            return members;
        }
    }

    private List<Object> array()
    {
        final List<Object> elements = new ArrayList<>();
        position++;
        skipWhitespace();
        if (peek() == ']')
        {
            position++;
            return elements;
        }
        while (true)
        {
            elements.add(value());
            skipWhitespace();
            if (peek() == ',')
            {
                position++;
                continue;
            }
            expect(']');
            return elements;
        }
    }

    private String string()
    {
        final StringBuilder result = new StringBuilder();
        position++;
        while (true)
        {
            if (position >= text.length())
            {
                throw error("unterminated string");
            }
            final char c = text.charAt(position++);
            if (c == '"')
            {
                return result.toString();
            }
            if (c < 0x20)
            {
                throw error("unescaped control character");
            }
            if (c != '\\')
            {
                result.append(c);
                continue;
            }
            final char escape = position < text.length() ? text.charAt(position++) : 0;
            switch (escape)
            {
                case '"', '\\', '/' -> result.append(escape);
                case 'b' -> result.append('\b');
                case 'f' -> result.append('\f');
                case 'n' -> result.append('\n');
                case 'r' -> result.append('\r');
                case 't' -> result.append('\t');
                case 'u' ->
                {
                    if (position + 4 > text.length())
                    {
                        throw error("short unicode escape");
                    }
                    result.append((char)Integer.parseInt(text.substring(position, position + 4), 16));
                    position += 4;
                }
                default -> throw error("bad escape");
            }
        }
    }

    private Double number()
    {
        final int start = position;
        if (peek() == '-')
        {
            position++;
        }
        if (peek() == '0')
        {
            position++;
        }
        else if (Character.isDigit(peek()))
        {
            digits();
        }
        else
        {
            throw error("expected a value");
        }
        if (peek() == '.')
        {
            position++;
            if (!Character.isDigit(peek()))
            {
                throw error("digits must follow the decimal point");
            }
            digits();
        }
        if (peek() == 'e' || peek() == 'E')
        {
            position++;
            if (peek() == '+' || peek() == '-')
            {
                position++;
            }
            if (!Character.isDigit(peek()))
            {
                throw error("digits must follow the exponent");
            }
            digits();
        }
        return Double.parseDouble(text.substring(start, position));
    }

    private void digits()
    {
        while (Character.isDigit(peek()))
        {
            position++;
        }
    }

    private Object literal(final String word, final Object value)
    {
        if (!text.startsWith(word, position))
        {
            throw error("expected " + word);
        }
        position += word.length();
        return value;
    }

    private void expect(final char c)
    {
        if (peek() != c)
        {
            throw error("expected '" + c + "'");
        }
        position++;
    }

    private char peek()
    {
        return position < text.length() ? text.charAt(position) : 0;
    }

    private void skipWhitespace()
    {
        while (position < text.length() && " \t\r\n".indexOf(text.charAt(position)) >= 0)
        {
            position++;
        }
    }

    private IllegalArgumentException error(final String problem)
    {
        return new IllegalArgumentException(problem + " at " + position + " in " + text);
    }
}
