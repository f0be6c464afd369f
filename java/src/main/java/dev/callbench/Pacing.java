package dev.callbench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Contract 6's paced rounds: one round's arrivals and what each caller made of them. The
 * calls arrive on the harness's schedule (K arrival offsets in ns, {@link #readSchedule})
 * from START, an absolute time on the machine's monotonic clock ({@code System.nanoTime}
 * is CLOCK_MONOTONIC on Linux, the clock Python's {@code time.monotonic_ns} and C++'s
 * {@code steady_clock} read), or from {@link #PACED_LEAD_NS} after the set-up when START is
 * absent; the set-up (slots, poisoned outputs, callers released) is done before it. A free
 * caller takes the next arrival (one atomic counter for all callers), waits for its time
 * if it is early ({@link #waitUntil}: a park to {@link #SPIN_NS} before it, then a spin on
 * the clock that yields the core each turn), makes the call and keeps three times of it
 * from its scheduled arrival (due): when it took it (negative: it was waiting), when the
 * call started, when it ended. Wait is start - due, service end - start: a call that
 * queued behind a slow one carries the queue in its wait, not its service (no coordinated
 * omission). Arrival j is served in slot j mod M (M: the calls the run's buffers hold) of
 * the caller that took it, with that slot's samples; the outputs hold each slot's last
 * arrival.
 *
 * <p>Each arrival's times are written by the one caller that took it, each caller's
 * figures by itself; they are read after every caller has reported through the callers'
 * queue, which orders the writes before the reads.
 */
public final class Pacing {
    /**
     * A caller early for its arrival parks until this long before it, then spins: a park
     * overshoots by tens of µs, a call of our MLP takes a few.
     */
    public static final long SPIN_NS = 200_000;
    /** A round without START begins this long after the set-up is done (its release off the clock too). */
    public static final long PACED_LEAD_NS = 1_000_000;

    /** One call of a caller's, in slot {@code slot} of its buffers. */
    @FunctionalInterface
    public interface SlotCall {
        void call(int slot) throws Exception;
    }

    // offsets, times and startNs are read by the batcher (Batcher.java) too.
    final long[] offsets;
    private final int slots;
    final long[] times; // K taken, then K started, then K ended, ns from due
    private final int[] servedBy;
    private final long[] callerCalls;
    private final long[] ends;
    private final AtomicInteger next = new AtomicInteger();
    long startNs;
    private long readyNs;
    private long[] batchSizes; // the batcher's: the calls that took k arrivals at k - 1

    /** {@code slots}: M, the calls the run's buffers hold. */
    public Pacing(long[] offsets, int callers, int slots) {
        this.offsets = offsets;
        this.slots = slots;
        this.times = new long[3 * offsets.length];
        this.servedBy = new int[offsets.length];
        this.callerCalls = new long[callers];
        this.ends = new long[callers];
    }

    /**
     * {@code paced FILE}'s arrival offsets: K &gt;= 1 int64 ns, non-negative and
     * non-decreasing (else a {@link DataException} naming it).
     */
    public static long[] readSchedule(Path path) throws DataException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new DataException(path, "cannot read the schedule (" + CallbenchException.oneLine(e) + ")", e);
        }
        if (bytes.length == 0 || bytes.length % Long.BYTES != 0) {
            throw new DataException(path, "a schedule is int64 arrival offsets; " + bytes.length + " bytes is not");
        }
        long[] offsets = new long[bytes.length / Long.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(offsets);
        for (int j = 0; j < offsets.length; j++) {
            if (offsets[j] < 0 || (j > 0 && offsets[j] < offsets[j - 1])) {
                throw new DataException(path, "arrival offsets must be non-negative and non-decreasing");
            }
        }
        return offsets;
    }

    /**
     * Back on the clock at {@code dueNs} or just after (a park, then a spin that yields the
     * core each turn: a caller waiting must not hold the core from one calling;
     * {@code Thread.yield} is sched_yield on Linux); the clock's reading then.
     */
    public static long waitUntil(long dueNs) {
        long left = dueNs - System.nanoTime();
        if (left > SPIN_NS) {
            LockSupport.parkNanos(left - SPIN_NS);
        }
        while (true) {
            long now = System.nanoTime();
            if (now - dueNs >= 0) {
                return now;
            }
            Thread.yield();
        }
    }

    /** The slots the round fills: min(K, M). */
    public int filled() {
        return Math.min(offsets.length, slots);
    }

    /** The set-up is done: the round starts at {@code start}, or {@link #PACED_LEAD_NS} from now when null. */
    public void begin(Long start) {
        readyNs = System.nanoTime();
        startNs = start == null ? readyNs + PACED_LEAD_NS : start;
    }

    /**
     * Caller {@code caller} serves arrivals until none is left. A failing call ends its
     * caller's serving with the failure.
     */
    public void serve(int caller, SlotCall call) throws Exception {
        int count = offsets.length;
        long served = 0;
        long last = 0;
        try {
            for (int j = next.getAndIncrement(); j < count; j = next.getAndIncrement()) {
                long due = startNs + offsets[j];
                long now = System.nanoTime();
                long begin = now - due < 0 ? waitUntil(due) : now;
                call.call(j % slots);
                last = System.nanoTime();
                times[j] = now - due;
                times[count + j] = begin - due;
                times[2 * count + j] = last - due;
                servedBy[j] = caller;
                served++;
            }
        } finally {
            callerCalls[caller] = served;
            ends[caller] = last;
        }
    }

    /**
     * The one batcher served every arrival, its last call ending at {@code endNs}, its calls
     * by the arrivals they took ({@code sizes[k - 1]}: the calls of k; contract 7).
     */
    void servedByOne(long endNs, long[] sizes) {
        callerCalls[0] = offsets.length;
        ends[0] = endNs;
        batchSizes = sizes.clone();
    }

    /** The caller that served each filled slot's last arrival. */
    public int[] slotCallers() {
        int[] owners = new int[filled()];
        for (int j = offsets.length - filled(); j < offsets.length; j++) {
            owners[j % slots] = servedBy[j];
        }
        return owners;
    }

    /** The {@code --latencies} of the round: K taken, then K started, then K ended, ns from each due time. */
    public long[] times() {
        return times.clone();
    }

    /** The {@code paced} answer, once every caller is done. */
    public Map<String, Object> answer() {
        long end = Long.MIN_VALUE;
        for (long e : ends) {
            end = Math.max(end, e);
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("event", "paced");
        fields.put("calls", (long) offsets.length);
        fields.put("ns", end - startNs);
        fields.put("start_ns", startNs);
        fields.put("end_ns", end);
        fields.put("ready_ns", readyNs);
        fields.put("slots", (long) filled());
        fields.put("callers", (long) callerCalls.length);
        fields.put("caller_calls", callerCalls.clone());
        if (batchSizes != null) {
            fields.put("batch_sizes", batchSizes.clone());
        }
        return fields;
    }
}
