/**
 * What a simulation measured: per-flow goodput series, totals and RTT summaries ({@link
 * io.pacelink.sim.results.FlowResults}), bottleneck utilisation and queueing delay ({@link
 * io.pacelink.sim.results.LinkReport}), Jain's fairness index ({@link io.pacelink.sim.results.Fairness}), and
 * per-connection traces as CSV and JSON lines ({@link io.pacelink.sim.results.TraceWriter}).
 */
package io.pacelink.sim.results;
