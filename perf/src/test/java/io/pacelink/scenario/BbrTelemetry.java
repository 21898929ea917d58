package io.pacelink.scenario;

import io.pacelink.bbr.v1.Bbr1Controller;
import io.pacelink.bbr.v3.Bbr3Controller;
import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.cc.LostPacket;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Watches the controllers of a scenario from the inside: a registry whose factories wrap every controller they create
 * in a recorder. Per controller it keeps the RTT of every ACK (a histogram), every state transition (time, state,
 * round), every PROBE_RTT episode (entry, when bytes in flight reached the PROBE_RTT cwnd, exit, rounds, the most in
 * flight meanwhile), and for BBR a sample of the model at most every {@code samplePeriodNs} of ACK time (bandwidth
 * estimate, min RTT, round). Test support only: it allocates while it records.
 * <p>
 * Every endpoint of a scenario creates controllers, receivers included (their flow-control updates are acknowledged
 * too); {@link #senders()} keeps those that had at least {@link #SENDER_MIN_DELIVERED_BYTES} acknowledged, in
 * creation order (a flow's sender connects before its receiver accepts).
 */
final class BbrTelemetry
{
    /**
     * A controller that had less than this acknowledged is taken for a receiver's.
     */
    static final long SENDER_MIN_DELIVERED_BYTES = 256 * 1024;

    private final long samplePeriodNs;
    private final List<Recorder> recorders = new ArrayList<>();

    /**
     * @param samplePeriodNs least time between two model samples of one controller.
     */
    BbrTelemetry(final long samplePeriodNs)
    {
        this.samplePeriodNs = samplePeriodNs;
    }

    /**
     * @return the class-path registry, every controller recorded.
     */
    CongestionControlRegistry registry()
    {
        final CongestionControlRegistry loaded = CongestionControlRegistry.load();
        final List<CongestionControllerFactory> factories = new ArrayList<>();
        for (final String name : loaded.names())
        {
            factories.add(new RecordingFactory(loaded.factory(name)));
        }
        return CongestionControlRegistry.of(factories.toArray(new CongestionControllerFactory[0]));
    }

    /**
     * @return recorders of the flows' senders, in creation order (receivers' controllers left out).
     */
    private List<Recorder> senders()
    {
        final List<Recorder> senders = new ArrayList<>();
        for (final Recorder recorder : recorders)
        {
            if (recorder.deliveredBytes >= SENDER_MIN_DELIVERED_BYTES)
            {
                senders.add(recorder);
            }
        }
        return senders;
    }

    /**
     * @return the only sender.
     * @throws IllegalStateException if there is not exactly one.
     */
    Recorder sender()
    {
        final List<Recorder> senders = senders();
        if (senders.size() != 1)
        {
            throw new IllegalStateException("expected one sending BBR controller, found " + senders.size());
        }
        return senders.get(0);
    }

    private final class RecordingFactory implements CongestionControllerFactory
    {
        private final CongestionControllerFactory delegate;

        RecordingFactory(final CongestionControllerFactory delegate)
        {
            this.delegate = delegate;
        }

        public String name()
        {
            return delegate.name();
        }

        public void validate(final ControllerParameters parameters)
        {
            delegate.validate(parameters);
        }

        public CongestionController newController(final ControllerContext context)
        {
            final Recorder recorder = new Recorder(delegate.newController(context), samplePeriodNs);
            recorders.add(recorder);
            return recorder;
        }
    }

    /**
     * One controller's history; also the controller the endpoint talks to (it delegates every call).
     */
    static final class Recorder implements CongestionController
    {
        static final String PROBE_RTT = "PROBE_RTT";
        static final long MAX_RTT_NS = 60_000_000_000L;

        private final CongestionController controller;
        private final boolean isBbr;
        private final long samplePeriodNs;
        private final Histogram rttNs = new Histogram(MAX_RTT_NS, 3);
        private long deliveredBytes;
        private long nextSampleNs = Long.MIN_VALUE;
        private String lastState;

        private int transitions;
        private long[] transitionNs = new long[16];
        private String[] transitionState = new String[16];
        private long[] transitionRound = new long[16];

        private int probeRtts;
        private long[] probeRttEntryNs = new long[8];
        private long[] probeRttFloorNs = new long[8];
        private long[] probeRttExitNs = new long[8];
        private long[] probeRttFloorRound = new long[8];
        private long[] probeRttExitRound = new long[8];
        private long[] probeRttMaxInflight = new long[8];

        private int samples;
        private long[] sampleNs = new long[1024];
        private long[] sampleBandwidth = new long[1024];
        private long[] sampleMinRttNs = new long[1024];
        private long[] sampleRound = new long[1024];

        Recorder(final CongestionController controller, final long samplePeriodNs)
        {
            this.controller = controller;
            this.isBbr = controller instanceof Bbr1Controller || controller instanceof Bbr3Controller;
            this.samplePeriodNs = samplePeriodNs;
        }

        public void onPacketSent(
            final long nowNs,
            final long packetNumber,
            final int sizeBytes,
            final long bytesInFlight,
            final boolean isRetransmission)
        {
            controller.onPacketSent(nowNs, packetNumber, sizeBytes, bytesInFlight, isRetransmission);
            noteState(nowNs, bytesInFlight);
        }

        public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
        {
            controller.onTransmitStartAfterIdle(nowNs, idleNs);
        }

        public void onAck(final AckEvent ack)
        {
            controller.onAck(ack);
            deliveredBytes = ack.totalDeliveredBytes();
            final long nowNs = ack.nowNs();
            if (ack.latestRttNs() > 0)
            {
                rttNs.recordValue(Math.min(ack.latestRttNs(), MAX_RTT_NS));
            }
            noteState(nowNs, ack.bytesInFlight());
            if (isBbr && nowNs >= nextSampleNs && deliveredBytes > 0)
            {
                nextSampleNs = nowNs + samplePeriodNs;
                addSample(nowNs);
            }
        }

        public void onPacketLost(final LostPacket lost)
        {
            controller.onPacketLost(lost);
        }

        public void onCongestionEvent(final CongestionEvent event)
        {
            controller.onCongestionEvent(event);
            noteState(event.nowNs(), event.bytesInFlight());
        }

        public void onSpuriousLoss(final long nowNs)
        {
            controller.onSpuriousLoss(nowNs);
        }

        public void onMtuChanged(final int maxDatagramSizeBytes)
        {
            controller.onMtuChanged(maxDatagramSizeBytes);
        }

        public long congestionWindowBytes()
        {
            return controller.congestionWindowBytes();
        }

        public long pacingRateBytesPerSecond()
        {
            return controller.pacingRateBytesPerSecond();
        }

        public int sendQuantumBytes()
        {
            return controller.sendQuantumBytes();
        }

        public String stateName()
        {
            return controller.stateName();
        }

        public List<String> stateNames()
        {
            return controller.stateNames();
        }

        public boolean isEcnCeCongestionEvent()
        {
            return controller.isEcnCeCongestionEvent();
        }

        public boolean isInStartup()
        {
            return controller.isInStartup();
        }

        /**
         * @return the bandwidth estimate: {@code max_bw} (v1: the long-term rate while policed).
         */
        private long bandwidthBytesPerSecond()
        {
            if (controller instanceof Bbr1Controller)
            {
                return ((Bbr1Controller)controller).bandwidthBytesPerSecond();
            }
            return ((Bbr3Controller)controller).maxBwBytesPerSecond();
        }

        private long minRttNs()
        {
            if (controller instanceof Bbr1Controller)
            {
                final Bbr1Controller bbr = (Bbr1Controller)controller;
                return bbr.hasMinRtt() ? bbr.minRttNs() : Long.MAX_VALUE;
            }
            return ((Bbr3Controller)controller).minRttNs();
        }

        private long roundCount()
        {
            if (controller instanceof Bbr1Controller)
            {
                return ((Bbr1Controller)controller).roundCount();
            }
            return ((Bbr3Controller)controller).roundCount();
        }

        /**
         * @return the RTT sample of every ACK that newly acknowledged data (its newest newly acknowledged packet), ns.
         */
        Histogram rttNs()
        {
            return rttNs;
        }

        // ----------------------------------------------------------------------------------------- transitions

        int transitions()
        {
            return transitions;
        }

        long transitionNs(final int i)
        {
            return transitionNs[i];
        }

        String transitionState(final int i)
        {
            return transitionState[i];
        }

        long transitionRound(final int i)
        {
            return transitionRound[i];
        }

        /**
         * @param state  a state name.
         * @param fromNs earliest time.
         * @return index of the first transition into the state at or after the time, -1 if none.
         */
        int firstEntry(final String state, final long fromNs)
        {
            for (int i = 0; i < transitions; i++)
            {
                if (transitionNs[i] >= fromNs && state.equals(transitionState[i]))
                {
                    return i;
                }
            }
            return -1;
        }

        /**
         * @param state a state name.
         * @return times the state was entered, in order.
         */
        long[] entriesNs(final String state)
        {
            long[] times = new long[0];
            for (int i = 0; i < transitions; i++)
            {
                if (state.equals(transitionState[i]))
                {
                    times = Arrays.copyOf(times, times.length + 1);
                    times[times.length - 1] = transitionNs[i];
                }
            }
            return times;
        }

        /**
         * @param i a transition index.
         * @return when the state it entered was left, {@link Long#MAX_VALUE} if never.
         */
        long exitNs(final int i)
        {
            return i + 1 < transitions ? transitionNs[i + 1] : Long.MAX_VALUE;
        }

        // ----------------------------------------------------------------------------------------- samples

        long sampleNs(final int i)
        {
            return sampleNs[i];
        }

        long sampleRound(final int i)
        {
            return sampleRound[i];
        }

        /**
         * @param fromNs window start.
         * @param toNs   window end.
         * @return the largest bandwidth estimate sampled in the window, -1 if no sample.
         */
        long maxBandwidth(final long fromNs, final long toNs)
        {
            long max = -1;
            for (int i = 0; i < samples; i++)
            {
                if (sampleNs[i] >= fromNs && sampleNs[i] < toNs)
                {
                    max = Math.max(max, sampleBandwidth[i]);
                }
            }
            return max;
        }

        /**
         * @param fromNs window start.
         * @param toNs   window end.
         * @return the mean of the bandwidth estimates sampled in the window, 0 if no sample.
         */
        double meanBandwidth(final long fromNs, final long toNs)
        {
            double sum = 0;
            int count = 0;
            for (int i = 0; i < samples; i++)
            {
                if (sampleNs[i] >= fromNs && sampleNs[i] < toNs)
                {
                    sum += sampleBandwidth[i];
                    count++;
                }
            }
            return 0 == count ? 0 : sum / count;
        }

        /**
         * @param fromNs         earliest time.
         * @param bytesPerSecond a bandwidth estimate.
         * @return index of the first sample at or after the time whose estimate reached the value, -1 if none.
         */
        int firstSampleWithBandwidth(final long fromNs, final long bytesPerSecond)
        {
            for (int i = 0; i < samples; i++)
            {
                if (sampleNs[i] >= fromNs && sampleBandwidth[i] >= bytesPerSecond)
                {
                    return i;
                }
            }
            return -1;
        }

        /**
         * @param fromNs earliest time.
         * @param rttNs  a min RTT value.
         * @return index of the first sample at or after the time whose min RTT reached the value, -1 if none.
         */
        int firstSampleWithMinRttAtLeast(final long fromNs, final long rttNs)
        {
            for (int i = 0; i < samples; i++)
            {
                if (sampleNs[i] >= fromNs && sampleMinRttNs[i] >= rttNs && sampleMinRttNs[i] != Long.MAX_VALUE)
                {
                    return i;
                }
            }
            return -1;
        }

        /**
         * @param nowNs a time.
         * @return index of the last sample at or before the time, -1 if none.
         */
        int sampleAt(final long nowNs)
        {
            int index = -1;
            for (int i = 0; i < samples && sampleNs[i] <= nowNs; i++)
            {
                index = i;
            }
            return index;
        }

        private void noteState(final long nowNs, final long bytesInFlight)
        {
            final String state = controller.stateName();
            if (state.equals(lastState))
            {
                if (PROBE_RTT.equals(state))
                {
                    noteProbeRttInflight(nowNs, bytesInFlight);
                }
                return;
            }
            if (PROBE_RTT.equals(lastState))
            {
                probeRttExitNs[probeRtts - 1] = nowNs;
                probeRttExitRound[probeRtts - 1] = isBbr ? roundCount() : -1;
            }
            if (PROBE_RTT.equals(state))
            {
                openProbeRtt(nowNs);
                noteProbeRttInflight(nowNs, bytesInFlight);
            }
            lastState = state;
            if (transitions == transitionNs.length)
            {
                final int length = transitions * 2;
                transitionNs = Arrays.copyOf(transitionNs, length);
                transitionState = Arrays.copyOf(transitionState, length);
                transitionRound = Arrays.copyOf(transitionRound, length);
            }
            transitionNs[transitions] = nowNs;
            transitionState[transitions] = state;
            transitionRound[transitions] = isBbr ? roundCount() : -1;
            transitions++;
        }

        private void openProbeRtt(final long nowNs)
        {
            if (probeRtts == probeRttEntryNs.length)
            {
                final int length = probeRtts * 2;
                probeRttEntryNs = Arrays.copyOf(probeRttEntryNs, length);
                probeRttFloorNs = Arrays.copyOf(probeRttFloorNs, length);
                probeRttExitNs = Arrays.copyOf(probeRttExitNs, length);
                probeRttFloorRound = Arrays.copyOf(probeRttFloorRound, length);
                probeRttExitRound = Arrays.copyOf(probeRttExitRound, length);
                probeRttMaxInflight = Arrays.copyOf(probeRttMaxInflight, length);
            }
            probeRttEntryNs[probeRtts] = nowNs;
            probeRttFloorNs[probeRtts] = Long.MAX_VALUE;
            probeRttExitNs[probeRtts] = Long.MAX_VALUE;
            probeRttExitRound[probeRtts] = Long.MAX_VALUE;
            probeRttMaxInflight[probeRtts] = 0;
            probeRtts++;
        }

        private void noteProbeRttInflight(final long nowNs, final long bytesInFlight)
        {
            final int i = probeRtts - 1;
            if (Long.MAX_VALUE == probeRttFloorNs[i])
            {
                final long cwnd = controller.congestionWindowBytes();
                if (bytesInFlight <= cwnd)
                {
                    probeRttFloorNs[i] = nowNs;
                    probeRttFloorRound[i] = isBbr ? roundCount() : -1;
                    probeRttMaxInflight[i] = bytesInFlight;
                }
            }
            else
            {
                probeRttMaxInflight[i] = Math.max(probeRttMaxInflight[i], bytesInFlight);
            }
        }

        // ----------------------------------------------------------------------------------------- PROBE_RTT

        /**
         * @return PROBE_RTT episodes entered.
         */
        int probeRtts()
        {
            return probeRtts;
        }

        long probeRttEntryNs(final int i)
        {
            return probeRttEntryNs[i];
        }

        /**
         * @param i an episode.
         * @return when bytes in flight first fell to the PROBE_RTT cwnd, {@link Long#MAX_VALUE} if never.
         */
        long probeRttFloorNs(final int i)
        {
            return probeRttFloorNs[i];
        }

        long probeRttExitNs(final int i)
        {
            return probeRttExitNs[i];
        }

        /**
         * @param i an episode.
         * @return packet-timed rounds from reaching the floor to leaving PROBE_RTT.
         */
        long probeRttRoundsAtFloor(final int i)
        {
            return probeRttExitRound[i] - probeRttFloorRound[i];
        }

        /**
         * @param i an episode.
         * @return the most bytes in flight between reaching the floor and leaving PROBE_RTT.
         */
        long probeRttMaxInflight(final int i)
        {
            return probeRttMaxInflight[i];
        }

        private void addSample(final long nowNs)
        {
            if (samples == sampleNs.length)
            {
                final int length = samples * 2;
                sampleNs = Arrays.copyOf(sampleNs, length);
                sampleBandwidth = Arrays.copyOf(sampleBandwidth, length);
                sampleMinRttNs = Arrays.copyOf(sampleMinRttNs, length);
                sampleRound = Arrays.copyOf(sampleRound, length);
            }
            sampleNs[samples] = nowNs;
            sampleBandwidth[samples] = bandwidthBytesPerSecond();
            sampleMinRttNs[samples] = minRttNs();
            sampleRound[samples] = roundCount();
            samples++;
        }
    }
}
