package io.pacelink.cli.transfer;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@link SendWorker} and a {@link ReceiveWorker} in one process, their pipes joined by a thread that copies each
 * message across as the network would (in order, nothing lost), without a transport: the file-transfer protocol's
 * logic tested on its own. A tamper hook may change a message on its way from the sender.
 */
final class SessionHarness
{
    final RecordingOutput senderOutput = new RecordingOutput();
    final RecordingOutput receiverOutput = new RecordingOutput();
    SendWorker sender;
    ReceiveWorker receiver;
    Thread senderThread;
    Thread receiverThread;

    /**
     * @param entries   what to send.
     * @param resume    the sender's --resume.
     * @param settings  the receiver's settings.
     * @param tamper    sees (and may change) every message from the sender, or null.
     * @return this, after both sides ended.
     */
    SessionHarness run(
        final List<SourceEntry> entries,
        final boolean resume,
        final ReceiveSettings settings,
        final Consumer<Slot> tamper)
        throws InterruptedException
    {
        final SessionPipes senderPipes = pipes(FileSender.CONTROL_MESSAGE_BYTES);
        final SessionPipes receiverPipes = new SessionPipes(
            new SlotPipe(64, FileSender.CONTROL_MESSAGE_BYTES),
            new SlotPipe(8, Messages.MAX_MESSAGE_BYTES),
            idle());
        sender = new SendWorker(entries, senderPipes, resume, new TransferProgress(System.nanoTime()), senderOutput);
        receiver = new ReceiveWorker(settings, receiverPipes, "test", new TransferProgress(System.nanoTime()),
            receiverOutput);
        senderThread = new Thread(sender, "test-sender");
        receiverThread = new Thread(receiver, "test-receiver");
        final Throwable[] uncaught = new Throwable[1];
        senderThread.setUncaughtExceptionHandler((thread, ex) -> uncaught[0] = ex);
        receiverThread.setUncaughtExceptionHandler((thread, ex) -> uncaught[0] = ex);
        senderThread.start();
        receiverThread.start();
        final IdleStrategy idle = idle();
        while (senderThread.isAlive() || receiverThread.isAlive() || !senderPipes.outbound().isDrained() ||
            !receiverPipes.outbound().isDrained())
        {
            int work = move(senderPipes.outbound(), receiverPipes.inbound(), tamper);
            work += move(receiverPipes.outbound(), senderPipes.inbound(), null);
            if (senderPipes.isFinished() && receiverPipes.isFinished())
            {
                // Whatever is left has nobody to read it, as after a connection closes.
                drain(senderPipes.outbound());
                drain(receiverPipes.outbound());
            }
            else if (senderPipes.isFinished() && senderPipes.outbound().isDrained() && receiverThread.isAlive())
            {
                receiverPipes.fail("the sender closed the connection before the session was complete");
            }
            else if (receiverPipes.isFinished() && receiverPipes.outbound().isDrained() && senderThread.isAlive())
            {
                senderPipes.fail("the receiver closed the connection before the session was complete");
            }
            idle.idle(work);
        }
        senderThread.join();
        receiverThread.join();
        if (null != uncaught[0])
        {
            throw new AssertionError("a worker failed", uncaught[0]);
        }
        return this;
    }

    static ReceiveSettings settings(final Path directory, final boolean overwrite, final boolean resumeOnly,
        final DiskSpace diskSpace) throws java.io.IOException
    {
        return new ReceiveSettings(new DestinationPaths(directory), overwrite, resumeOnly, new SpaceBudget(diskSpace),
            new FileLeases());
    }

    private static SessionPipes pipes(final int inboundSlotBytes)
    {
        return new SessionPipes(new SlotPipe(16, Messages.MAX_MESSAGE_BYTES), new SlotPipe(64, inboundSlotBytes),
            idle());
    }

    private static IdleStrategy idle()
    {
        return new BackoffIdleStrategy(10, 10, 1_000, 100_000);
    }

    private static int move(final SlotPipe from, final SlotPipe to, final Consumer<Slot> tamper)
    {
        int moved = 0;
        while (to.freeSlots() > 0)
        {
            final Slot slot = from.poll();
            if (null == slot)
            {
                break;
            }
            if (null != tamper)
            {
                tamper.accept(slot);
            }
            final Slot copy = to.claim();
            copy.buffer().putBytes(0, slot.buffer(), 0, slot.length());
            copy.length(slot.length());
            from.release(slot);
            to.commit(copy);
            moved++;
        }
        return moved;
    }

    private static void drain(final SlotPipe pipe)
    {
        Slot slot;
        while (null != (slot = pipe.poll()))
        {
            pipe.release(slot);
        }
    }
}
