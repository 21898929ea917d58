package io.pacelink.cli;

import io.pacelink.link.PathSpec;
import picocli.CommandLine.Option;

/**
 * The options every command that runs flows over an emulated path declares alike: the reverse direction, the
 * bottleneck's queue discipline and the seed of the path's random choices. A picocli mixin, so {@code demo} and
 * {@code sim} accept and document them identically; each command keeps its own {@code --path} and
 * {@code --duration}, whose defaults differ.
 */
final class PathRunOptions
{
    @Option(names = "--reverse-path", paramLabel = "SPEC", description = PathArguments.REVERSE_PATH_HELP)
    private String reversePath;

    @Option(names = "--qdisc", paramLabel = "fq|fifo|rr", description = SchedulerArgument.HELP)
    private String qdisc;

    @Option(names = "--seed", defaultValue = "1", description = "Seeds every random choice (default ${DEFAULT-VALUE}).")
    private long seed;

    /**
     * @param path the command's {@code --path} text, possibly {@code "FORWARD | REVERSE"}.
     * @return both directions of the path, the reverse one from {@code --reverse-path} if given.
     * @see PathArguments#pair(String, String)
     */
    PathSpec.Pair pair(final String path)
    {
        return PathArguments.pair(path, reversePath);
    }

    /**
     * @return the scheduler name {@code --qdisc} resolves to.
     * @see SchedulerArgument#resolve(String)
     */
    String scheduler()
    {
        return SchedulerArgument.resolve(qdisc);
    }

    /**
     * @return the {@code --seed} value.
     */
    long seed()
    {
        return seed;
    }
}
