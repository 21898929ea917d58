/**
 * Loss recovery for one connection (docs/architecture.md): which packets were sent and what they carried
 * ({@link io.pacelink.transport.recovery.SentPacketRing}), the RTT estimator of RFC 9002 section 5
 * ({@link io.pacelink.transport.recovery.RttEstimator}), delivery-rate sampling after Linux {@code tcp_rate.c}
 * ({@link io.pacelink.transport.recovery.RateSampler}), loss detection, probe timeouts and persistent congestion of
 * RFC 9002 sections 6 and 7.6 with a RACK-style adaptive reordering window of RFC 8985
 * ({@link io.pacelink.transport.recovery.LossDetector}), and the orchestrator the endpoint engine calls
 * ({@link io.pacelink.transport.recovery.LossRecovery}), which drives the congestion controller through the SPI of
 * {@code io.pacelink.transport.cc}.
 * <p>
 * Sans-IO and garbage-free: time is always a {@code nowNs} parameter, all storage is allocated at construction, and
 * the engine sees ACK frames through {@link io.pacelink.transport.recovery.AckRanges} and packet outcomes through
 * {@link io.pacelink.transport.recovery.PacketOutcomeListener}, so this package depends on neither the codec nor the
 * engine.
 */
package io.pacelink.transport.recovery;
