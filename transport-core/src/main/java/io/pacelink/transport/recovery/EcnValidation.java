package io.pacelink.transport.recovery;

import io.pacelink.transport.wire.EcnCodepoint;

import java.util.List;

/**
 * ECN validation for one connection's path (RFC 9000 section 13.4.2 and Appendix A.4): decides which codepoint each
 * packet is sent with, and judges the ECN counts of every ACK frame against what was sent, so that a path that drops,
 * bleaches or rewrites marks — or a peer that reports counts it cannot have — turns ECN off instead of misleading the
 * congestion controller. {@link LossRecovery} drives it.
 * <h2>States (Appendix A.4)</h2>
 * <ul>
 *     <li>{@link #TESTING}: the first {@link #TEST_PACKETS} packets, or those of the first {@link #TESTING_PTOS}
 *     probe timeouts, are sent with ECT(0) (section 13.4.2: enough to learn whether marked packets get through,
 *     few enough to lose little if a faulty element drops them);</li>
 *     <li>{@link #UNKNOWN}: testing is over and no ACK frame has validated the counts yet; packets go unmarked;</li>
 *     <li>{@link #CAPABLE}: an ACK frame newly acknowledged marked packets, its counts passed every check, and the
 *     peer saw ECT(0) arrive unchanged at least once; every packet is marked from now on;</li>
 *     <li>{@link #FAILED}: a check failed (the {@link #failure()} says which); nothing is marked again and the
 *     peer's counts are ignored, so they trigger no congestion response;</li>
 *     <li>{@link #DISABLED}: ECN was never on (the port cannot read the codepoints, or it was configured off).</li>
 * </ul>
 * <h2>Checks of an ACK frame's counts (section 13.4.2.1)</h2>
 * Only a frame that raises the largest acknowledged packet number is judged: a reordered frame's counts are older, and
 * the RFC forbids failing on them (they are ignored). Such a frame fails validation if
 * <ul>
 *     <li>it newly acknowledges marked packets but carries no counts ({@link #BLEACHED}: the path zeroed the field,
 *     or the peer does not report);</li>
 *     <li>a count went down ({@link #DECREASED});</li>
 *     <li>the ECT(1) count is not 0, since only ECT(0) is ever sent ({@link #REMARKED}: the path rewrote the
 *     codepoint);</li>
 *     <li>the counts add up to more packets than were ever sent marked ({@link #EXCEEDED}: counts the peer cannot have
 *     seen, including CE on packets never marked);</li>
 *     <li>the increase of ECT(0) and CE together is smaller than the marked packets it newly acknowledges
 *     ({@link #BLEACHED} again: the marks were removed on the way).</li>
 * </ul>
 * Besides, if every marked packet of the test was lost ({@link #BLACK_HOLE}: section 13.4.2, marked packets dropped
 * by a faulty element), or every one that arrived arrived as CE ({@link #ALL_CE}: a path that rewrites every mark to
 * CE, which would make the sender throttle itself for nothing), validation fails.
 * <p>
 * Which packets were marked is kept with each packet ({@link SentPacketRing#isEcnMarked}), not here: besides the test
 * and the capable period, a path challenge goes out unmarked between marked packets each time the peer's address
 * changes, so no fixed number of runs of packet numbers covers every connection. Allocation free; one thread.
 */
public final class EcnValidation
{
    /**
     * ECN is not used on this connection: the port cannot carry codepoints, or it was configured off.
     */
    public static final int DISABLED = 0;

    /**
     * The first packets are sent marked to test the path.
     */
    public static final int TESTING = 1;

    /**
     * Testing is over and no ACK frame has validated the counts yet; packets go unmarked.
     */
    public static final int UNKNOWN = 2;

    /**
     * The path and the peer carry and report marks correctly; every packet is marked.
     */
    public static final int CAPABLE = 3;

    /**
     * Validation failed; packets go unmarked and the peer's counts are ignored.
     */
    public static final int FAILED = 4;

    /**
     * The states' names, indexed by state: what the {@code ecn-state} counter's label lists.
     */
    public static final List<String> STATE_NAMES = List.of("DISABLED", "TESTING", "UNKNOWN", "CAPABLE", "FAILED");

