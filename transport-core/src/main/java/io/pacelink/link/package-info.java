/**
 * The emulated link, shared by the virtual-time simulator and the real-time relay.
 *
 * <ul>
 * <li>{@link io.pacelink.link.PathSpec}: a direction's model parsed from netem-like text
 * ({@code rate=100mbit delay=75ms jitter=7.5ms loss=8% queue=1bdp}); {@link io.pacelink.link.PathSpec.Pair} holds
 * the two directions ({@code "FORWARD | REVERSE"}).</li>
 * <li>{@link io.pacelink.link.LinkDirection}: the model itself, driven only by the times handed to it: loss,
 * duplication and corruption on arrival, the bottleneck queue, serialization at the
 * {@link io.pacelink.link.RateSchedule rate schedule} (constant, steps, or a {@link io.pacelink.link.MahimahiTrace
 * mahimahi trace}), then propagation delay with jitter.</li>
 * <li>The bottleneck queue SPI ({@link io.pacelink.link.BottleneckQueue}, found by name with
 * {@link io.pacelink.link.BottleneckQueues}): drop-tail {@link io.pacelink.link.FifoQueue} here, fair queues in
 * {@code qdisc-fq}.</li>
 * </ul>
 *
 * A {@code queue=Nbdp} limit is N × nominal rate × base RTT, where the base RTT is the sum of the two directions'
 * propagation delays for a pair (twice the delay for a lone direction); jitter, access delays and queueing are not
 * part of it.
 */
package io.pacelink.link;
