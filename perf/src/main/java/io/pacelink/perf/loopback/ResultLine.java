package io.pacelink.perf.loopback;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one process of a loopback run measured, as the single line {@code RESULT {json}} it prints when it ends, which
 * {@link LoopbackSuite} reads back. Field names carry their units ({@code _ns}, {@code _bytes}).
 */
public final class ResultLine
{
    /**
     * Starts the line a process prints with its result.
     */
    public static final String PREFIX = "RESULT ";

    /**
     * Printed by a receiver once it is ready to receive: the suite starts the sender then.
     */
    public static final String READY = "READY";

    /**
     * proc(5)'s clock tick, {@code sysconf(_SC_CLK_TCK)}: 100 Hz on Linux for every architecture the JDK runs on.
     */
    private static final long NS_PER_CLOCK_TICK = 10_000_000L;

    private final Map<String, Object> fields = new LinkedHashMap<>();

    /**
     * @param name  field name.
     * @param value its value.
     * @return this.
     */
    public ResultLine put(final String name, final Object value)
    {
        fields.put(name, value);
        return this;
    }

    /**
     * @return the line to print.
     */
    public String format()
    {
        final StringWriter text = new StringWriter();
        try (JsonGenerator json = new JsonFactory().createGenerator(text))
        {
            json.writeStartObject();
            for (final Map.Entry<String, Object> field : fields.entrySet())
            {
                json.writeFieldName(field.getKey());
                final Object value = field.getValue();
                if (value instanceof Double || value instanceof Float)
                {
                    json.writeNumber(((Number)value).doubleValue());
                }
                else if (value instanceof Number)
                {
                    json.writeNumber(((Number)value).longValue());
                }
                else
                {
                    json.writeString(String.valueOf(value));
                }
            }
            json.writeEndObject();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return PREFIX + text;
    }

    /**
     * @param line a line a process printed.
     * @return its fields, or null if it is not a result line.
     */
    public static Map<String, Object> parse(final String line)
    {
        if (!line.startsWith(PREFIX))
        {
            return null;
        }
        try
        {
            @SuppressWarnings("unchecked")
            final Map<String, Object> parsed = new ObjectMapper().readValue(line.substring(PREFIX.length()), Map.class);
            return parsed;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("not a result line: " + line, ex);
        }
    }

    /**
     * @return CPU time this process has used so far (every thread, user and system), or -1 where the JVM does not
     * tell. The first call loads the management classes, which takes seconds on a loaded machine: a process calls it
     * once before it starts measuring.
     */
    public static long processCpuNs()
    {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean bean ?
            bean.getProcessCpuTime() : -1;
    }

    /**
     * The CPU time (user and system) of each thread of this process so far, by the kernel's account (proc(5)'s
     * {@code /proc/self/task/TID/stat}, 10-ms ticks), keyed by thread id with its name: which threads of a sending
     * process share its CPU (the sending thread, the JIT's compilers, the collector).
     *
     * @return thread id to {@code "name\tnanoseconds"}; empty where there is no such directory.
     */
    public static Map<Long, String> threadCpuNs()
    {
        final Map<Long, String> threads = new LinkedHashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task")))
        {
            for (final Path task : tasks)
            {
                try
                {
                    final String stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
                    final String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
                    threads.put(Long.parseLong(task.getFileName().toString()), name + "\t" +
                        (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NS_PER_CLOCK_TICK);
                }
                catch (final IOException | RuntimeException ex)
                {
                    // A thread that ended meanwhile.
                }
            }
        }
        catch (final IOException ex)
        {
            return threads;
        }
        return threads;
    }

    /**
     * @param before    {@link #threadCpuNs()} at the start of a window.
     * @param after     {@link #threadCpuNs()} at its end.
     * @param elapsedNs the window's length.
     * @param top       how many threads to name.
     * @return the {@code top} threads that used the most CPU in the window, each as {@code name=percent of a core},
     * busiest first, separated by commas.
     */
    public static String busiestThreads(
        final Map<Long, String> before, final Map<Long, String> after, final long elapsedNs, final int top)
    {
        final List<Map.Entry<String, Long>> used = new ArrayList<>();
        for (final Map.Entry<Long, String> thread : after.entrySet())
        {
            final String[] now = thread.getValue().split("\t");
            final String then = before.get(thread.getKey());
            final long startNs = null == then ? 0 : Long.parseLong(then.split("\t")[1]);
            used.add(Map.entry(now[0], Long.parseLong(now[1]) - startNs));
        }
        used.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < Math.min(top, used.size()); i++)
        {
            text.append(0 == i ? "" : ", ").append(used.get(i).getKey()).append('=')
                .append(String.format(Locale.ROOT, "%.1f", 100.0 * used.get(i).getValue() / elapsedNs));
        }
        return text.toString();
    }

    /**
     * The kernel's account of CPU time split into user and system time ({@code utime} and {@code stime} of
     * proc(5)'s {@code stat}, in clock ticks of 10 ms), for a process or one of its threads: which side of the
     * system-call boundary a sender's time is on, without a profiler (whose samples land in a long system call or
     * beside it depending on their interval on this kind of virtual machine).
     *
     * @param statPath {@code /proc/self/stat} for the process, {@code /proc/thread-self/stat} for the calling thread.
     * @return {@code {userNs, systemNs}}, or {@code {-1, -1}} where there is no such file.
     */
    public static long[] userSystemCpuNs(final String statPath)
    {
        try
        {
            final String stat = Files.readString(Path.of(statPath), StandardCharsets.US_ASCII);
            // Fields after the command's closing parenthesis, from the state (field 3): utime is field 14, stime 15.
            final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return new long[] { Long.parseLong(fields[11]) * NS_PER_CLOCK_TICK, Long.parseLong(fields[12]) *
                NS_PER_CLOCK_TICK };
        }
        catch (final IOException | RuntimeException ex)
        {
            return new long[] { -1, -1 };
        }
    }
}
