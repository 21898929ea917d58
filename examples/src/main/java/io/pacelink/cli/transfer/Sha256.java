package io.pacelink.cli.transfer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 (FIPS 180-4), which every Java runtime provides ({@link java.security.MessageDigest} "SHA-256", with the
 * SHA extensions' intrinsic where the CPU has them).
 */
public final class Sha256
{
    private Sha256()
    {
    }

    /**
     * @return a new digest.
     */
    public static MessageDigest newDigest()
    {
        try
        {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("this Java runtime has no SHA-256", ex);
        }
    }

    /**
     * @param digest a digest part way through a file.
     * @return the hash of what it has seen so far; the digest itself goes on unchanged.
     */
    public static byte[] hashSoFar(final MessageDigest digest)
    {
        try
        {
            return ((MessageDigest)digest.clone()).digest();
        }
        catch (final CloneNotSupportedException ex)
        {
            throw new IllegalStateException("the SHA-256 digest cannot be cloned", ex);
        }
    }

    /**
     * Feed a file's first bytes to a digest.
     *
     * @param digest  the digest.
     * @param channel the file.
     * @param length  how many bytes from its start.
     * @param buffer  a buffer to read through.
     * @return false if the file is shorter than that (the digest then holds what there was).
     * @throws IOException if the file cannot be read.
     */
    public static boolean update(
        final MessageDigest digest, final FileChannel channel, final long length, final ByteBuffer buffer)
        throws IOException
    {
        long position = 0;
        while (position < length)
        {
            buffer.clear().limit((int)Math.min(buffer.capacity(), length - position));
            final int read = channel.read(buffer, position);
            if (read < 0)
            {
                return false;
            }
            digest.update(buffer.flip());
            position += read;
        }
        return true;
    }

    /**
     * @param hash a hash.
     * @return lower-case hex, as {@code sha256sum} prints it.
     */
    public static String hex(final byte[] hash)
    {
        return HexFormat.of().formatHex(hash);
    }
}
