package io.pacelink.transport.port;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(30)
class RealtimePriorityTest
{
    private static final String SCHED_OTHER = "0";
    private static final String SCHED_FIFO = "1";

    @Test
    void theCallingThreadRunsFifoAtThePriorityAndItsNewThreadsDoNotOrItSaysWhyNot() throws Exception
    {
        final AtomicReference<String> refusal = new AtomicReference<>();
        final AtomicReference<String[]> own = new AtomicReference<>();
        final AtomicReference<String[]> child = new AtomicReference<>();
        final AtomicReference<String[]> bystander = new AtomicReference<>();
        final Thread thread = new Thread(() ->
        {
            refusal.set(RealtimePriority.applyToCurrentThread(3));
            own.set(policyAndPriority());
            final Thread started = new Thread(() -> child.set(policyAndPriority()));
            started.start();
            join(started);
        });
        thread.start();
        thread.join();
        bystander.set(policyAndPriority());

        if (null == refusal.get())
        {
            assertEquals(SCHED_FIFO, own.get()[0], "the thread that asked");
            assertEquals("3", own.get()[1]);
        }
        else
        {
            // Without CAP_SYS_NICE or the native library: a reason, and the thread as it was.
            assertFalse(refusal.get().isBlank());
            assertEquals(SCHED_OTHER, own.get()[0], refusal.get());
        }
        assertEquals(SCHED_OTHER, child.get()[0], "a thread it starts (SCHED_RESET_ON_FORK)");
        assertEquals(SCHED_OTHER, bystander.get()[0], "the other threads of the process");
    }

    @Test
    void aPriorityOutsideOneToNinetyNineIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> RealtimePriority.applyToCurrentThread(0));
        assertThrows(IllegalArgumentException.class, () -> RealtimePriority.applyToCurrentThread(100));
    }

    /**
     * @return the calling thread's scheduling policy and real-time priority, fields 41 and 40 of proc(5)'s
     * {@code /proc/thread-self/stat}.
     */
    private static String[] policyAndPriority()
    {
        try
        {
            final String stat = Files.readString(Path.of("/proc/thread-self/stat"), StandardCharsets.US_ASCII);
            // Field 3 (state) is the first after the command's closing parenthesis.
            final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return new String[] {fields[41 - 3], fields[40 - 3]};
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static void join(final Thread thread)
    {
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
