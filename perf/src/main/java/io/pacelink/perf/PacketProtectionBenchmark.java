package io.pacelink.perf;

import io.pacelink.transport.port.SendBatch;
import io.pacelink.transport.secure.AeadAlgorithm;
import io.pacelink.transport.secure.AeadGuard;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.secure.PacketProtection;
import io.pacelink.transport.stats.CountersBuffers;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * Cost of protecting one packet (docs/security.md, "Cost"), per packet of {@code payload} bytes after the 20-byte
 * header:
 * <ul>
 *     <li>{@link #seal()} / {@link #open()}: the secure mode's AEAD ({@code aead} = AESGCM or ChaChaPoly) through
 *     {@link PacketProtection}: nonce from the packet number, the header as associated data, a 16-byte tag;</li>
 *     <li>{@link #crcSeal()} / {@link #crcCheck()}: the plaintext mode's CRC32C trailer;</li>
 *     <li>{@link #sealIntoBatch()}: the send path's {@link AeadGuard}: the packet, assembled in the guard's staging
 *     array, sealed and copied once into a direct {@link SendBatch} (a copy of the header-only change per op
 *     stands for the assembly, which writes there directly);</li>
 *     <li>{@link #sealInPlaceDirect()}: the alternative the guard does not take: the JCA cipher's {@link ByteBuffer}
 *     overloads sealing in place in the direct batch, which on Java 17 allocate temporary arrays per call.</li>
 * </ul>
 * Run with {@code -prof gc}: the CRC32C allocates nothing; the JDK's AEAD allocates per call on Java 17 (its
 * parameter object and internal buffers), which B/op shows.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = { BenchmarkJvm.ADD_EXPORTS_MISC, BenchmarkJvm.ADD_OPENS_MISC })
@State(Scope.Thread)
public class PacketProtectionBenchmark
{
    /**
     * Sealed packets opened in turn: distinct packet numbers, as on a real connection (the JDK's ChaCha20 refuses
     * the same key and nonce twice in a row).
     */
    private static final int OPENED_PACKETS = 64;

    @Param({ "64", "1200" })
    public int payload;

    @Param({ "AESGCM", "ChaChaPoly" })
    public String aead;

    private final byte[] packet = new byte[2048];
    private final byte[] sealed = new byte[2048];
    private final byte[][] sealedPackets = new byte[OPENED_PACKETS][2048];
    private final int[] sealedLengths = new int[OPENED_PACKETS];
    private final byte[] opened = new byte[2048];
    private final UnsafeBuffer packetBuffer = new UnsafeBuffer(packet);
    private final Crc32cPacketCheck crc = new Crc32cPacketCheck();
    private PacketProtection sender;
    private PacketProtection receiver;
    private int packetLength;
    private long packetNumber;
    private int nextOpened;
    private AeadGuard guard;
    private final SendBatch batch = new SendBatch(64, 64 * 2048);
    private final byte[] nonce = new byte[AeadAlgorithm.NONCE_LENGTH];
    private AeadAlgorithm algorithm;
    private Cipher directCipher;
    private SecretKeySpec directKey;
    private ByteBuffer directAad;
    private ByteBuffer directInput;
    private ByteBuffer directOutput;

    @Setup
    public void setUp()
    {
        final AeadAlgorithm algorithm = AeadAlgorithm.fromNoiseName(aead);
        final byte[] a = new byte[32];
        final byte[] b = new byte[32];
        a[0] = 1;
        b[0] = 2;
        sender = new PacketProtection(algorithm, a, b, Long.MAX_VALUE);
        receiver = new PacketProtection(algorithm, b, a, Long.MAX_VALUE);
        final PacketProtection peer = new PacketProtection(algorithm, a, b, Long.MAX_VALUE);
        final PacketWriter writer = new PacketWriter().wrap(packetBuffer, 0, packet.length);
        writer.writeHeader(PacketType.ONE_RTT, 0x1234_5678_9abcL, 0);
        writer.appendPadding(payload);
        packetLength = writer.length();
        for (int i = 0; i < OPENED_PACKETS; i++)
        {
            packetBuffer.putLong(PacketHeaderFlyweight.PACKET_NUMBER_OFFSET, i, PacketHeaderFlyweight.BYTE_ORDER);
            sealedLengths[i] = peer.seal(packet, packetLength, sealedPackets[i]);
        }
        packetNumber = OPENED_PACKETS;
        crc.seal(packetBuffer, 0, packetLength);

        this.algorithm = algorithm;
        guard = new AeadGuard(new PacketProtection(algorithm, a, b, Long.MAX_VALUE), new AeadGuard.Buffers(2048),
            CountersBuffers.newManager(64 * 1024).newCounter("key updates"));
        guard.assemblyBuffer(batch.buffer()).putBytes(0, packet, 0, packetLength);
        directCipher = algorithm.newCipher();
        directKey = new SecretKeySpec(a, algorithm.keyAlgorithm());
        final ByteBuffer direct = batch.buffer().byteBuffer();
        directAad = direct.duplicate();
        directInput = direct.duplicate();
        directOutput = direct.duplicate();
        batch.buffer().putBytes(0, packet, 0, packetLength);
    }

    @Benchmark
    public int seal()
    {
        packetBuffer.putLong(
            PacketHeaderFlyweight.PACKET_NUMBER_OFFSET, packetNumber++, PacketHeaderFlyweight.BYTE_ORDER);
        return sender.seal(packet, packetLength, sealed);
    }

    @Benchmark
    public int open()
    {
        final int index = nextOpened;
        nextOpened = (index + 1) % OPENED_PACKETS;
        final int length = receiver.open(sealedPackets[index], sealedLengths[index], opened);
        if (length != packetLength)
        {
            throw new IllegalStateException("packet " + index + " did not open: " + length);
        }
        return length;
    }

    @Benchmark
    public int sealIntoBatch()
    {
        if (batch.size() == batch.maxDatagrams())
        {
            batch.clear();
        }
        guard.assemblyBuffer(batch.buffer()).putLong(
            PacketHeaderFlyweight.PACKET_NUMBER_OFFSET, packetNumber++, PacketHeaderFlyweight.BYTE_ORDER);
        final int length = guard.seal(batch.buffer(), batch.nextOffset(), packetLength);
        batch.commit(length, null, 0);
        return length;
    }

    @Benchmark
    public int sealInPlaceDirect() throws GeneralSecurityException
    {
        final long number = packetNumber++;
        nonce[0] = (byte)number;
        nonce[1] = (byte)(number >>> 8);
        nonce[2] = (byte)(number >>> 16);
        nonce[3] = (byte)(number >>> 24);
        directCipher.init(Cipher.ENCRYPT_MODE, directKey, algorithm.parameters(nonce));
        directAad.clear().limit(PacketHeaderFlyweight.HEADER_LENGTH);
        directCipher.updateAAD(directAad);
        directInput.clear().limit(packetLength).position(PacketHeaderFlyweight.HEADER_LENGTH);
        directOutput.clear().position(PacketHeaderFlyweight.HEADER_LENGTH);
        return PacketHeaderFlyweight.HEADER_LENGTH + directCipher.doFinal(directInput, directOutput);
    }

    @Benchmark
    public int crcSeal()
    {
        return crc.seal(packetBuffer, 0, packetLength);
    }

    @Benchmark
    public boolean crcCheck()
    {
        return crc.isIntact(packetBuffer, 0, packetLength + Crc32cPacketCheck.TRAILER_LENGTH);
    }

    /**
     * @return packets that failed to open (none, or the benchmark is wrong).
     */
    public long authenticationFailures()
    {
        return receiver.authenticationFailures();
    }
}
