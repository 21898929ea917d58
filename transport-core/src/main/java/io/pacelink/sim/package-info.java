/**
 * The discrete-event simulator: the real endpoint code, driven through its sans-IO interface in virtual time.
 *
 * <pre>{@code
 * Simulator simulator = new Simulator(seed);
 * Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=20ms queue=1bdp"));
 * SimHost client = dumbbell.addLeftHost();
 * SimHost server = dumbbell.addRightHost();
 * client.addAgent(clientEndpointCore);   // built on client.port(), seeded with simulator.seedFor("client")
 * server.addAgent(serverEndpointCore);   // built on server.port()
 * simulator.runUntil(60 * SECOND);
 * }</pre>
 *
 * An agent ({@link io.pacelink.sim.SimulatedAgent}, which {@code EndpointCore} satisfies) runs whenever a datagram
 * is delivered to its host and at its own {@code nextDeadlineNs()}. Everything random derives from the simulator's
 * seed ({@link io.pacelink.sim.Simulator#seedFor(String)}), so the same seed gives the same
 * {@link io.pacelink.sim.Simulator#traceHash() events}. Nothing here reads a clock, sleeps, starts a thread or touches
 * a real network.
 */
package io.pacelink.sim;