    /**
     * {@link #failure()} while validation has not failed.
     */
    public static final int NO_FAILURE = 0;

    /**
     * Marked packets were newly acknowledged, but the counts were missing or grew by less than their number.
     */
    public static final int BLEACHED = 1;

    /**
     * An ECT(1) count appeared though only ECT(0) was sent.
     */
    public static final int REMARKED = 2;

    /**
     * A count went down.
     */
    public static final int DECREASED = 3;

    /**
     * The counts add up to more than the packets sent marked.
     */
    public static final int EXCEEDED = 4;

    /**
     * Every marked packet of the test was lost.
     */
    public static final int BLACK_HOLE = 5;

    /**
     * Every marked packet that arrived arrived as CE.
     */
    public static final int ALL_CE = 6;

    /**
     * The failures' names, indexed by failure.
     */
    public static final List<String> FAILURE_NAMES =
        List.of("NONE", "BLEACHED", "REMARKED", "DECREASED", "EXCEEDED", "BLACK_HOLE", "ALL_CE");

    /**
     * RFC 9000 section 13.4.2: "the first ten outgoing packets on a path".
     */
    public static final int TEST_PACKETS = 10;

    /**
     * RFC 9000 section 13.4.2: "or for a period of three PTOs".
     */
    public static final int TESTING_PTOS = 3;

    private int state;
    private int failure = NO_FAILURE;
    private long testStartNs = Long.MIN_VALUE;
    private int testPacketsSent;

    private long markedSent;
    private long markedInFlightSent;
    private long markedInFlightLost;
    private long markedAcked;
    private long newlyAckedMarked;

    private long reportedEct0;
    private long reportedEct1;
    private long reportedCe;
    private long ignoredFrames;

    /**
     * @param enabled true to start testing the path; false for a connection that never uses ECN.
     */
    public EcnValidation(final boolean enabled)
    {
        this.state = enabled ? TESTING : DISABLED;
    }

    /**
     * The codepoint the next packet goes out with: ECT(0) while testing or capable, not-ECT otherwise. Ends testing
     * when its time is up.
     *
     * @param nowNs        current time.
     * @param ptoPeriodNs  the connection's probe timeout period, for the three-PTO limit of the test.
     * @return {@link EcnCodepoint#ECT_0} or {@link EcnCodepoint#NOT_ECT}.
     */
    public int codepointToSend(final long nowNs, final long ptoPeriodNs)
    {
        if (TESTING == state && testPacketsSent > 0 && nowNs - testStartNs >= TESTING_PTOS * ptoPeriodNs)
        {
            endTest();
        }
        return TESTING == state || CAPABLE == state ? EcnCodepoint.ECT_0 : EcnCodepoint.NOT_ECT;
    }

    /**
     * A packet left with the codepoint {@link #codepointToSend} gave, or unmarked (a path challenge, a CLOSE).
     *
     * @param codepoint      the codepoint it was sent with.
     * @param countsInFlight true if it counts towards bytes in flight (only such packets can be declared lost).
     * @param nowNs          send time.
     * @return true if it was sent marked: the caller keeps that with the packet, for {@link #onMarkedPacketAcked}
     * and {@link #onMarkedPacketLost}.
     */
    public boolean onPacketSent(final int codepoint, final boolean countsInFlight, final long nowNs)
    {
        if (!EcnCodepoint.isEcnCapable(codepoint))
        {
            return false;
        }
        markedSent++;
        if (countsInFlight)
        {
            markedInFlightSent++;
        }
        if (TESTING == state)
        {
            if (0 == testPacketsSent)
            {
                testStartNs = nowNs;
            }
            if (++testPacketsSent >= TEST_PACKETS)
            {
                endTest();
            }
        }
        return true;
    }

    /**
     * A marked packet was newly acknowledged by the ACK frame being processed (also one declared lost before).
     */
    public void onMarkedPacketAcked()
    {
        newlyAckedMarked++;
    }

    /**
     * A marked packet declared lost earlier was acknowledged after all: it is no longer lost.
     */
    public void onMarkedPacketAckedAfterLoss()
    {
        newlyAckedMarked++;
        markedInFlightLost--;
    }

