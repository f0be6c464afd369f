package dev.callbench;

import java.nio.file.Path;
import java.util.List;

/** What {@link Serve} asks of the {@link Rounds} (or, at N callers, the {@link Callers}). */
public interface Runner {
    /** The most calls a round or latency pass may make (--calls). */
    int maxCalls();

    /** Times calls {@code 0 .. calls-1} as one block, every output poisoned first. */
    Round round(int calls) throws CallbenchException;

    /** The duration in ns of each of calls {@code 0 .. calls-1}, timed one at a time. */
    long[] latencies(int calls) throws CallbenchException;

    /**
     * Contract 6: serves the arrivals of {@code offsets} from {@code start} (ns on the
     * monotonic clock; null: {@link Pacing#PACED_LEAD_NS} after the set-up), arrival j in
     * slot j mod M (M: the calls the buffers hold); the round, done.
     */
    Pacing paced(long[] offsets, Long start) throws CallbenchException;

    /** Every round so far, in the order run. */
    List<Round> done();

    /** Writes the last round's outputs to {@code path} (--outputs). */
    void writeOutputs(Path path) throws DataException;
}
