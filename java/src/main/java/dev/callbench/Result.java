package dev.callbench;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result line (docs/contract.md, "The result line"): what the driver was
 * asked for, its runtime's version, the load time, the process's peak
 * resident memory, every round in the order run, and notes.
 */
public final class Result {
    /** Where the JPype host puts its own resident memory before the JVM started (bytes). */
    public static final String HOST_RSS_PROPERTY = "callbench.host_rss_bytes";

    /**
     * The kit's JSON writer (Gson): nulls written, not dropped (an unreadable
     * peak is null); characters such as {@code <} kept, since a note may quote a
     * library's message.
     */
    private static final Gson JSON = new GsonBuilder().serializeNulls().disableHtmlEscaping().create();

    private Result() {}

    /** One JSON value on one line: an answer of the dialogue, or the result line. */
    static String json(Object value) {
        return JSON.toJson(value);
    }

    public static String line(String driverId, Options options, String runtimeVersion, long loadNs,
            List<Round> rounds, Map<String, Object> driverNotes) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("driver", driverId);
        fields.put("calls", options.calls);
        fields.put("batch", options.batch);
        fields.put("threads", options.threads);
        if (options.callers > 1) {
            fields.put("callers", options.callers); // contract 4: echoed beside threads
        }
        fields.put("runtime_version", runtimeVersion);
        fields.put("load_ns", loadNs);
        fields.put("peak_rss_bytes", peakRssBytes(Path.of("/proc/self/status")));
        fields.put("rounds", rounds.stream().map(Round::fields).toList());
        fields.put("notes", withHeap(notes(driverNotes)));
        return json(fields);
    }

    /**
     * {@code notes} with the JVM's heap beside the resident set, after the rounds: how far the
     * collector had committed it ({@code jvm_heap_committed_bytes}, part of the peak), then the
     * live data a full collection leaves ({@code jvm_heap_live_bytes}). Two JVMs' peaks follow
     * how each sized its heap, so memory a caller adds is read against these too.
     */
    static Map<String, Object> withHeap(Map<String, Object> notes) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        notes.put("jvm_heap_committed_bytes", memory.getHeapMemoryUsage().getCommitted());
        memory.gc();
        notes.put("jvm_heap_live_bytes", memory.getHeapMemoryUsage().getUsed());
        return notes;
    }

    /**
     * The JVM, the host's resident memory (the JVM lives in the JPype host's
     * process, so {@code peak_rss_bytes} includes Python's share), then the driver's own.
     */
    static Map<String, Object> notes(Map<String, Object> driverNotes) {
        Map<String, Object> notes = new LinkedHashMap<>();
        notes.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        String host = System.getProperty(HOST_RSS_PROPERTY);
        if (host != null) {
            try {
                notes.put("host_rss_bytes", Long.parseLong(host.strip()));
            } catch (NumberFormatException e) {
                // Not a number: keep what the host said rather than drop it.
                notes.put("host_rss_bytes", host);
            }
        }
        // JSON has no NaN or Infinity: such a note is null.
        driverNotes.forEach((key, value) -> notes.put(key,
                value instanceof Double d && !Double.isFinite(d) ? null : value));
        return notes;
    }

    /** {@code VmHWM} of a {@code /proc/<pid>/status} file in bytes, or null if it cannot be read. */
    static Long peakRssBytes(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    String[] parts = line.substring("VmHWM:".length()).strip().split("\\s+");
                    if (parts.length == 2 && parts[1].equals("kB")) {
                        return Long.parseLong(parts[0]) * 1024;
                    }
                    return null;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return null;
        }
        return null;
    }
}