    /**
     * A marked packet that counted in flight was declared lost.
     */
    public void onMarkedPacketLost()
    {
        markedInFlightLost++;
        checkBlackHole();
    }

    /**
     * Judge the ECN counts of the ACK frame whose newly acknowledged packets were just reported (section 13.4.2.1),
     * and forget those packets.
     *
     * @param hasCounts        true if the frame carries ECN counts.
     * @param ect0             its ECT(0) count.
     * @param ect1             its ECT(1) count.
     * @param ce               its ECN-CE count.
     * @param advancesLargest  true if the frame raised the largest acknowledged packet number.
     * @return how many more packets the peer reports CE-marked than before: the congestion signal to act on; 0 if
     * there is none, if the frame was not judged, or if ECN is disabled or failed (the counts are then ignored).
     */
    public long onAckFrame(
        final boolean hasCounts, final long ect0, final long ect1, final long ce, final boolean advancesLargest)
    {
        final long newlyMarked = newlyAckedMarked;
        newlyAckedMarked = 0;
        markedAcked += newlyMarked;
        if (DISABLED == state || FAILED == state)
        {
            return 0;
        }
        if (!advancesLargest)
        {
            if (hasCounts)
            {
                ignoredFrames++;
            }
            return 0;
        }
        if (!hasCounts)
        {
            if (newlyMarked > 0)
            {
                fail(BLEACHED);
            }
            return 0;
        }
        if (ect0 < reportedEct0 || ect1 < reportedEct1 || ce < reportedCe)
        {
            fail(DECREASED);
            return 0;
        }
        if (ect1 > 0)
        {
            fail(REMARKED);
            return 0;
        }
        if (ect0 + ce > markedSent)
        {
            fail(EXCEEDED);
            return 0;
        }
        final long newlyCe = ce - reportedCe;
        if (ect0 - reportedEct0 + newlyCe < newlyMarked)
        {
            fail(BLEACHED);
            return 0;
        }
        reportedEct0 = ect0;
        reportedCe = ce;

        if (CAPABLE != state && newlyMarked > 0)
        {
            if (ect0 > 0)
            {
                state = CAPABLE;
            }
            else if (UNKNOWN == state && markedAcked + markedInFlightLost >= markedInFlightSent)
            {
                fail(ALL_CE);
                return 0;
            }
        }
        return newlyCe;
    }

    /**
     * @return {@link #DISABLED}, {@link #TESTING}, {@link #UNKNOWN}, {@link #CAPABLE} or {@link #FAILED}.
     */
    public int state()
    {
        return state;
    }

    /**
     * @return why validation failed ({@link #BLEACHED}, {@link #REMARKED}, {@link #DECREASED}, {@link #EXCEEDED},
     * {@link #BLACK_HOLE}, {@link #ALL_CE}), or {@link #NO_FAILURE}.
     */
    public int failure()
    {
        return failure;
    }

    /**
     * @return true while packets are sent marked (testing or capable).
     */
    public boolean isMarking()
    {
        return TESTING == state || CAPABLE == state;
    }

    /**
     * @return packets sent marked ECT(0).
     */
    public long markedPackets()
    {
        return markedSent;
    }

    /**
     * @return the peer's ECN-CE count as last validated: CE-marked packets it reported.
     */
    public long reportedCe()
    {
        return reportedCe;
    }

    /**
     * @return the peer's ECT(0) count as last validated.
     */
    public long reportedEct0()
    {
        return reportedEct0;
    }

    /**
     * @return frames with counts that were not judged because they did not raise the largest acknowledged (reordered).
     */
    public long ignoredFrames()
    {
        return ignoredFrames;
    }

    private void endTest()
    {
        state = UNKNOWN;
        checkBlackHole();
    }

    private void checkBlackHole()
    {
        if (UNKNOWN == state && 0 == markedAcked + newlyAckedMarked && markedInFlightSent > 0 &&
            markedInFlightLost >= markedInFlightSent)
        {
            fail(BLACK_HOLE);
        }
    }

    private void fail(final int reason)
    {
        state = FAILED;
        failure = reason;
    }
}
