package io.pacelink.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The cost of the secure mode in bulk (issue 11 item 5): {@code pacelink perf} over loopback, plaintext and Noise NK
 * (AES-GCM) and NNpsk0 (ChaCha20-Poly1305), in turn in the same run, three rounds each, each in processes of its own.
 * Prints each run's received rate and its rate per CPU-second of both processes (which a shared machine's load
 * disturbs less), and the secure/plaintext ratios of the medians. A speed figure, so it asserts only that every run
 * completed, and is opt-in:
 * {@code mvn -B -pl examples -am verify -Dtest=SecureBulkThroughputTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dpacelink.acceptance=true}.
 */
@EnabledIfSystemProperty(named = "pacelink.acceptance", matches = "true")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class SecureBulkThroughputTest
{
    private static final String SECONDS = "5";
    private static final int ROUNDS = 3;

    @TempDir
    Path temp;

    @Test
    void secureBulkAgainstPlaintextInTheSameRun() throws Exception
    {
        final String key = temp.resolve("server").toString();
        final String psk = temp.resolve("shared.psk").toString();
        assertEquals(0, CommandRun.of("keygen", key).exitCode());
        assertEquals(0, CommandRun.of("keygen", "--psk", psk).exitCode());
        final List<String> lines = new ArrayList<>();
        final List<List<double[]>> runs = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (int round = 0; round < ROUNDS; round++)
        {
            runs.get(0).add(run(List.of("--insecure"), List.of("--insecure"), "plaintext", lines));
            runs.get(1).add(run(List.of("--key", key + ".key"), List.of("--peer-key", key + ".pub"), "NK AES-GCM",
                lines));
            runs.get(2).add(run(List.of("--psk", psk), List.of("--psk", psk, "--aead", "ChaChaPoly"),
                "NNpsk0 ChaCha20-Poly1305", lines));
        }
        lines.forEach(System.out::println);
        final double[] plain = medians(runs.get(0));
        final double[] aes = medians(runs.get(1));
        final double[] chacha = medians(runs.get(2));
        System.out.printf("medians of %d: plaintext %.1f Mbit/s (%.1f Mbit per CPU-second), NK AES-GCM %.1f (%.1f), " +
            "NNpsk0 ChaCha20-Poly1305 %.1f (%.1f)%nsecure/plaintext: AES-GCM %.2f by rate, %.2f per CPU-second; " +
            "ChaCha20-Poly1305 %.2f by rate, %.2f per CPU-second%n", ROUNDS, plain[0], plain[1], aes[0], aes[1],
            chacha[0], chacha[1], aes[0] / plain[0], aes[1] / plain[1], chacha[0] / plain[0], chacha[1] / plain[1]);
    }

    /**
     * @return the received rate in Mbit/s and Mbit per CPU-second of both processes together.
     */
    private static double[] run(
        final List<String> serverKeys, final List<String> clientKeys, final String name, final List<String> lines)
        throws Exception
    {
        final List<String> serverArgs = new ArrayList<>(List.of("perf", "-s", "-1", "-B", "127.0.0.1", "-p", "0"));
        serverArgs.addAll(serverKeys);
        try (ChildCommand server = ChildCommand.start(serverArgs.toArray(String[]::new)))
        {
            final String port = server.await("Server listening on 127\\.0\\.0\\.1 port (\\d+)", 30_000);
            final List<String> clientArgs = new ArrayList<>(List.of("perf", "-c", "127.0.0.1", "-p", port, "-C",
                "cubic", "-t", SECONDS, "-J"));
            clientArgs.addAll(clientKeys);
            final ChildCommand client = ChildCommand.start(clientArgs.toArray(String[]::new));
            assertEquals(0, client.waitFor(120), client.err());
            assertEquals(0, server.waitFor(30), server.err());
            final Map<String, Object> end = MiniJson.object(MiniJson.object(MiniJson.parse(client.out())).get("end"));
            final double megabits = (Double)MiniJson.object(end.get("sum_received")).get("bits_per_second") / 1e6;
            final Map<String, Object> cpu = MiniJson.object(end.get("cpu_utilization_percent"));
            final double cores = ((Double)cpu.get("host_total") + (Double)cpu.get("remote_total")) / 100;
            lines.add(String.format("%-26s %8.1f Mbit/s received, %5.2f cores, %8.1f Mbit per CPU-second", name,
                megabits, cores, megabits / cores));
            return new double[]{ megabits, megabits / cores };
        }
    }

    private static double[] medians(final List<double[]> runs)
    {
        final double[] medians = new double[2];
        for (int i = 0; i < medians.length; i++)
        {
            final int field = i;
            final double[] sorted = runs.stream().mapToDouble((run) -> run[field]).sorted().toArray();
            medians[i] = sorted[sorted.length / 2];
        }
        return medians;
    }
}
