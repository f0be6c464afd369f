package dev.callbench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One timed round: K calls, their wall time and the calling thread's CPU
 * time over the same block ({@code cpuNs} null if the JVM cannot tell).
 * With one intra-op thread the runtimes compute on the calling thread, so
 * on a busy machine the CPU time shows the work without other processes' share.
 * {@code startNs} is the round's start on {@code System.nanoTime}, which HotSpot reads
 * from CLOCK_MONOTONIC on Linux: the machine's clock, so the harness can put N
 * processes' rounds on one line (contract 4's processes). At N callers (contract 4)
 * {@code ns} runs from the first caller's start to the last caller's end, {@code cpuNs}
 * is every caller's thread together and {@code callerNs} each caller's own span
 * (null at one caller).
 */
public record Round(int calls, long ns, Long cpuNs, long startNs, long[] callerNs) {

    /** A round of one caller. */
    public Round(int calls, long ns, Long cpuNs, long startNs) {
        this(calls, ns, cpuNs, startNs, null);
    }

    /** The round's end on the same clock. */
    public long endNs() {
        return startNs + ns;
    }

    /** As the result line lists it: at N callers with {@code "callers": N} and {@code caller_ns}. */
    public Map<String, Object> fields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("calls", calls);
        fields.put("ns", ns);
        fields.put("cpu_ns", cpuNs);
        fields.put("start_ns", startNs);
        if (callerNs != null) {
            fields.put("callers", callerNs.length);
            fields.put("caller_ns", callerNs);
        }
        return fields;
    }
}
