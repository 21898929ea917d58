package io.pacelink.link;

/**
 * A path spec that does not parse: the message says which part is wrong, why, and lists the accepted form.
 */
public final class PathSpecException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    private final String problem;

    /**
     * @param spec    the whole spec text.
     * @param problem what is wrong, e.g. {@code delay: "75" has no unit; expected ...}.
     */
    public PathSpecException(final String spec, final String problem)
    {
        super("invalid path spec \"" + spec.trim() + "\": " + problem + System.lineSeparator() +
            "accepted keys:" + System.lineSeparator() + PathSpec.ACCEPTED_FORM);
        this.problem = problem;
    }

    /**
     * @return just what is wrong, without the spec and the accepted form.
     */
    public String problem()
    {
        return problem;
    }
}
