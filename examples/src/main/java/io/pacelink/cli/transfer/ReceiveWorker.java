package io.pacelink.cli.transfer;

import io.pacelink.cli.Units;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The receiver's file thread for one session: decides on each entry as it is announced (safe path, overwrite,
 * free space, a kept prefix to offer), writes each file's data to its partial file while hashing it, and publishes
 * it under its final name only when the sender's SHA-256 matches its own. Every entry gets exactly one VERDICT and
 * the session one DONE, which is what the sender's exit status rests on.
 * <p>
 * Messages must come in the order {@link SendWorker} sends them; anything else ends the session as a protocol
 * error. If the session ends early (the connection is lost, the sender breaks the protocol, another session takes a
 * file over, Ctrl-C), the file being written is kept with its durable offset for a later {@code --resume}.
 */
public final class ReceiveWorker implements Runnable
{
    private static final int HASH_READ_BYTES = 1 << 20;

    /**
     * A connection that does not start a session soon is not a sender (or a stuck one): it must not hold one of
     * the receiver's few session places while its transport keeps it alive.
     */
    private static final long HELLO_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    private final ReceiveSettings settings;
    private final SessionPipes pipes;
    private final String peer;
    private final TransferProgress progress;
    private final TransferOutput output;
    private final ByteBuffer hashBuffer = ByteBuffer.allocateDirect(HASH_READ_BYTES);
    private final ArrayDeque<Pending> offered = new ArrayDeque<>();
    private final List<Pending> directories = new ArrayList<>();
    private final List<FileOutcome> outcomes = new ArrayList<>();
    private boolean resumeRequested;
    private int entries;
    private long bytesTotal;
    private int nextEntry;
    private Pending receiving;
    private PartialFile partial;
    private MessageDigest digest;
    private long position;
    private int failedIndex = -1;
    private int ok;
    private volatile long bytesWritten;
    private long bytesResumed;
    private long bytesResent;
    private boolean finished;
    private volatile String failure;

    /**
     * An announced entry, from its ENTRY to its VERDICT.
     */
    private static final class Pending
    {
        final int index;
        final String path;
        final long size;
        final int mode;
        final long mtimeNs;
        final boolean directory;
        Path target;
        boolean leased;
        boolean complete;
        long offset;
        long discarded;
        MessageDigest digest;
        SpaceBudget.Promise promise;
        long startedAt = -1;
        long written;

        Pending(
            final int index, final String path, final long size, final int mode, final long mtimeNs,
            final boolean directory)
        {
            this.index = index;
            this.path = path;
            this.size = size;
            this.mode = mode;
            this.mtimeNs = mtimeNs;
            this.directory = directory;
        }

        /**
         * @return bytes of it that were not and will not be received (so the progress total adds up).
         */
        long unreceived()
        {
            return startedAt < 0 ? size : Math.max(0, size - startedAt - written);
        }
    }

    /**
     * @param settings what all sessions share.
     * @param pipes    this session's messages.
     * @param peer     the sender's address, for messages.
     * @param progress updated as files start and end.
     * @param output   told each entry's verdict.
     */
    public ReceiveWorker(
        final ReceiveSettings settings,
        final SessionPipes pipes,
        final String peer,
        final TransferProgress progress,
        final TransferOutput output)
    {
        this.settings = settings;
        this.pipes = pipes;
        this.peer = peer;
        this.progress = progress;
        this.output = output;
    }

    public void run()
    {
        try
        {
            handshake();
            while (!finished)
            {
                final Slot slot = pipes.receive();
                try
                {
                    handle(slot);
                }
                finally
                {
                    pipes.release(slot);
                }
            }
        }
        catch (final TransferException ex)
        {
            failure = ex.getMessage();
        }
        catch (final ProtocolException ex)
        {
            failure = "the sender broke the protocol: " + ex.getMessage();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            failure = "interrupted";
        }
        finally
        {
            if (!finished)
            {
                abandon();
            }
            pipes.finish();
        }
    }

    /**
     * @return whether every announced entry arrived (or was already there) and the session ended with FINISH.
     */
    public boolean succeeded()
    {
        return finished && null == failure && ok == entries;
    }

    /**
     * @return why the session ended early, or null.
     */
    public String failure()
    {
        return failure;
    }

    /**
     * @return the entries announced.
     */
    public int entries()
    {
        return entries;
    }

    /**
     * @return entries confirmed OK or UNCHANGED.
     */
    public int entriesOk()
    {
        return ok;
    }

