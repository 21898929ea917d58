package io.pacelink.cli.transfer;

/**
 * What every session of one {@code pacelink receive} shares.
 *
 * @param paths      where files may go.
 * @param overwrite  existing files may be replaced ({@code --overwrite}).
 * @param resumeOnly only interrupted transfers are completed ({@code --resume-only}).
 * @param space      free space promised to accepted files.
 * @param leases     which session writes which file.
 */
public record ReceiveSettings(
    DestinationPaths paths,
    boolean overwrite,
    boolean resumeOnly,
    SpaceBudget space,
    FileLeases leases)
{
    /**
     * @return the WELCOME message's flags for these settings.
     */
    int welcomeFlags()
    {
        return (overwrite ? Messages.WELCOME_FLAG_OVERWRITE : 0) | (resumeOnly ? Messages.WELCOME_FLAG_RESUME_ONLY : 0);
    }
}
