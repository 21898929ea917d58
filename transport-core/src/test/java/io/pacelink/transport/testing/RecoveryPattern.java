package io.pacelink.transport.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * What a sender did during one recovery period, read from a {@link RecordingController}'s recorded callbacks: per ACK
 * of the period, the bytes it delivered and the bytes sent after it (until the next ACK), and the flight when the
 * period ended. Proportional Rate Reduction (RFC 6937) shows in it as sends spread over the period in proportion to
 * what is delivered; a window cut at once shows as a silence of half a round trip and then one out for one in.
 *
 * @param deliveredPerAck bytes each ACK of the period newly acknowledged, in order.
 * @param sentPerAck      bytes sent after each of those ACKs, before the next.
 * @param sentBeforeFirstAck bytes sent between the congestion event and the first ACK after it.
 * @param flightAtEndBytes bytes in flight after the ACK that ended the period.
 */
public record RecoveryPattern(
    List<Long> deliveredPerAck, List<Long> sentPerAck, long sentBeforeFirstAck, long flightAtEndBytes)
{
    /**
     * @param recorder a recorder that was recording when the period began.
     * @return the first recovery period recorded that ended.
     * @throws IllegalStateException if none did.
     */
    public static RecoveryPattern first(final RecordingController recorder)
    {
        final List<Object> events = recorder.events();
        int start = -1;
        for (int i = 0; i < events.size() && start < 0; i++)
        {
            if (events.get(i) instanceof RecordingController.Congestion congestion && congestion.startsRecovery())
            {
                start = i;
            }
        }
        if (start < 0)
        {
            throw new IllegalStateException("no recovery period recorded");
        }

        final List<Long> delivered = new ArrayList<>();
        final List<Long> sent = new ArrayList<>();
        long sentBeforeFirstAck = 0;
        for (int i = start + 1; i < events.size(); i++)
        {
            final Object event = events.get(i);
            if (event instanceof RecordingController.Ack ack)
            {
                if (ack.endsRecovery())
                {
                    return new RecoveryPattern(delivered, sent, sentBeforeFirstAck, ack.bytesInFlight());
                }
                delivered.add(ack.newlyAckedBytes());
                sent.add(0L);
            }
            else if (event instanceof RecordingController.Sent packet)
            {
                if (sent.isEmpty())
                {
                    sentBeforeFirstAck += packet.sizeBytes();
                }
                else
                {
                    sent.set(sent.size() - 1, sent.get(sent.size() - 1) + packet.sizeBytes());
                }
            }
        }
        throw new IllegalStateException("the recovery period recorded did not end");
    }

    /**
     * @return bytes delivered over the period.
     */
    public long deliveredBytes()
    {
        return deliveredPerAck.stream().mapToLong(Long::longValue).sum();
    }

    /**
     * @return bytes sent over the period, the fast retransmit included.
     */
    public long sentBytes()
    {
        return sentBeforeFirstAck + sentPerAck.stream().mapToLong(Long::longValue).sum();
    }

    /**
     * @param fraction the share of the period's ACKs to look at, from its start.
     * @return the most consecutive ACKs in that share after which nothing was sent.
     */
    public int longestSilenceInAcks(final double fraction)
    {
        final int acks = (int)(sentPerAck.size() * fraction);
        int longest = 0;
        int run = 0;
        for (int i = 0; i < acks; i++)
        {
            run = 0 == sentPerAck.get(i) ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        return longest;
    }

    /**
     * @return the most bytes sent after one ACK beyond what that ACK delivered.
     */
    public long largestBurstBeyondDeliveredBytes()
    {
        long largest = 0;
        for (int i = 0; i < sentPerAck.size(); i++)
        {
            largest = Math.max(largest, sentPerAck.get(i) - deliveredPerAck.get(i));
        }
        return largest;
    }
}
