package io.pacelink.report;

/**
 * Text made safe for HTML element content and attribute values.
 */
final class Html
{
    private Html()
    {
    }

    /**
     * @param text any text.
     * @return it with {@code & < > " '} escaped.
     */
    static String escape(final String text)
    {
        final StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
