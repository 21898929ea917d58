package io.pacelink.cli.transfer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How much the receiver may still write into a directory: the file store's usable space by default. A seam, so a
 * test without the rights to mount a small file system can stand in a quota.
 */
@FunctionalInterface
public interface DiskSpace
{
    /**
     * The file store's usable space ({@code statvfs} f_bavail: what an unprivileged process can still write).
     */
    DiskSpace FILE_STORE = (directory) -> Files.getFileStore(directory).getUsableSpace();

    /**
     * @param directory where a file is about to be written.
     * @return bytes that can still be written there.
     * @throws IOException if it cannot be found out.
     */
    long usableBytes(Path directory) throws IOException;
}
