package io.pacelink.perf;

/**
 * JVM options every benchmark fork needs, shared by the {@code @Fork(jvmArgsAppend = ...)} of each benchmark so that
 * {@code java -jar benchmarks.jar} works without extra flags.
 */
public final class BenchmarkJvm
{
    /**
     * Agrona 2.x reaches into {@code jdk.internal.misc} on Java 17 (the same export Surefire's argLine carries).
     */
    public static final String ADD_EXPORTS_MISC = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";

    /**
     * Reflective access to {@code jdk.internal.misc}, also needed by Agrona 2.x on Java 17.
     */
    public static final String ADD_OPENS_MISC = "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED";

    private BenchmarkJvm()
    {
    }
}
