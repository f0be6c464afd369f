package dev.callbench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Contract 4's N callers calling one loaded {@link TakesCallers} model at once. Each
 * caller is a platform thread of its own (a single-thread executor: a caller's calls
 * stay on one thread, so its CPU time is that thread's and a runtime's thread-local
 * state stays put) with its own call state ({@code model.caller()}) and its own
 * {@link Rounds} over its own inputs: the same timed loop as one caller. The threads
 * start after the load, warm up together and wait for their next task between
 * rounds; a round hands every caller its task, one latch releases them together, and
 * the round runs from the first caller's start to the last caller's end on
 * {@code System.nanoTime}. Caller c's call i takes the samples of call
 * (c*K + i) mod S (S: the calls the inputs hold), copied into its own inputs before
 * the release, outside the timing.
 *
 * <p>A caller whose call fails fails the round at once ({@link CallerFailedException}:
 * the others are not waited for, one may be stuck in a call); the threads are daemons,
 * so the process ends with them. A run without a failure closes every caller's state,
 * then the threads.
 */
public final class Callers implements Runner, AutoCloseable {
    /** What one caller did with a task: its round, its warm-up, its latencies, or its failure. */
    private record Outcome(int caller, Round round, Warmup warmup, long[] latencies, Exception failure) {}

    /** A task of one caller's, run on its thread. */
    private interface Task {
        Outcome run(int caller, Rounds rounds) throws Exception;
    }

    private final TakesCallers model;
    private final List<Tensors.Samples> every;
    private final int held;
    private final int[] inSteps;
    private final int maxCalls;
    private final List<TensorModel> states = new ArrayList<>();
    private final List<ByteBuffer[]> inputs = new ArrayList<>(); // each caller's maxCalls*B samples
    private final List<Rounds> rounds = new ArrayList<>();
    private final List<ExecutorService> threads = new ArrayList<>();
    private final BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
    private final List<Round> done = new ArrayList<>();
    private int[] slotCallers; // after a paced round: each slot's last arrival's caller; else null

    /** {@code options.callers} callers of {@code model}, each with its call state and thread. */
    public Callers(TakesCallers model, Path modelPath, List<Tensors.Samples> every, Options options)
            throws CallbenchException {
        this.model = model;
        this.every = every;
        this.maxCalls = options.calls;
        List<Tensor> ins = model.signature().inputs();
        this.held = every.get(0).count() / options.batch;
        this.inSteps = ins.stream().mapToInt(t -> options.batch * t.sampleBytes()).toArray();
        for (int c = 0; c < options.callers; c++) {
            TensorModel state;
            try {
                state = model.caller();
            } catch (Exception | LinkageError e) {
                close();
                throw new CallerFailedException(c, e);
            }
            states.add(state);
            List<Tensors.Samples> mine = new ArrayList<>();
            ByteBuffer[] buffers = new ByteBuffer[inSteps.length];
            for (int k = 0; k < inSteps.length; k++) {
                buffers[k] = ByteBuffer.allocate(maxCalls * inSteps[k]).order(ByteOrder.LITTLE_ENDIAN);
                mine.add(new Tensors.Samples(buffers[k], maxCalls * options.batch));
            }
            inputs.add(buffers);
            rounds.add(new Rounds(state, modelPath, mine, maxCalls, options.batch));
            String name = "callbench-caller-" + c;
            threads.add(Executors.newSingleThreadExecutor(r -> {
                Thread thread = new Thread(r, name);
                thread.setDaemon(true);
                return thread;
            }));
        }
    }

    /** Every caller's warm-up over its own samples, all at once: the fewest calls any made. */
    public Warmup warmUp(int count, double seconds) throws CallbenchException {
        fillInputs(maxCalls);
        long start = System.nanoTime();
        int fewest = Integer.MAX_VALUE;
        for (Outcome outcome : runAll((c, r) -> new Outcome(c, null, r.warmUp(count, seconds), null, null))) {
            fewest = Math.min(fewest, outcome.warmup().calls());
        }
        return new Warmup(fewest, System.nanoTime() - start);
    }

    /** Caller c's call i: the samples of call (c*calls + i) mod S, for each input. */
    private void fillInputs(int calls) {
        fillInputs(calls, false);
    }

    /** As {@link #fillInputs(int)}; for a paced round's arrivals, every caller's call i: those of call i mod S. */
    private void fillInputs(int calls, boolean arrivals) {
        for (int c = 0; c < inputs.size(); c++) {
            int firstCall = arrivals ? 0 : c * calls;
            for (int k = 0; k < inSteps.length; k++) {
                int step = inSteps[k];
                for (int i = 0; i < calls; i++) {
                    int from = (firstCall + i) % held;
                    inputs.get(c)[k].put(i * step, every.get(k).bytes(), from * step, step);
                }
            }
        }
    }

