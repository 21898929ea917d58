package io.pacelink.report;

/**
 * A figure measured elsewhere for the same scenario, shown next to ours in the summary table: typically the Linux
 * kernel's TCP with the same controller on the same emulated path.
 *
 * @param label           what was measured, e.g. {@code Linux 6.18 bbr (iperf3, 8 × 30 s)}.
 * @param congestionControl the controller the row compares with (rows sit under that controller's row).
 * @param goodputMbps     the median goodput in Mbit/s.
 * @param goodputMinMbps  the smallest run's goodput (NaN if not given).
 * @param goodputMaxMbps  the largest run's goodput (NaN if not given).
 * @param note            the other figures, as text (mean RTT, Jain index, ping percentiles...).
 * @param source          where the figures are documented, e.g. {@code docs/kernel-reference.md (S1)}.
 */
public record ReferenceRow(
    String label,
    String congestionControl,
    double goodputMbps,
    double goodputMinMbps,
    double goodputMaxMbps,
    String note,
    String source)
{
}