    /**
     * @return file bytes announced.
     */
    public long bytesTotal()
    {
        return bytesTotal;
    }

    /**
     * @return file bytes written in this session (any thread).
     */
    public long bytesWritten()
    {
        return bytesWritten;
    }

    /**
     * @return bytes kept from earlier sessions and not received again.
     */
    public long bytesResumed()
    {
        return bytesResumed;
    }

    /**
     * @return bytes an earlier session had received past the last durable point, received again.
     */
    public long bytesResent()
    {
        return bytesResent;
    }

    /**
     * @return the verdicts given, in order.
     */
    public List<FileOutcome> outcomes()
    {
        return outcomes;
    }

    private void handshake() throws TransferException, ProtocolException
    {
        final Slot slot = pipes.receive(HELLO_TIMEOUT_NS);
        try
        {
            Messages.checkLength(slot.buffer(), slot.length());
            if (Messages.HELLO != Messages.type(slot.buffer()) ||
                Messages.MAGIC != Messages.helloMagic(slot.buffer()))
            {
                throw new ProtocolException("it is not a pacelink file transfer (no HELLO)");
            }
            final int version = Messages.helloVersion(slot.buffer());
            if (Messages.VERSION != version)
            {
                final String reason = "the sender speaks file-transfer protocol version " + version + ", this " +
                    "receiver " + Messages.VERSION + ": use the same pacelink release on both sides";
                sendDone(0, reason);
                throw new TransferException(reason);
            }
            entries = Messages.helloEntries(slot.buffer());
            bytesTotal = Messages.helloTotalBytes(slot.buffer());
            if (entries < 0 || bytesTotal < 0)
            {
                throw new ProtocolException("HELLO announces " + entries + " entries of " + bytesTotal + " bytes");
            }
            resumeRequested = 0 != (Messages.helloFlags(slot.buffer()) & Messages.HELLO_FLAG_RESUME);
        }
        finally
        {
            pipes.release(slot);
        }
        progress.totals(entries, bytesTotal);
        output.session("receiving " + entries + (1 == entries ? " entry" : " entries") + " (" +
            Units.bytes(bytesTotal) + ") from " + peer + " into " + settings.paths().root() +
            (resumeRequested ? ", resuming interrupted transfers" : ""));
        final Slot welcome = pipes.claim();
        pipes.send(welcome, Messages.welcome(welcome.buffer(), settings.welcomeFlags()));
    }

    private void handle(final Slot slot) throws ProtocolException, TransferException, InterruptedException
    {
        Messages.checkLength(slot.buffer(), slot.length());
        final byte type = Messages.type(slot.buffer());
        switch (type)
        {
            case Messages.ENTRY -> onEntry(slot);
            case Messages.START -> onStart(slot);
            case Messages.DATA -> onData(slot);
            case Messages.END -> onEnd(slot);
            case Messages.ABORT -> onAbort(slot);
            case Messages.FINISH -> onFinish(slot);
            default -> throw new ProtocolException("unexpected " + Messages.name(type));
        }
    }

    private void onEntry(final Slot slot) throws ProtocolException, TransferException, InterruptedException
    {
        final int index = Messages.index(slot.buffer());
        if (index != nextEntry || index >= entries)
        {
            throw new ProtocolException("ENTRY " + index + " where entry " + nextEntry + " of " + entries +
                " was due");
        }
        if (offered.size() + (null != receiving || failedIndex >= 0 ? 1 : 0) >= Messages.MAX_ENTRIES_AHEAD)
        {
            throw new ProtocolException("more than " + Messages.MAX_ENTRIES_AHEAD + " entries announced ahead");
        }
        nextEntry++;
        final byte kind = Messages.entryKind(slot.buffer());
        final long size = Messages.entrySize(slot.buffer());
        if (size < 0 || (Messages.KIND_FILE != kind && (Messages.KIND_DIRECTORY != kind || 0 != size)))
        {
            throw new ProtocolException("ENTRY " + index + " of kind " + kind + " and size " + size);
        }
        final Pending entry = new Pending(index, Messages.entryPath(slot.buffer()), size,
            Messages.entryMode(slot.buffer()), Messages.entryMtimeNs(slot.buffer()), Messages.KIND_DIRECTORY == kind);
        try
        {
            if (Messages.KIND_DIRECTORY == kind)
            {
                entry.target = settings.paths().directory(entry.path);
                directories.add(entry);
                verdict(entry, FileStatus.OK, null, null);
                return;
            }
            decide(entry);
        }
        catch (final RefusedException ex)
        {
            verdict(entry, FileStatus.REFUSED, null, ex.getMessage());
            return;
        }
        catch (final IOException ex)
        {
            verdict(entry, FileStatus.FAILED, null, "cannot prepare it: " + IoErrors.describe(ex));
            return;
        }
        offered.add(entry);
        final Slot offer = pipes.claim();
        pipes.send(offer, Messages.offer(offer.buffer(), index, entry.complete ? Messages.OFFER_FLAG_COMPLETE : 0,
            entry.offset, entry.discarded, entry.offset > 0 ? Sha256.hashSoFar(entry.digest) :
            new byte[Messages.SHA256_BYTES]));
    }

