package io.pacelink.cli.transfer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The sender's file thread: announces the entries, reads each file into the outbound slots while hashing it, and
 * collects the receiver's verdicts. Entries are announced up to {@link Messages#MAX_ENTRIES_AHEAD} ahead of the
 * file being sent, so the receiver's OFFERs for small files come back while earlier data still flows. A file's
 * data starts only after its OFFER: from the offered offset when the receiver's proof (the SHA-256 of its kept
 * prefix) matches this file's own prefix, from the start otherwise.
 * <p>
 * The transfer {@link #succeeded()} only if the receiver confirmed every entry and ended the session with DONE;
 * nothing about the connection itself counts.
 */
public final class SendWorker implements Runnable
{
    private static final int PREFIX_READ_BYTES = 1 << 20;

    private final List<SourceEntry> entries;
    private final SessionPipes pipes;
    private final boolean resume;
    private final TransferProgress progress;
    private final TransferOutput output;
    private final FileOutcome[] outcomes;
    private final long[] resumedFrom;
    private final long[] resentBytes;
    private final long[] sentBytes;
    private final String[] notes;
    private final Offer[] offers = new Offer[Messages.MAX_ENTRIES_AHEAD];
    private final MessageDigest digest = Sha256.newDigest();
    private final ByteBuffer prefixBuffer = ByteBuffer.allocateDirect(PREFIX_READ_BYTES);
    private int announced;
    private int current;
    private int receiverFlags;
    private int verdicts;
    private boolean done;
    private int doneOk;
    private int doneFailed;
    private String doneReason;
    private volatile String failure;
    private long dataBytesCommitted;

    private record Offer(int index, int flags, long offset, long discarded, byte[] proof)
    {
        boolean isComplete()
        {
            return 0 != (flags & Messages.OFFER_FLAG_COMPLETE);
        }
    }

    /**
     * @param entries  what to send.
     * @param pipes    the session's messages.
     * @param resume   ask the receiver to offer kept data (partial files, identical complete files).
     * @param progress updated as files start and end.
     * @param output   told each entry's verdict.
     */
    public SendWorker(
        final List<SourceEntry> entries,
        final SessionPipes pipes,
        final boolean resume,
        final TransferProgress progress,
        final TransferOutput output)
    {
        this.entries = entries;
        this.pipes = pipes;
        this.resume = resume;
        this.progress = progress;
        this.output = output;
        final int count = entries.size();
        outcomes = new FileOutcome[count];
        resumedFrom = new long[count];
        resentBytes = new long[count];
        sentBytes = new long[count];
        notes = new String[count];
    }

    public void run()
    {
        try
        {
            handshake();
            for (current = 0; current < entries.size(); current++)
            {
                announceAhead();
                final SourceEntry entry = entries.get(current);
                if (!entry.isDirectory())
                {
                    final Offer offer = awaitDecision(current);
                    if (null != offer)
                    {
                        send(current, entry, offer);
                    }
                }
                drainInbound();
            }
            final Slot slot = pipes.claim();
            pipes.send(slot, Messages.finish(slot.buffer(), entries.size()));
            while (!done)
            {
                handle(pipes.receive());
            }
        }
        catch (final TransferException ex)
        {
            failure = ex.getMessage();
        }
        catch (final ProtocolException ex)
        {
            failure = "the receiver broke the protocol: " + ex.getMessage();
        }
        finally
        {
            pipes.finish();
        }
    }

    /**
     * @return whether the receiver confirmed every entry and the session: the only thing the exit status is based on.
     */
    public boolean succeeded()
    {
        if (null != failure || !done || doneFailed != 0 || doneOk != entries.size() || verdicts != entries.size())
        {
            return false;
        }
        for (final FileOutcome outcome : outcomes)
        {
            if (!outcome.status().isSuccess())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return why the session failed as a whole, or null (entries may still have failed: see the outcomes).
     */
    public String failure()
    {
        if (null != failure)
        {
            return failure;
        }
        if (done && null != doneReason && !doneReason.isEmpty())
        {
            return "the receiver ended the session: " + doneReason;
        }
        return null;
    }

    /**
     * @return the entries' verdicts, null for those never confirmed.
     */
    public FileOutcome[] outcomes()
    {
        return outcomes;
    }

    /**
     * @return file bytes handed to the network in this session.
     */
    public long bytesSent()
    {
        return dataBytesCommitted;
    }

    /**
     * @return file bytes kept by the receiver from earlier sessions and not sent again.
     */
    public long bytesResumed()
    {
        return sum(resumedFrom);
    }

    /**
     * @return bytes that earlier sessions had delivered past the receiver's last durable point, sent again now.
     */
    public long bytesResent()
    {
        return sum(resentBytes);
    }

    private void handshake() throws TransferException, ProtocolException
    {
        final long totalBytes = entries.stream().mapToLong(SourceEntry::size).sum();
        final Slot hello = pipes.claim();
        pipes.send(hello, Messages.hello(
            hello.buffer(), resume ? Messages.HELLO_FLAG_RESUME : 0, entries.size(), totalBytes));
        final Slot slot = pipes.receive();
        try
        {
            Messages.checkLength(slot.buffer(), slot.length());
            final byte type = Messages.type(slot.buffer());
            if (Messages.DONE == type)
            {
                throw new TransferException("the receiver refused the session: " + Messages.doneReason(slot.buffer()));
            }
            if (Messages.WELCOME != type)
            {
                throw new ProtocolException("expected WELCOME, got " + Messages.name(type));
            }
            if (Messages.VERSION != Messages.welcomeVersion(slot.buffer()))
            {
                throw new ProtocolException("it speaks version " + Messages.welcomeVersion(slot.buffer()) +
                    ", this sender " + Messages.VERSION);
            }
            receiverFlags = Messages.welcomeFlags(slot.buffer());
        }
        finally
        {
            pipes.release(slot);
        }
    }

    private void announceAhead() throws TransferException
    {
        while (announced < entries.size() && announced - current < Messages.MAX_ENTRIES_AHEAD)
        {
            final SourceEntry entry = entries.get(announced);
            final Slot slot = pipes.claim();
            pipes.send(slot, Messages.entry(slot.buffer(), announced, entry.kind(), entry.mode(), entry.mtimeNs(),
                entry.size(), entry.pathUtf8()));
            announced++;
        }
    }

    private Offer awaitDecision(final int index) throws TransferException, ProtocolException
    {
        final int slot = index % Messages.MAX_ENTRIES_AHEAD;
        while (null == outcomes[index] && (null == offers[slot] || offers[slot].index() != index))
        {
            handle(pipes.receive());
            checkDone();
        }
        final Offer offer = offers[slot];
        offers[slot] = null;
        return null == outcomes[index] ? offer : null;
    }

    private void send(final int index, final SourceEntry entry, final Offer offer)
        throws TransferException, ProtocolException
    {
        try (FileChannel channel = FileChannel.open(entry.source(), StandardOpenOption.READ))
        {
            final long start = keptPrefix(index, entry, offer, channel);
            if (start < 0)
            {
                return;
            }
            resumedFrom[index] = start;
            resentBytes[index] = start > 0 ? offer.discarded() : 0;
            final Slot startSlot = pipes.claim();
            pipes.send(startSlot, Messages.start(startSlot.buffer(), index, start));
            progress.fileStarted(entry.relativePath(), entry.size(), start, dataBytesCommitted);

            long position = start;
            while (position < entry.size())
            {
                drainInbound();
                if (null != outcomes[index])
                {
                    abort(index, "the receiver gave up on it");
                    return;
                }
                final int length = (int)Math.min(Messages.CHUNK_BYTES, entry.size() - position);
                if (!sendChunk(index, entry, channel, position, length))
                {
                    return;
                }
                position += length;
            }
            if (hasChanged(entry))
            {
                abort(index, entry.source() + " changed while it was being sent; send it again");
                return;
            }
            final Slot end = pipes.claim();
            pipes.send(end, Messages.end(end.buffer(), index, entry.size(), digest.digest()));
        }
        catch (final IOException ex)
        {
            abort(index, "cannot read " + entry.source() + ": " + IoErrors.describe(ex));
        }
    }

    /**
     * @return where the data starts: the offered offset if the receiver's proof matches this file's prefix (the
     * digest then holds the prefix), else 0 (the digest reset); or -1 if the file was aborted instead.
     */
    private long keptPrefix(final int index, final SourceEntry entry, final Offer offer, final FileChannel channel)
        throws IOException, TransferException
    {
        digest.reset();
        if (0 == offer.offset())
        {
            return 0;
        }
        if (offer.offset() <= entry.size() && Sha256.update(digest, channel, offer.offset(), prefixBuffer) &&
            Arrays.equals(Sha256.hashSoFar(digest), offer.proof()))
        {
            return offer.offset();
        }
        digest.reset();
        if (offer.isComplete() && 0 == (receiverFlags & Messages.WELCOME_FLAG_OVERWRITE))
        {
            abort(index, "the receiver already has a different file under this name");
            return -1;
        }
        notes[index] = offer.isComplete() ? "replaced the receiver's different file" :
            "sent again from the start: the file changed since the interrupted transfer";
        return 0;
    }

    /**
     * Read one chunk into a DATA message and send it.
     *
     * @return false if the file could not be read (an ABORT was sent instead).
     */
    private boolean sendChunk(
        final int index, final SourceEntry entry, final FileChannel channel, final long position, final int length)
        throws TransferException
    {
        final Slot slot = pipes.claim();
        final int header = Messages.dataHeader(slot.buffer(), index, position);
        final ByteBuffer target = slot.byteBuffer(header, length);
        try
        {
            while (target.hasRemaining())
            {
                if (channel.read(target, position + target.position() - header) < 0)
                {
                    pipes.send(slot, Messages.abort(slot.buffer(), index, entry.source() + " shrank while it was " +
                        "being sent; send it again"));
                    return false;
                }
            }
        }
        catch (final IOException ex)
        {
            pipes.send(slot, Messages.abort(slot.buffer(), index, "cannot read " + entry.source() + ": " +
                IoErrors.describe(ex)));
            return false;
        }
        digest.update(slot.byteBuffer(header, length));
        pipes.send(slot, header + length);
        dataBytesCommitted += length;
        sentBytes[index] += length;
        return true;
    }

    private static boolean hasChanged(final SourceEntry entry) throws IOException
    {
        return Files.size(entry.source()) != entry.size() ||
            Files.getLastModifiedTime(entry.source()).to(TimeUnit.NANOSECONDS) != entry.mtimeNs();
    }

    private void abort(final int index, final String reason) throws TransferException
    {
        final Slot slot = pipes.claim();
        pipes.send(slot, Messages.abort(slot.buffer(), index, reason));
    }

    private void drainInbound() throws ProtocolException, TransferException
    {
        Slot slot;
        while (null != (slot = pipes.poll()))
        {
            handle(slot);
        }
        checkDone();
    }

    private void checkDone() throws TransferException
    {
        if (done)
        {
            throw new TransferException("the receiver ended the session early: " +
                (null == doneReason || doneReason.isEmpty() ? "no reason given" : doneReason));
        }
    }

    private void handle(final Slot slot) throws ProtocolException
    {
        try
        {
            Messages.checkLength(slot.buffer(), slot.length());
            final byte type = Messages.type(slot.buffer());
            switch (type)
            {
                case Messages.OFFER -> onOffer(slot);
                case Messages.VERDICT -> onVerdict(slot);
                case Messages.DONE -> onDone(slot);
                default -> throw new ProtocolException("unexpected " + Messages.name(type));
            }
        }
        finally
        {
            pipes.release(slot);
        }
    }

    private void onOffer(final Slot slot) throws ProtocolException
    {
        final int index = Messages.index(slot.buffer());
        if (index < current || index >= announced || entries.get(index).isDirectory() || null != outcomes[index])
        {
            throw new ProtocolException("OFFER for entry " + index + ", which awaits none");
        }
        final long offset = Messages.offerOffset(slot.buffer());
        if (offset < 0 || !resume && 0 != offset)
        {
            throw new ProtocolException("OFFER of offset " + offset + " for entry " + index);
        }
        offers[index % Messages.MAX_ENTRIES_AHEAD] = new Offer(index, Messages.offerFlags(slot.buffer()), offset,
            Math.max(0, Messages.offerDiscarded(slot.buffer())), Messages.offerProof(slot.buffer()));
    }

    private void onVerdict(final Slot slot) throws ProtocolException
    {
        final int index = Messages.index(slot.buffer());
        if (index < 0 || index >= announced || null != outcomes[index])
        {
            throw new ProtocolException("VERDICT for entry " + index + ", which awaits none");
        }
        final SourceEntry entry = entries.get(index);
        final FileStatus status = Messages.verdictStatus(slot.buffer());
        final String reason = Messages.verdictReason(slot.buffer());
        progress.entryDone(Math.max(0, entry.size() - resumedFrom[index] - sentBytes[index]));
        if (FileStatus.OK != status)
        {
            // Only a file completed after a kept prefix was resumed; an unchanged one was already there.
            resumedFrom[index] = 0;
            resentBytes[index] = 0;
        }
        final FileOutcome outcome = new FileOutcome(
            entry.relativePath(),
            entry.isDirectory(),
            status,
            entry.size(),
            resumedFrom[index],
            resentBytes[index],
            status.isSuccess() && !entry.isDirectory() ? Sha256.hex(Messages.verdictSha256(slot.buffer())) : null,
            reason.isEmpty() ? notes[index] : reason);
        outcomes[index] = outcome;
        verdicts++;
        output.file(outcome);
    }

    private void onDone(final Slot slot) throws ProtocolException
    {
        done = true;
        doneOk = Messages.doneOk(slot.buffer());
        doneFailed = Messages.doneFailed(slot.buffer());
        doneReason = Messages.doneReason(slot.buffer());
    }

    private static long sum(final long[] values)
    {
        long sum = 0;
        for (final long value : values)
        {
            sum += value;
        }
        return sum;
    }
}
