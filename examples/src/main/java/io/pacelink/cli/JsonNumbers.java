package io.pacelink.cli;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;

/**
 * Numbers in the command line's JSON output: six decimals at most (microseconds for seconds, far below a bit for
 * rates), and null for NaN and infinities, which JSON cannot express.
 */
public final class JsonNumbers
{
    private JsonNumbers()
    {
    }

    /**
     * @param json  the generator, inside an object.
     * @param name  the member's name.
     * @param value the number.
     * @throws IOException if writing fails.
     */
    public static void field(final JsonGenerator json, final String name, final double value) throws IOException
    {
        json.writeFieldName(name);
        if (Double.isFinite(value))
        {
            json.writeNumber(round(value));
        }
        else
        {
            json.writeNull();
        }
    }

    /**
     * @param value a finite number.
     * @return it rounded to six decimals.
     */
    static double round(final double value)
    {
        return Math.abs(value) < 1e12 ? Math.round(value * 1e6) / 1e6 : value;
    }
}