    /**
     * Accept a file or refuse it: where it goes, whether it may replace what is there, what is kept of an earlier
     * transfer (hashed, to prove it to the sender), and whether it fits.
     */
    private void decide(final Pending entry) throws RefusedException, IOException, InterruptedException
    {
        if (settings.resumeOnly() && !resumeRequested)
        {
            throw new RefusedException("the receiver only completes interrupted transfers (--resume-only); send " +
                "with --resume");
        }
        entry.target = settings.paths().file(entry.path);
        if (!settings.leases().acquire(entry.target, pipes, "a newer session from " + peer))
        {
            throw new RefusedException("another session has been writing this file and did not let go of it");
        }
        entry.leased = true;
        final Path directory = entry.target.getParent();

        if (Files.exists(entry.target, LinkOption.NOFOLLOW_LINKS))
        {
            final boolean regular = Files.isRegularFile(entry.target, LinkOption.NOFOLLOW_LINKS);
            if (Files.isDirectory(entry.target, LinkOption.NOFOLLOW_LINKS))
            {
                throw new RefusedException("a directory of that name exists on the receiver");
            }
            if (resumeRequested && regular && Files.size(entry.target) == entry.size)
            {
                // Perhaps an earlier session delivered it already: offer it whole, proven by its hash.
                entry.digest = hashPrefix(entry.target, entry.size, false);
                if (null != entry.digest)
                {
                    entry.complete = true;
                    entry.offset = entry.size;
                    entry.promise = settings.overwrite() ? settings.space().promise(directory, entry.size) : null;
                    return;
                }
            }
            if (!settings.overwrite())
            {
                throw new RefusedException("it exists on the receiver" + (regular ? "" : " (not as a regular file)") +
                    "; run the receiver with --overwrite to replace it");
            }
        }

        final PartialFile.Kept kept = resumeRequested ? PartialFile.kept(entry.target) : null;
        if (null != kept && kept.offset() <= entry.size)
        {
            entry.offset = kept.offset();
            entry.discarded = kept.length() - kept.offset();
        }
        else if (settings.resumeOnly())
        {
            throw new RefusedException("nothing of it was received before, and the receiver only completes " +
                "interrupted transfers (--resume-only)");
        }
        entry.promise = settings.space().promise(directory, entry.size - entry.offset);
        if (entry.offset > 0)
        {
            entry.digest = hashPrefix(entry.target, entry.offset, true);
            if (null == entry.digest)
            {
                entry.offset = 0;
                entry.discarded = 0;
            }
        }
    }

    /**
     * @return a digest that has seen the file's first bytes (the final file's, or its partial file's), or null if
     * the file is shorter.
     */
    private MessageDigest hashPrefix(final Path target, final long length, final boolean partialFile)
        throws IOException
    {
        final MessageDigest prefix = Sha256.newDigest();
        try (FileChannel channel = partialFile ? PartialFile.openForReading(target) :
            FileChannel.open(target, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))
        {
            return Sha256.update(prefix, channel, length, hashBuffer) ? prefix : null;
        }
    }

