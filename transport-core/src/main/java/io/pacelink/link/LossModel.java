package io.pacelink.link;

/**
 * Random loss on a link direction, decided per packet as it arrives (like netem, before the bottleneck queue).
 * Bernoulli loss drops each packet independently; Gilbert-Elliott is a two-state Markov chain (netem {@code loss
 * gemodel p r 1-h 1-k}, Linux {@code sch_netem.c loss_gilb_ell}): in the good state a packet is lost with
 * probability {@code 1-k}, in the bad state with {@code 1-h}; per packet the chain moves good to bad with
 * probability {@code p} and bad to good with {@code r}, and the loss draw uses the state the packet found. With
 * {@code 1-h = 100%} and {@code 1-k = 0%} loss bursts last {@code 1/r} packets on average and the mean loss rate
 * is {@code p / (p + r)}.
 *
 * @param kind          which model.
 * @param goodToBad     p: probability per packet of moving from the good to the bad state.
 * @param badToGood     r: probability per packet of moving from the bad to the good state.
 * @param lossInBad     1-h: loss probability in the bad state.
 * @param lossInGood    1-k: loss probability in the good state; the loss probability of the Bernoulli model.
 */
public record LossModel(Kind kind, double goodToBad, double badToGood, double lossInBad, double lossInGood)
{
    /**
     * No random loss.
     */
    public static final LossModel NONE = new LossModel(Kind.NONE, 0, 1, 0, 0);

    /**
     * The loss models.
     */
    public enum Kind
    {
        /**
         * No random loss.
         */
        NONE,
        /**
         * Independent loss with a fixed probability ({@code loss=}).
         */
        BERNOULLI,
        /**
         * Two-state Gilbert-Elliott ({@code gemodel=}).
         */
        GILBERT_ELLIOTT
    }

    /**
     * @param kind        which model.
     * @param goodToBad   p.
     * @param badToGood   r.
     * @param lossInBad   1-h.
     * @param lossInGood  1-k.
     */
    public LossModel
    {
        checkProbability(goodToBad, "p");
        checkProbability(badToGood, "r");
        checkProbability(lossInBad, "1-h");
        checkProbability(lossInGood, "1-k");
    }

    /**
     * @param probability loss probability per packet.
     * @return the Bernoulli model, or {@link #NONE} for zero.
     */
    public static LossModel bernoulli(final double probability)
    {
        return probability == 0 ? NONE : new LossModel(Kind.BERNOULLI, 0, 1, 0, probability);
    }

    /**
     * @param goodToBad p.
     * @param badToGood r.
     * @param lossInBad 1-h.
     * @param lossInGood 1-k.
     * @return the Gilbert-Elliott model.
     */
    public static LossModel gilbertElliott(
        final double goodToBad, final double badToGood, final double lossInBad, final double lossInGood)
    {
        return new LossModel(Kind.GILBERT_ELLIOTT, goodToBad, badToGood, lossInBad, lossInGood);
    }

    /**
     * @return the long-run fraction of packets lost.
     */
    public double meanLossRate()
    {
        return switch (kind)
        {
            case NONE -> 0;
            case BERNOULLI -> lossInGood;
            case GILBERT_ELLIOTT ->
            {
                final double transitions = goodToBad + badToGood;
                final double badShare = transitions == 0 ? 0 : goodToBad / transitions;
                yield badShare * lossInBad + (1 - badShare) * lossInGood;
            }
        };
    }

    /**
     * @return this model in path-spec form ({@code loss=8%}, {@code gemodel=1%,10%,100%,0%}), empty for none.
     */
    public String toSpec()
    {
        return switch (kind)
        {
            case NONE -> "";
            case BERNOULLI -> "loss=" + SpecUnits.formatPercent(lossInGood);
            case GILBERT_ELLIOTT -> "gemodel=" + SpecUnits.formatPercent(goodToBad) + "," +
                SpecUnits.formatPercent(badToGood) + "," + SpecUnits.formatPercent(lossInBad) + "," +
                SpecUnits.formatPercent(lossInGood);
        };
    }

    private static void checkProbability(final double value, final String name)
    {
        if (!(value >= 0 && value <= 1))
        {
            throw new IllegalArgumentException(name + " must be a probability in [0, 1], got " + value);
        }
    }
}
