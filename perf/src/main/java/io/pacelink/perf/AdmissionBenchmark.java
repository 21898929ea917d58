package io.pacelink.perf;

import io.pacelink.transport.EndpointLimits;
import io.pacelink.transport.RetryMode;
import io.pacelink.transport.admission.AddressValidator;
import io.pacelink.transport.admission.HelloAdmission;
import io.pacelink.transport.stats.CountersBuffers;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Cost of the path a flood of hellos takes (docs/security.md, "Admission"), per hello:
 * <ul>
 *     <li>{@link #helloWithoutToken()}: validate a 1200-byte hello, find it has no token, mint a RETRY token (one
 *     HMAC-SHA-256) — what every spoofed hello costs;</li>
 *     <li>{@link #helloWithToken()}: validate a hello that echoes a valid token, verify it (one HMAC-SHA-256) and
 *     pass the per-source rate limit — what a validated client's hello costs before its connection is created.</li>
 * </ul>
 * Both allocate nothing (IPv4 sources); run with {@code -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = { BenchmarkJvm.ADD_EXPORTS_MISC, BenchmarkJvm.ADD_OPENS_MISC })
@State(Scope.Thread)
public class AdmissionBenchmark
{
    private static final int HELLO_BYTES = 1200;

    private final PacketDecoder decoder = new PacketDecoder();
    private final UnsafeBuffer tokenless = new UnsafeBuffer(new byte[HELLO_BYTES]);
    private final UnsafeBuffer tokened = new UnsafeBuffer(new byte[HELLO_BYTES]);
    private final UnsafeBuffer retryToken = new UnsafeBuffer(new byte[AddressValidator.TOKEN_LENGTH]);
    private final InetSocketAddress source = new InetSocketAddress("192.0.2.1", 40_000);
    private HelloAdmission admission;
    private long nowNs;

    @Setup
    public void setUp()
    {
        admission = new HelloAdmission(
            new EndpointLimits().handshakesPerSecondPerSource(1_000_000).handshakeBurstPerSource(1_000_000)
                .retryMode(RetryMode.ALWAYS),
            new byte[AddressValidator.KEY_LENGTH], 7, new SecurityCounters(CountersBuffers.newManager(64 * 1024), "b"));
        hello(tokenless, null, 0);
        decoder.validate(tokenless, 0, HELLO_BYTES);
        admit(tokenless);
        hello(tokened, retryToken, AddressValidator.TOKEN_LENGTH);
    }

    private static void hello(final UnsafeBuffer buffer, final UnsafeBuffer token, final int tokenLength)
    {
        final PacketWriter writer = new PacketWriter().wrap(buffer, 0, HELLO_BYTES);
        writer.writeHeader(PacketType.HANDSHAKE, 0, 0);
        writer.appendHandshake(42, false, 1472, 1_000, 30_000, 1 << 20, 1 << 20, token, 0, tokenLength);
        writer.appendPadding(writer.remaining());
    }

    private int admit(final UnsafeBuffer hello)
    {
        decoder.validate(hello, 0, HELLO_BYTES);
        decoder.firstFrame(hello, 0, HELLO_BYTES);
        final HandshakeFrameFlyweight frame = decoder.handshake();
        // A token buys one hello: after the first call the tokened hello measures a spent token's path (verify, the
        // spent-token lookup, a new RETRY).
        return admission.admit(frame, HELLO_BYTES, source, nowNs, retryToken, 0, false, false, false);
    }

    @Benchmark
    public int helloWithoutToken()
    {
        nowNs += 1_000;
        return admit(tokenless);
    }

    @Benchmark
    public int helloWithToken()
    {
        // The token was minted at time 0 and stays valid for the benchmark's first seconds of virtual time.
        nowNs = (nowNs + 1) % PacketHeaderFlyweight.HEADER_LENGTH;
        return admit(tokened);
    }
}
