package dev.callbench;

import com.google.gson.annotations.SerializedName;

/** What the warm-up did: its calls and its wall time; the ready line says it. */
public record Warmup(@SerializedName("warmup_calls") int calls, @SerializedName("warmup_ns") long ns) {
    /** The calls a time-limited warm-up makes at least (fewer only when --warmup asks fewer). */
    public static final int MIN_CALLS = 5;
}
