package io.pacelink.report;

/**
 * One line of a scenario's summary table: a controller in a configuration, over the seeds.
 *
 * @param configuration        the configuration (the controller under test, or e.g. {@code bbr vs cubic}).
 * @param controller           the controller whose flows the figures are about.
 * @param runs                 seeds run.
 * @param throughputMbps       its flows' summed goodput.
 * @param p95RttMs             95th percentile RTT over its flows' samples.
 * @param p50RttMs             median RTT, mean over the runs.
 * @param retransmittedPercent retransmitted share of the bytes sent, mean over the runs.
 * @param utilisationPercent   the bottleneck's utilisation by all flows, mean over the runs (NaN without a rate).
 * @param jainIndex            Jain's index over all flows of the run, mean over the runs (NaN for one flow).
 * @param pingP50Ms            the ping probe's median RTT, mean over the runs (NaN without a probe).
 * @param pingP99Ms            its 99th percentile.
 * @param queueDropPercent     packets the bottleneck queue dropped, in per cent of the packets offered to it, mean over
 *                             the runs.
 * @param queueMarkPercent     packets it marked CE instead, in per cent of those offered, mean over the runs.
 */
public record SummaryRow(
    String configuration,
    String controller,
    int runs,
    Spread throughputMbps,
    Spread p95RttMs,
    double p50RttMs,
    double retransmittedPercent,
    double utilisationPercent,
    double jainIndex,
    double pingP50Ms,
    double pingP99Ms,
    double queueDropPercent,
    double queueMarkPercent)
{
}