    /** Hands every caller {@code task}, releases them together, and waits for every outcome. */
    private List<Outcome> runAll(Task task) throws CallbenchException {
        slotCallers = null;
        CountDownLatch release = new CountDownLatch(1);
        for (int c = 0; c < threads.size(); c++) {
            int caller = c;
            Rounds mine = rounds.get(c);
            threads.get(c).execute(() -> {
                Outcome outcome;
                try {
                    release.await();
                    outcome = task.run(caller, mine);
                } catch (Exception | LinkageError e) {
                    outcome = new Outcome(caller, null, null, null, e instanceof Exception x ? x : new Exception(e));
                }
                outcomes.add(outcome);
            });
        }
        release.countDown();
        Outcome[] each = new Outcome[threads.size()];
        for (int n = 0; n < each.length; n++) {
            Outcome outcome;
            try {
                outcome = outcomes.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CallerFailedException(-1, e);
            }
            if (outcome.failure() != null) {
                throw new CallerFailedException(outcome.caller(), outcome.failure());
            }
            each[outcome.caller()] = outcome;
        }
        return List.of(each);
    }

    @Override
    public int maxCalls() {
        return maxCalls;
    }

    @Override
    public Round round(int calls) throws CallbenchException {
        requireCalls(calls);
        fillInputs(calls);
        List<Outcome> each = runAll((c, r) -> new Outcome(c, r.round(calls), null, null, null));
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        Long cpu = 0L;
        long[] callerNs = new long[each.size()];
        for (int c = 0; c < callerNs.length; c++) {
            Round mine = each.get(c).round();
            first = Math.min(first, mine.startNs());
            last = Math.max(last, mine.endNs());
            cpu = cpu == null || mine.cpuNs() == null ? null : cpu + mine.cpuNs();
            callerNs[c] = mine.ns();
        }
        Round round = new Round(calls, last - first, cpu, first, callerNs);
        done.add(round);
        return round;
    }

    @Override
    public long[] latencies(int calls) throws CallbenchException {
        requireCalls(calls);
        fillInputs(calls);
        List<Outcome> each = runAll((c, r) -> new Outcome(c, null, null, r.latencies(calls), null));
        long[] all = new long[calls * each.size()];
        for (int c = 0; c < each.size(); c++) {
            System.arraycopy(each.get(c).latencies(), 0, all, c * calls, calls);
        }
        return all;
    }

    /** Every caller serving the arrivals of {@code offsets}, each taking the next, arrival j in its slot j mod M. */
    @Override
    public Pacing paced(long[] offsets, Long start) throws CallbenchException {
        Pacing pacing = new Pacing(offsets, threads.size(), maxCalls);
        fillInputs(pacing.filled(), true);
        rounds.forEach(r -> r.poisonSlots(pacing.filled()));
        // Made before the start: a lambda bootstraps at its first use.
        Task serve = (c, r) -> {
            r.serveArrivals(pacing, c);
            return new Outcome(c, null, null, null, null);
        };
        pacing.begin(start);
        runAll(serve);
        slotCallers = pacing.slotCallers();
        return pacing;
    }

    @Override
    public List<Round> done() {
        return Collections.unmodifiableList(done);
    }

    /**
     * Each output's last round, caller after caller, one output after another; after a
     * paced round, each slot's from the caller that served its last arrival, in slot order.
     */
    @Override
    public void writeOutputs(Path path) throws DataException {
        List<ByteBuffer[]> each = rounds.stream().map(Rounds::lastOutputs).toList();
        if (slotCallers != null) {
            ByteBuffer[] slotted = new ByteBuffer[each.get(0).length];
            for (int k = 0; k < slotted.length; k++) {
                int step = each.get(0)[k].remaining() / slotCallers.length;
                slotted[k] = ByteBuffer.allocate(step * slotCallers.length).order(ByteOrder.LITTLE_ENDIAN);
                for (int slot = 0; slot < slotCallers.length; slot++) {
                    slotted[k].put(each.get(slotCallers[slot])[k].slice(slot * step, step));
                }
                slotted[k].flip();
            }
            Outputs.writeOutputs(path, slotted);
            return;
        }
        ByteBuffer[] joined = new ByteBuffer[each.get(0).length];
        for (int k = 0; k < joined.length; k++) {
            int bytes = 0;
            for (ByteBuffer[] mine : each) {
                bytes += mine[k].remaining();
            }
            joined[k] = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
            for (ByteBuffer[] mine : each) {
                joined[k].put(mine[k].duplicate());
            }
            joined[k].flip();
        }
        Outputs.writeOutputs(path, joined);
    }

    /** The model's notes, with how its callers hold it. */
    public java.util.Map<String, Object> notes() {
        java.util.Map<String, Object> notes = new java.util.LinkedHashMap<>(model.notes());
        TakesCallers.Holding holding = model.holding();
        notes.put("callers", states.size());
        notes.put("callers_hold", holding.holds());
        notes.put("callers_how", holding.how());
        notes.put("callers_are", "platform threads, one single-thread executor each");
        return notes;
    }

    private void requireCalls(int calls) {
        if (calls < 1 || calls > maxCalls) {
            throw new IllegalArgumentException("calls " + calls + " outside 1.." + maxCalls);
        }
    }

    /** Every caller's state closed, then its thread. */
    @Override
    public void close() {
        states.forEach(TensorModel::close);
        threads.forEach(ExecutorService::shutdownNow);
    }
}
