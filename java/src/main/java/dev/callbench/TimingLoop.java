package dev.callbench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The measurement protocol of docs/contract.md, written once for every Java
 * driver: warm-up calls, timed repeats over consecutive samples, and optional
 * per-call latencies. Call {@code i} reads samples {@code [i*B, (i+1)*B)}.
 */
public final class TimingLoop {
    private TimingLoop() {}

    /** Warm-up call {@code j} reads the samples of call {@code j mod calls}; JIT warm-up happens here. */
    public static void warmup(Inference model, float[] inputs, float[] outputs, int calls, int batch,
            int warmup) throws Exception {
        for (int j = 0; j < warmup; j++) {
            model.call(inputs, (j % calls) * batch, outputs);
        }
    }

    /**
     * Per repeat: wall time ({@code wallNs}, the contract's {@code repeat_ns}) and
     * the calling thread's CPU time ({@code cpuNs}, -1 if the JVM cannot tell),
     * which shows how much of the wall time other processes took on a busy machine.
     */
    public record Repeats(long[] wallNs, long[] cpuNs) {}

    /** Times {@code repeats} passes over the same {@code calls} calls. */
    public static Repeats repeats(Inference model, float[] inputs, float[] outputs, int calls,
            int batch, int repeats) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        boolean cpu = threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled();
        long[] wall = new long[repeats];
        long[] cpuNs = new long[repeats];
        for (int r = 0; r < repeats; r++) {
            long cpuStart = cpu ? threads.getCurrentThreadCpuTime() : 0;
            long start = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                model.call(inputs, i * batch, outputs);
            }
            wall[r] = System.nanoTime() - start;
            cpuNs[r] = cpu ? threads.getCurrentThreadCpuTime() - cpuStart : -1;
        }
        return new Repeats(wall, cpuNs);
    }

    /** The duration in ns of each of the first {@code count} calls, timed one by one. */
    public static long[] latencies(Inference model, float[] inputs, float[] outputs, int count,
            int batch) throws Exception {
        long[] each = new long[count];
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            model.call(inputs, i * batch, outputs);
            each[i] = System.nanoTime() - start;
        }
        return each;
    }
}
