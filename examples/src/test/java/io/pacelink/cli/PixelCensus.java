package io.pacelink.cli;

import java.awt.Color;
import java.awt.image.BufferedImage;

/**
 * What a screenshot shows, counted: how much of it is not white, how much is dark (text), and how many pixels are
 * close to a given colour (a chart's series).
 *
 * @param image      the screenshot.
 * @param pixels     pixels in all.
 * @param nonWhite   pixels visibly darker than white.
 * @param darkPixels pixels darker than mid-grey.
 */
record PixelCensus(BufferedImage image, long pixels, long nonWhite, long darkPixels)
{
    private static final int WHITE_THRESHOLD = 245;
    private static final int DARK_THRESHOLD = 100;
    private static final int COLOR_TOLERANCE = 40;

    /**
     * @param image a screenshot.
     * @return its census.
     */
    static PixelCensus of(final BufferedImage image)
    {
        long nonWhite = 0;
        long dark = 0;
        for (int y = 0; y < image.getHeight(); y++)
        {
            for (int x = 0; x < image.getWidth(); x++)
            {
                final int rgb = image.getRGB(x, y);
                final int r = (rgb >> 16) & 0xFF;
                final int g = (rgb >> 8) & 0xFF;
                final int b = rgb & 0xFF;
                if (r < WHITE_THRESHOLD || g < WHITE_THRESHOLD || b < WHITE_THRESHOLD)
                {
                    nonWhite++;
                }
                if (r < DARK_THRESHOLD && g < DARK_THRESHOLD && b < DARK_THRESHOLD)
                {
                    dark++;
                }
            }
        }
        return new PixelCensus(image, (long)image.getWidth() * image.getHeight(), nonWhite, dark);
    }

    /**
     * @return the share of pixels that are not white.
     */
    double nonWhiteShare()
    {
        return (double)nonWhite / pixels;
    }

    /**
     * @param color a colour.
     * @return pixels within a small distance of it in every channel.
     */
    long near(final Color color)
    {
        long count = 0;
        for (int y = 0; y < image.getHeight(); y++)
        {
            for (int x = 0; x < image.getWidth(); x++)
            {
                final int rgb = image.getRGB(x, y);
                if (Math.abs(((rgb >> 16) & 0xFF) - color.getRed()) < COLOR_TOLERANCE &&
                    Math.abs(((rgb >> 8) & 0xFF) - color.getGreen()) < COLOR_TOLERANCE &&
                    Math.abs((rgb & 0xFF) - color.getBlue()) < COLOR_TOLERANCE)
                {
                    count++;
                }
            }
        }
        return count;
    }

    /**
     * @return the counts, for failure messages.
     */
    public String toString()
    {
        return "PixelCensus[" + pixels + " pixels, " + nonWhite + " not white, " + darkPixels + " dark]";
    }
}
