package io.pacelink.cli.transfer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * One file or directory to send.
 *
 * @param relativePath where it arrives under the receiver's directory, '/' separated.
 * @param source       where it is read from.
 * @param kind         {@link Messages#KIND_FILE} or {@link Messages#KIND_DIRECTORY}.
 * @param size         bytes (0 for a directory).
 * @param mode         permission bits ({@code 0755}), or {@link Messages#UNKNOWN_MODE}.
 * @param mtimeNs      last modification, ns since the epoch, or {@link Messages#UNKNOWN_MTIME}.
 */
public record SourceEntry(String relativePath, Path source, byte kind, long size, int mode, long mtimeNs)
{
    /**
     * @return whether it is a directory.
     */
    public boolean isDirectory()
    {
        return Messages.KIND_DIRECTORY == kind;
    }

    /**
     * @return the relative path's UTF-8 bytes, as the ENTRY message carries them.
     */
    public byte[] pathUtf8()
    {
        return relativePath.getBytes(StandardCharsets.UTF_8);
    }
}
