package io.pacelink.cli;

import io.pacelink.link.PathSpec;
import io.pacelink.link.PathWarnings;

import java.io.PrintStream;

/**
 * Turns the command line's {@code --path} and {@code --reverse-path} into the two directions of an emulated path.
 * The forward direction carries the data (client to server); the reverse one the acknowledgements. Without
 * {@code --reverse-path} the reverse direction gets the forward one's delay and jitter only: acknowledgements see the
 * same propagation but neither its bottleneck nor its loss, as with netem on the sender's egress only.
 */
final class PathArguments
{
    /**
     * Help text on the spec's form, for {@code --path} options.
     */
    static final String SPEC_HELP = "\"FORWARD | REVERSE\" gives both directions. Keys: rate, trace, delay, " +
        "jitter, distribution, order, loss, gemodel, duplicate, corrupt, police, burst, queue, limit, qdisc, " +
        "quantum, flows, target, interval (see docs/simulation.md).";

    /**
     * Help text of {@code --path}.
     */
    static final String PATH_HELP = "Forward (data) direction in netem vocabulary, e.g. " +
        "\"rate=10mbit delay=20ms queue=1bdp\". " + SPEC_HELP;

    /**
     * Help text of {@code --reverse-path}.
     */
    static final String REVERSE_PATH_HELP = "Reverse (ACK) direction. Default: the forward direction's delay and " +
        "jitter only, without its rate, queue or loss.";

    private PathArguments()
    {
    }

    /**
     * @param path        the {@code --path} text, possibly {@code "FORWARD | REVERSE"}.
     * @param reversePath the {@code --reverse-path} text, or null.
     * @return both directions.
     * @throws io.pacelink.link.PathSpecException naming the problem and showing the accepted keys.
     * @throws IllegalArgumentException if the reverse direction is given twice.
     */
    static PathSpec.Pair pair(final String path, final String reversePath)
    {
        if (path.indexOf(PathSpec.Pair.SEPARATOR) >= 0)
        {
            if (null != reversePath)
            {
                throw new IllegalArgumentException("give the reverse direction either after '|' in --path or with " +
                    "--reverse-path, not both");
            }
            return PathSpec.Pair.parse(path);
        }
        final PathSpec forward = PathSpec.parse(path);
        return new PathSpec.Pair(forward, null == reversePath ? forward.delayAndJitterOnly() :
            PathSpec.parse(reversePath));
    }

    /**
     * Print the path's warnings ({@link PathWarnings}): settings netem accepts that leave a transfer with (almost)
     * nothing.
     *
     * @param err     where to print.
     * @param command the command's name, for the prefix.
     * @param pair    the path.
     */
    static void printWarnings(final PrintStream err, final String command, final PathSpec.Pair pair)
    {
        for (final String warning : PathWarnings.of(pair))
        {
            err.println("pacelink " + command + ": warning: " + warning);
        }
    }
}
