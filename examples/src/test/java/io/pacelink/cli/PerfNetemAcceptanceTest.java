package io.pacelink.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The acceptance run of issue 13 on the lossy long path (100 Mbit/s, 150 ms +- 15 ms RTT, 8 % loss, a one-BDP
 * queue), three processes: {@code pacelink perf -s}, {@code pacelink netem} in front of it, and a client sending
 * through the relay for 30 s with {@code -C bbr}, then with {@code -C cubic}. BBR must reach 60 Mbit/s at the
 * receiver, CUBIC stay under 2 Mbit/s (the loss rate caps a loss-based controller's window).
 * <p>
 * A speed figure on a shared machine, so it is opt-in and not part of the build:
 * {@code mvn -B -pl examples -am verify -Dtest=PerfNetemAcceptanceTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dpacelink.acceptance=true} (about 100 s).
 */
@EnabledIfSystemProperty(named = "pacelink.acceptance", matches = "true")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PerfNetemAcceptanceTest
{
    private static final String PATH = "rate=100mbit delay=75ms jitter=7.5ms loss=8% queue=1bdp";
    private static final String REVERSE_PATH = "delay=75ms jitter=7.5ms";
    private static final String SECONDS = "30";

    @Test
    void bbrKeepsTheLossyLongPathFullAndCubicDoesNot() throws Exception
    {
        final double bbr = receivedBitsPerSecond("bbr");
        final double cubic = receivedBitsPerSecond("cubic");
        System.out.printf("lossy long path, %s s each: bbr %.1f Mbit/s, cubic %.2f Mbit/s at the receiver%n",
            SECONDS, bbr / 1e6, cubic / 1e6);
        assertTrue(bbr >= 60e6, "bbr " + bbr);
        assertTrue(cubic < 2e6, "cubic " + cubic);
    }

    private static double receivedBitsPerSecond(final String congestionControl) throws Exception
    {
        try (ChildCommand server = ChildCommand.start("perf", "-s", "-1", "-B", "127.0.0.1", "-p", "0"))
        {
            final String serverPort = server.await("Server listening on 127\\.0\\.0\\.1 port (\\d+)", 30_000);
            try (ChildCommand relay = ChildCommand.start("netem", "--listen", "127.0.0.1:0", "--forward",
                "127.0.0.1:" + serverPort, "--path", PATH, "--reverse-path", REVERSE_PATH))
            {
                final String relayPort = relay.await("relaying 127\\.0\\.0\\.1:(\\d+) ->", 30_000);
                final ChildCommand client = ChildCommand.start("perf", "-c", "127.0.0.1", "-p", relayPort, "-C",
                    congestionControl, "-t", SECONDS, "-J");
                assertEquals(0, client.waitFor(120), client.err());
                final Map<String, Object> end = MiniJson.object(MiniJson.object(MiniJson.parse(client.out()))
                    .get("end"));
                assertEquals(0, server.waitFor(30), server.err());
                return (Double)MiniJson.object(end.get("sum_received")).get("bits_per_second");
            }
        }
    }
}
