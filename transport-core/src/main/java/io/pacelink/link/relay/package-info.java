/**
 * The real-time link emulator ({@code pacelink netem}): {@link io.pacelink.link.relay.NetemRelay} relays UDP between
 * loopback ports through the {@link io.pacelink.link.LinkDirection} model of each direction, timed by a precise
 * park-then-spin loop, and reports per-interval counters and a summary.
 */
package io.pacelink.link.relay;
