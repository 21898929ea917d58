package io.pacelink.perf.scale;

import io.pacelink.transport.Endpoint;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The CPU time of an endpoint's agent thread (DEDICATED mode), apart from the process's: the scale server's own loop
 * reads every connection whenever datagrams arrive (10,000 connections' keep-alives keep it busy), and that is the
 * application's cost, not the endpoint's. The thread is found by the name Agrona's runner gives it, the agent's role
 * name ({@code pacelink-} and the endpoint's address).
 */
final class AgentCpu
{
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final String roleName;
    private long threadId = -1;

    /**
     * @param endpoint the endpoint, in DEDICATED mode.
     */
    AgentCpu(final Endpoint endpoint)
    {
        this.roleName = endpoint.agent().roleName();
    }

    /**
     * @return the agent thread's CPU time so far in nanoseconds, or -1 if it cannot be found or measured.
     */
    long cpuNs()
    {
        if (threadId < 0)
        {
            for (final Thread thread : Thread.getAllStackTraces().keySet())
            {
                if (roleName.equals(thread.getName()))
                {
                    threadId = thread.getId();
                }
            }
        }
        return threadId < 0 || !threads.isThreadCpuTimeSupported() ? -1 : threads.getThreadCpuTime(threadId);
    }
}
