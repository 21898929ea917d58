package io.pacelink.transport.cc;

import java.util.List;

/**
 * A congestion controller for one connection: the SPI that {@code reno}, {@code cubic} and {@code bbr} implement.
 * <p>
 * Every callback runs on the endpoint's agent thread, takes the current time as a parameter (the controller never
 * reads a clock), and must not allocate. Event objects are reused views: valid only for the duration of the call.
 * <p>
 * Order of calls for one received ACK frame (docs/architecture.md, "One ACK in"): the transport updates the RTT
 * estimator and the rate sampler, calls {@link #onPacketLost} for each packet newly declared lost,
 * {@link #onCongestionEvent} once if any was, then {@link #onAck} with the rate sample.
 */
public interface CongestionController
{
    /**
     * A packet that counts towards bytes in flight has just been sent (after the rate sampler stamped it).
     *
     * @param nowNs              send time.
     * @param packetNumber       the packet's number.
     * @param sizeBytes          size of the datagram in bytes.
     * @param bytesInFlight bytes in flight including this packet.
     * @param isRetransmission   true if the packet carries retransmitted data.
     */
    void onPacketSent(long nowNs, long packetNumber, int sizeBytes, long bytesInFlight, boolean isRetransmission);

    /**
     * First send after the connection was idle (nothing in flight and the application had nothing to send).
     * CUBIC shifts its epoch by the idle time; BBR performs its idle restart.
     *
     * @param nowNs  current time.
     * @param idleNs how long nothing was in flight.
     */
    void onTransmitStartAfterIdle(long nowNs, long idleNs);

    /**
     * One ACK frame was processed: called after {@link #onPacketLost} and {@link #onCongestionEvent} for the same
     * frame. Called even when nothing new was acknowledged only if a loss was detected with it.
     *
     * @param ack reused view of the ACK and its delivery-rate sample.
     */
    void onAck(AckEvent ack);

    /**
     * One packet was newly declared lost (per packet; BBRv3 needs each packet's send-time stamp).
     *
     * @param lost reused view of the lost packet.
     */
    void onPacketLost(LostPacket lost);

    /**
     * Once per batch of losses detected together (one ACK frame or one loss timer).
     *
     * @param event reused view of the congestion event.
     */
    void onCongestionEvent(CongestionEvent event);

    /**
     * A packet previously declared lost was acknowledged: controllers that support it undo the last reduction.
     *
     * @param nowNs current time.
     */
    void onSpuriousLoss(long nowNs);

    /**
     * The path MTU changed.
     *
     * @param maxDatagramSizeBytes the new maximum datagram size.
     */
    void onMtuChanged(int maxDatagramSizeBytes);

    /**
     * @return the congestion window in bytes: the transport sends new ack-eliciting packets only while bytes in
     * flight are below it.
     */
    long congestionWindowBytes();

    /**
     * @return the rate in bytes per second at which the pacer releases this connection's packets; 0 or
     * {@link Long#MAX_VALUE} means do not pace.
     */
    long pacingRateBytesPerSecond();

    /**
     * @return how many bytes the pacer may release back to back before pacing applies again.
     */
    int sendQuantumBytes();

    /**
     * @return a short stable name for the controller's current state (e.g. "SLOW_START", "PROBE_BW_UP"); must be a
     * constant, never built on the fly, and one of {@link #stateNames()}.
     */
    String stateName();

    /**
     * Whether the controller is still in its initial search for the path's capacity, growing its window or rate per
     * ACK: slow start before the first congestion event (or HyStart's exit) and the recovery that answers its
     * overshoot ({@link WindowController#isInStartup()}), BBR's STARTUP. Until it is over the
     * transport does not ask the peer for fewer ACKs (draft-ietf-quic-ack-frequency, "Congestion Control": a sender
     * in slow start needs timely acknowledgments; Chromium's receiver likewise acknowledges every second packet for
     * its first 100, {@code kMinReceivedBeforeAckDecimation}). Polled after every ACK; must not allocate.
     *
     * @return true while the initial slow start or STARTUP lasts; false by default (a controller that does not say
     * is asked no differently from the start of the connection).
     */
    default boolean isInStartup()
    {
        return false;
    }

    /**
     * How the transport reports an increase of the peer's ECN-CE count (RFC 9000 section 13.4.2.1) to this controller.
     * Either way {@link AckEvent#newlyEcnCePackets()} carries it.
     *
     * @return true to also receive it as a {@link CongestionEvent} with {@link CongestionEvent#isEcnCe()} set, which
     * starts a recovery period like a loss (RFC 9002 section 7.1, RFC 3168 section 6.1.2: a window controller halves
     * once per round trip, retransmitting nothing); false (the default) for a controller that reads ECN from the
     * {@link AckEvent} (Linux BBRv3's {@code ecn_alpha}) or ignores it (Linux BBRv1), so that a mark never opens a
     * recovery period that would hide the loss response it still owes.
     */
    default boolean isEcnCeCongestionEvent()
    {
        return false;
    }

    /**
     * @return every name {@link #stateName()} can return, in a fixed order. The transport publishes the current
     * state as an index into this list (the connection's {@code cc-state} counter) and writes the list into that
     * counter's label once, so a reader in another process ({@code pacelink stat}) can name the state without a
     * string ever being written on the hot path. Called once per connection.
     */
    List<String> stateNames();
}
