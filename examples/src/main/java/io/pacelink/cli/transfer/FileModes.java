package io.pacelink.cli.transfer;

import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/**
 * POSIX permission bits ({@code 0644}) as the protocol carries them, to and from NIO's permission sets. Only the
 * nine read/write/execute bits travel: set-uid, set-gid and sticky bits are never applied from a peer.
 */
final class FileModes
{
    private static final PosixFilePermission[] PERMISSIONS = PosixFilePermission.values();

    private FileModes()
    {
    }

    /**
     * @param permissions a file's permissions.
     * @return the bits, e.g. {@code 0644}.
     */
    static int toMode(final Set<PosixFilePermission> permissions)
    {
        int mode = 0;
        for (final PosixFilePermission permission : permissions)
        {
            // OWNER_READ is the first constant and bit 8 (0400), OTHERS_EXECUTE the last and bit 0 (0001).
            mode |= 1 << (PERMISSIONS.length - 1 - permission.ordinal());
        }
        return mode;
    }

    /**
     * @param mode bits, e.g. {@code 0644}; bits above {@code 0777} are ignored.
     * @return the permissions.
     */
    static Set<PosixFilePermission> toPermissions(final int mode)
    {
        final Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        for (final PosixFilePermission permission : PERMISSIONS)
        {
            if (0 != (mode & (1 << (PERMISSIONS.length - 1 - permission.ordinal()))))
            {
                permissions.add(permission);
            }
        }
        return permissions;
    }
}
