package io.pacelink.transport.port;

/**
 * Runs the calling thread under Linux's real-time policy {@code SCHED_FIFO} (sched(7)), through the batched port's
 * JNI shim: a thread that must act at a given instant — a relay releasing a datagram when its emulated delay ends —
 * then takes a core from every normal thread the moment it wakes. A normal thread, even at nice -10, waits for the
 * fair scheduler's next preemption point when both cores are busy: up to a scheduler tick (4 ms at 250 Hz), which is
 * what a relay's late releases measured on a two-core machine under load. Threads the caller starts afterwards run
 * under the normal policy ({@code SCHED_RESET_ON_FORK}).
 * <p>
 * Only for a thread that sleeps most of the time: a real-time thread that never sleeps starves the normal ones on its
 * core (the kernel's real-time throttling leaves them 5 % by default, {@code sched_rt_runtime_us}).
 */
public final class RealtimePriority
{
    /**
     * The lowest {@code SCHED_FIFO} priority.
     */
    public static final int MIN = 1;

    /**
     * The highest {@code SCHED_FIFO} priority.
     */
    public static final int MAX = 99;

    private static final int EPERM = 1;

    private RealtimePriority()
    {
    }

    /**
     * Run the calling thread {@code SCHED_FIFO} at this priority.
     *
     * @param priority {@link #MIN} to {@link #MAX}.
     * @return null if the thread now runs so, else why it does not (one line): the native library is missing, or the
     * process may not (it needs {@code CAP_SYS_NICE} or an {@code RLIMIT_RTPRIO} of at least the priority).
     * @throws IllegalArgumentException if the priority is out of range.
     */
    public static String applyToCurrentThread(final int priority)
    {
        if (priority < MIN || priority > MAX)
        {
            throw new IllegalArgumentException("a SCHED_FIFO priority is " + MIN + "-" + MAX + ", got " + priority);
        }
        final String unavailable = NativeLibrary.unavailableReason();
        if (null != unavailable)
        {
            return unavailable;
        }
        final int result = NativeUdp.setRealtimePriority(priority);
        if (0 == result)
        {
            return null;
        }
        return "sched_setscheduler(SCHED_FIFO, " + priority + "): " + NativeUdp.describe(result) +
            (-EPERM == result ? "; it needs CAP_SYS_NICE or an RLIMIT_RTPRIO of at least " + priority +
            " (ulimit -r)" : "");
    }
}
