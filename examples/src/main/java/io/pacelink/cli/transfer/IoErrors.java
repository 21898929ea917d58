package io.pacelink.cli.transfer;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/**
 * I/O errors in words: NIO's file exceptions often carry only a path as their message.
 */
public final class IoErrors
{
    private IoErrors()
    {
    }

    /**
     * @param ex an I/O error.
     * @return e.g. {@code permission denied (/data/x)}, {@code No space left on device}.
     */
    public static String describe(final IOException ex)
    {
        if (ex instanceof AccessDeniedException denied)
        {
            return "permission denied (" + denied.getFile() + ")";
        }
        if (ex instanceof NoSuchFileException missing)
        {
            return "no such file or directory (" + missing.getFile() + ")";
        }
        if (ex instanceof FileSystemException failed && null != failed.getReason())
        {
            return failed.getReason() + " (" + failed.getFile() + ")";
        }
        return null == ex.getMessage() ? ex.getClass().getSimpleName() : ex.getMessage();
    }
}
