package dev.callbench;

import com.google.gson.annotations.SerializedName;

/**
 * One timed round: K calls, their wall time and the calling thread's CPU
 * time over the same block ({@code cpuNs} null if the JVM cannot tell).
 * With one intra-op thread the runtimes compute on the calling thread, so
 * on a busy machine the CPU time shows the work without other processes' share.
 */
public record Round(int calls, long ns, @SerializedName("cpu_ns") Long cpuNs) {}