    private void onStart(final Slot slot) throws ProtocolException, TransferException
    {
        final int index = Messages.index(slot.buffer());
        final long offset = Messages.fileOffset(slot.buffer());
        final Pending entry = offered.peek();
        if (null == entry || entry.index != index || null != receiving || failedIndex >= 0)
        {
            throw new ProtocolException("START for entry " + index + ", which is not next");
        }
        if (offset != 0 && offset != entry.offset)
        {
            throw new ProtocolException("START at " + offset + " for entry " + index + ", offered " + entry.offset);
        }
        offered.poll();
        try
        {
            if (offset == entry.offset && (offset > 0 || entry.complete))
            {
                digest = entry.digest;
                if (!entry.complete)
                {
                    partial = PartialFile.resume(entry.target, offset);
                    bytesResumed += offset;
                    bytesResent += entry.discarded;
                }
            }
            else
            {
                if (entry.complete && !settings.overwrite())
                {
                    throw new RefusedException("a different file of that name exists on the receiver; run the " +
                        "receiver with --overwrite to replace it");
                }
                if (null == entry.promise)
                {
                    entry.promise = settings.space().promise(entry.target.getParent(), entry.size);
                }
                digest = Sha256.newDigest();
                partial = PartialFile.create(entry.target);
            }
        }
        catch (final RefusedException ex)
        {
            skipRest(entry, FileStatus.REFUSED, ex.getMessage());
            return;
        }
        catch (final IOException ex)
        {
            skipRest(entry, FileStatus.FAILED, "cannot write it: " + IoErrors.describe(ex));
            return;
        }
        receiving = entry;
        entry.startedAt = offset;
        position = offset;
        progress.fileStarted(entry.path, entry.size, offset, bytesWritten);
    }

    private void onData(final Slot slot) throws ProtocolException, TransferException
    {
        final int index = Messages.index(slot.buffer());
        if (index == failedIndex)
        {
            return; // the file failed here already; the sender stops sending it when it hears so
        }
        final int length = slot.length() - Messages.DATA_HEADER_BYTES;
        if (null == receiving || receiving.index != index || null == partial ||
            Messages.fileOffset(slot.buffer()) != position || length > receiving.size - position)
        {
            throw new ProtocolException("DATA for entry " + index + " at " + Messages.fileOffset(slot.buffer()) +
                " (" + length + " bytes) does not continue what was received");
        }
        try
        {
            partial.write(slot.byteBuffer(Messages.DATA_HEADER_BYTES, length));
            digest.update(slot.byteBuffer(Messages.DATA_HEADER_BYTES, length));
            position += length;
            bytesWritten += length;
            receiving.written += length;
            receiving.promise.written(length);
            partial.checkpointIfDue(System.nanoTime());
        }
        catch (final IOException ex)
        {
            final Pending entry = receiving;
            receiving = null;
            partial.keep();
            partial = null;
            skipRest(entry, FileStatus.FAILED, "cannot write it: " + IoErrors.describe(ex));
        }
    }

    private void onEnd(final Slot slot) throws ProtocolException, TransferException
    {
        final int index = Messages.index(slot.buffer());
        if (index == failedIndex)
        {
            failedIndex = -1;
            return;
        }
        final long size = Messages.endSize(slot.buffer());
        if (null == receiving || receiving.index != index || size != receiving.size || position != size)
        {
            throw new ProtocolException("END of entry " + index + " at " + size + " bytes does not match what was " +
                "received");
        }
        final Pending entry = receiving;
        receiving = null;
        final byte[] sent = Messages.endSha256(slot.buffer());
        final byte[] received = digest.digest();
        final PartialFile file = partial;
        partial = null;
        if (!Arrays.equals(sent, received))
        {
            if (null != file)
            {
                file.discard();
            }
            verdict(entry, FileStatus.FAILED, null, "SHA-256 mismatch: the sender read " + Sha256.hex(sent) +
                ", the receiver got " + Sha256.hex(received) + "; what arrived was discarded");
            return;
        }
        if (null == file)
        {
            verdict(entry, FileStatus.UNCHANGED, received, "already there");
            return;
        }
        try
        {
            file.publish(settings.overwrite(), entry.mode, entry.mtimeNs);
            verdict(entry, FileStatus.OK, received, null);
        }
        catch (final RefusedException ex)
        {
            verdict(entry, FileStatus.REFUSED, null, ex.getMessage());
        }
        catch (final IOException ex)
        {
            verdict(entry, FileStatus.FAILED, null, "cannot store it: " + IoErrors.describe(ex));
        }
    }

