/**
 * BBRv3 as specified by draft-ietf-ccwg-bbr-06, selected by the name {@code bbr3}
 * ({@link io.pacelink.bbr.v3.Bbr3ControllerFactory}).
 * <p>
 * {@link io.pacelink.bbr.v3.Bbr3Controller} follows the draft's per-ACK order (model and state, then pacing rate,
 * send quantum and cwnd) and its per-loss step; the constants are the draft's, and where Google's Linux v3 differs
 * (Drain gain, DOWN gain, the Drain round timeout) {@link io.pacelink.bbr.v3.Bbr3Parameters} selects the Linux value.
 * State is published as counters named {@code bbr3-*} and as {@code stateName()}: {@code STARTUP}, {@code DRAIN},
 * {@code PROBE_BW_DOWN}, {@code PROBE_BW_CRUISE}, {@code PROBE_BW_REFILL}, {@code PROBE_BW_UP}, {@code PROBE_RTT}.
 *
 * <pre>{@code
 * CongestionControllerFactory bbr3 = CongestionControlRegistry.load().factory("bbr3");
 * bbr3.validate(ControllerParameters.parse("bbr3.drainPacingGain=0.347,bbr3.downPacingGain=0.91"));
 * }</pre>
 */
package io.pacelink.bbr.v3;
