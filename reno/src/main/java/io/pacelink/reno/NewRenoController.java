package io.pacelink.reno;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.WindowController;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.List;

/**
 * NewReno in the form RFC 9002 section 7 gives it for QUIC: slow start adds every newly acked byte, congestion
 * avoidance counts bytes (RFC 3465) so that stretch ACKs still add one datagram per window, and a congestion event
 * halves the window at most once per recovery period (RFC 9002 section 7.3.2, kept by the transport), reached by
 * Proportional Rate Reduction over the period (RFC 6937, as Linux; {@link WindowController}).
 * <p>
 * The window grows only while the sender was limited by it (RFC 9002 section 7.8, RFC 7661) and never during
 * recovery. Persistent congestion collapses it to the minimum window. All state is primitive; no callback allocates.
 */
public final class NewRenoController extends WindowController
{
    /**
     * Counter name: the congestion window.
     */
    public static final String CWND_COUNTER = "reno-cwnd-bytes";

    /**
     * Counter name: the slow-start threshold ({@link Long#MAX_VALUE} before the first reduction).
     */
    public static final String SSTHRESH_COUNTER = "reno-ssthresh-bytes";

    private final double lossReductionFactor;
    private final AtomicCounter cwndCounter;
    private final AtomicCounter ssthreshCounter;

    private long bytesAckedInCongestionAvoidance;

    /**
     * @param context    the connection's controller context.
     * @param parameters the validated {@code reno.*} parameters.
     */
    public NewRenoController(final ControllerContext context, final NewRenoParameters parameters)
    {
        super(context);
        this.lossReductionFactor = parameters.lossReductionFactor();
        this.cwndCounter = context.counters().newCounter(CWND_COUNTER);
        this.ssthreshCounter = context.counters().newCounter(SSTHRESH_COUNTER);
        publishCounters();
    }

    /**
     * Nothing to do: RFC 9002 section 7.8 lets a paced sender keep its window across idle periods, and the window
     * cannot have grown while idle because growth requires being cwnd-limited.
     */
    public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
    {
    }

    public void onAck(final AckEvent ack)
    {
        // RFC 9002 section 7.3.2: no growth during recovery, nor on the frame that ends it.
        if (isRecoveryAck(ack) || !ack.isCwndLimited())
        {
            return;
        }

        long ackedBytes = ack.newlyAckedBytes();
        if (isInSlowStart())
        {
            // RFC 9002 section 7.3.1: every acknowledged byte (no ABC limit: the sender paces). Stop at ssthresh and
            // hand the rest to congestion avoidance, as Linux tcp_slow_start() does.
            final long slowStartBytes = Math.min(ackedBytes, slowStartThresholdBytes - congestionWindowBytes);
            congestionWindowBytes += slowStartBytes;
            ackedBytes -= slowStartBytes;
        }

        if (ackedBytes > 0)
        {
            // RFC 3465 byte counting: one datagram per window's worth of acknowledged bytes, so stretch ACKs do not
            // slow growth the way the per-ACK approximation cwnd += SMSS * SMSS / cwnd would.
            bytesAckedInCongestionAvoidance += ackedBytes;
            while (bytesAckedInCongestionAvoidance >= congestionWindowBytes)
            {
                bytesAckedInCongestionAvoidance -= congestionWindowBytes;
                congestionWindowBytes += context.maxDatagramSizeBytes();
            }
        }
        publishCounters();
    }

    public void onCongestionEvent(final CongestionEvent event)
    {
        // RFC 9002 section 7.3.2: one halving per recovery period, reached by Proportional Rate Reduction.
        if (startsRecovery(event))
        {
            slowStartThresholdBytes = Math.max((long)(congestionWindowBytes * lossReductionFactor),
                context.minimumWindowBytes());
            startRateReduction(event);
            bytesAckedInCongestionAvoidance = 0;
        }

        if (event.isPersistentCongestion())
        {
            // RFC 9002 section 7.6.2 and Appendix B.8: collapse to the minimum window and leave recovery.
            congestionWindowBytes = context.minimumWindowBytes();
            leaveRecovery();
            bytesAckedInCongestionAvoidance = 0;
        }
        publishCounters();
    }

    /**
     * Nothing to undo: RFC 9002 section 7 defines no rollback for NewReno; the transport's reordering threshold is the
     * remedy for spurious losses.
     */
    public void onSpuriousLoss(final long nowNs)
    {
    }

    public void onMtuChanged(final int maxDatagramSizeBytes)
    {
        super.onMtuChanged(maxDatagramSizeBytes);
        publishCounters();
    }

    public String stateName()
    {
        if (isInRecovery())
        {
            return STATE_RECOVERY;
        }
        return isInSlowStart() ? STATE_SLOW_START : STATE_CONGESTION_AVOIDANCE;
    }

    public List<String> stateNames()
    {
        return WINDOW_STATE_NAMES;
    }

    private void publishCounters()
    {
        cwndCounter.setRelease(congestionWindowBytes);
        ssthreshCounter.setRelease(slowStartThresholdBytes);
    }
}