    private void onAbort(final Slot slot) throws ProtocolException, TransferException
    {
        final int index = Messages.index(slot.buffer());
        final String reason = Messages.abortReason(slot.buffer());
        if (index == failedIndex)
        {
            failedIndex = -1;
            return;
        }
        if (null != receiving && receiving.index == index)
        {
            final Pending entry = receiving;
            receiving = null;
            if (null != partial)
            {
                partial.keep();
                partial = null;
            }
            verdict(entry, FileStatus.FAILED, null, "the sender gave up on it: " + reason);
            return;
        }
        final Pending entry = offered.peek();
        if (null == entry || entry.index != index || null != receiving)
        {
            throw new ProtocolException("ABORT for entry " + index + ", which is not being sent");
        }
        offered.poll();
        if (entry.complete && !settings.overwrite())
        {
            verdict(entry, FileStatus.REFUSED, null, "a different file of that name exists on the receiver; run " +
                "the receiver with --overwrite to replace it");
        }
        else
        {
            verdict(entry, FileStatus.FAILED, null, "the sender gave up on it: " + reason);
        }
    }

    private void onFinish(final Slot slot) throws ProtocolException, TransferException
    {
        if (Messages.finishEntries(slot.buffer()) != entries || nextEntry != entries || !offered.isEmpty() ||
            null != receiving || failedIndex >= 0)
        {
            throw new ProtocolException("FINISH before every entry ended");
        }
        applyDirectoryAttributes();
        finished = true;
        sendDone(entries - ok, "");
    }

    /**
     * Directories get their permissions and times last, deepest first: writing files into a directory changes its
     * time, and a read-only directory could not have taken them.
     */
    private void applyDirectoryAttributes()
    {
        for (int i = directories.size() - 1; i >= 0; i--)
        {
            final Pending directory = directories.get(i);
            try
            {
                if (Messages.UNKNOWN_MODE != directory.mode)
                {
                    Files.setPosixFilePermissions(directory.target, FileModes.toPermissions(directory.mode));
                }
                if (Messages.UNKNOWN_MTIME != directory.mtimeNs)
                {
                    Files.setLastModifiedTime(directory.target, FileTime.from(directory.mtimeNs, TimeUnit.NANOSECONDS));
                }
            }
            catch (final IOException | UnsupportedOperationException ex)
            {
                output.warning("cannot set the permissions or time of " + directory.path + ": " + ex.getMessage());
            }
        }
    }

    /**
     * The entry failed or was refused after its START: give the verdict now and drop its remaining messages.
     */
    private void skipRest(final Pending entry, final FileStatus status, final String reason)
        throws TransferException
    {
        verdict(entry, status, null, reason);
        failedIndex = entry.index;
    }

    private void verdict(final Pending entry, final FileStatus status, final byte[] sha256, final String reason)
        throws TransferException
    {
        release(entry);
        if (status.isSuccess())
        {
            ok++;
        }
        progress.entryDone(entry.unreceived());
        final FileOutcome outcome = new FileOutcome(entry.path, entry.directory, status, entry.size,
            FileStatus.OK == status ? entry.offset : 0, FileStatus.OK == status ? entry.discarded : 0,
            null == sha256 ? null : Sha256.hex(sha256), reason);
        outcomes.add(outcome);
        output.file(outcome);
        final Slot slot = pipes.claim();
        pipes.send(slot, Messages.verdict(slot.buffer(), entry.index, status, FileStatus.OK == status ?
            entry.size - entry.offset : 0, sha256, reason));
    }

    private void release(final Pending entry)
    {
        if (entry.leased)
        {
            settings.leases().release(entry.target, pipes);
            entry.leased = false;
        }
        if (null != entry.promise)
        {
            entry.promise.release();
            entry.promise = null;
        }
    }

    /**
     * The session ends early: keep the file being written for a later --resume, let go of every file, and tell
     * the sender if the connection still works.
     */
    private void abandon()
    {
        if (null != partial)
        {
            partial.keep();
            partial = null;
            output.file(new FileOutcome(receiving.path, false, FileStatus.FAILED, receiving.size, 0, 0, null,
                "the session ended: " + failure + "; its first " + Units.bytes(position) + " are kept here for " +
                "pacelink send --resume"));
        }
        if (null != receiving)
        {
            release(receiving);
            receiving = null;
        }
        for (final Pending entry : offered)
        {
            release(entry);
        }
        offered.clear();
        final Slot slot = pipes.tryClaim();
        if (null != slot)
        {
            pipes.send(slot, Messages.done(slot.buffer(), ok, entries - ok, failure));
        }
    }

    private void sendDone(final int failedEntries, final String reason) throws TransferException
    {
        final Slot slot = pipes.claim();
        pipes.send(slot, Messages.done(slot.buffer(), ok, failedEntries, reason));
    }
}
