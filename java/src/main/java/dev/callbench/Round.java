package dev.callbench;

import com.google.gson.annotations.SerializedName;

/**
 * One timed round: K calls, their wall time and the calling thread's CPU
 * time over the same block ({@code cpuNs} null if the JVM cannot tell).
 * With one intra-op thread the runtimes compute on the calling thread, so
 * on a busy machine the CPU time shows the work without other processes' share.
 * {@code startNs} is the round's start on {@code System.nanoTime}, which HotSpot reads
 * from CLOCK_MONOTONIC on Linux: the machine's clock, so the harness can put N
 * processes' rounds on one line (contract 4's processes).
 */
public record Round(int calls, long ns, @SerializedName("cpu_ns") Long cpuNs,
        @SerializedName("start_ns") long startNs) {

    /** The round's end on the same clock. */
    public long endNs() {
        return startNs + ns;
    }
}
