// rounds: the warm-up, one timed round and the latency pass of a
// TensorModel (contract 3; our MLP's float Model through its FloatModel
// adapter). Call i takes samples [i*B, (i+1)*B) of every input and stores
// each output's batch at its place in that output's buffer; before each round
// every output is filled with what no call gives (NaN, an integer's smallest
// value). The rounds read the clock
// (time.Now, monotonic) and the CPU clock (the calling thread's,
// CLOCK_THREAD_CPUTIME_ID) they read. The CPU time is the calling thread's
// only while the goroutine is locked to it: DriverMain calls
// runtime.LockOSThread before loading the model, and cgo calls made from a
// locked goroutine run on that same thread.

package kit

import (
	"time"

	"golang.org/x/sys/unix"
)

// Round is one timed round: calls 0 .. Calls-1, wall and thread CPU time, and
// when it ran on the machine's monotonic clock (MonotonicNanos), so the harness
// can put N processes' rounds on one line (contract 4's processes).
type Round struct {
	Calls   int64 `json:"calls"`
	NS      int64 `json:"ns"`
	CPUNS   int64 `json:"cpu_ns"`
	StartNS int64 `json:"start_ns"`
	EndNS   int64 `json:"end_ns"`
	// Contract 4, at N > 1 callers: N, and each caller's own span (NS runs from
	// the first caller's start to the last caller's end, CPUNS is all of theirs).
	Callers  int     `json:"callers,omitempty"`
	CallerNS []int64 `json:"caller_ns,omitempty"`
}

// MonotonicNanos reads CLOCK_MONOTONIC, the clock every process of the machine
// reads (time.Now's monotonic reading is the same clock, but will not say its value).
func MonotonicNanos() int64 {
	return clockNanos(unix.CLOCK_MONOTONIC)
}

// ThreadCPUNanos is the calling thread's CPU time, in ns.
func ThreadCPUNanos() int64 {
	return clockNanos(unix.CLOCK_THREAD_CPUTIME_ID)
}

// clockNanos is a clock's reading in ns: 0 if it cannot be read (Linux always has
// the clocks read here; 0 keeps a round's figures honest, as cpu_ns 0).
func clockNanos(clock int32) int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(clock, &ts); err != nil {
		return 0
	}
	return ts.Nano()
}

// Rounds drives a TensorModel over every input's samples.
type Rounds struct {
	model     TensorModel
	inputs    []Samples
	maxCalls  int
	inSteps   []int // bytes one call takes of each input
	outSteps  []int // bytes one call stores of each output
	dtypes    []Dtype
	outputs   [][]byte // each output's maxCalls*B samples; the last round's come first
	scratch   [][]byte // one call of each output, for the latency pass
	in, out   [][]byte // the views of the call being made
	lastCalls int
	// A FloatModel's Model, called on float32 views of the one input and
	// output as it was before the adapter: no views built per call.
	floats                    Model
	floatIn, floatOut         []float32
	floatScratch              []float32
	floatInStep, floatOutStep int
}

// NewRounds: each input holds at least maxCalls*batch samples (RequireSamples).
func NewRounds(model TensorModel, inputs []Samples, maxCalls, batch int) *Rounds {
	s := model.Signature()
	r := &Rounds{model: model, inputs: inputs, maxCalls: maxCalls,
		in: make([][]byte, len(s.Inputs)), out: make([][]byte, len(s.Outputs))}
	for _, t := range s.Inputs {
		r.inSteps = append(r.inSteps, batch*t.SampleBytes())
	}
	for _, t := range s.Outputs {
		step := batch * t.SampleBytes()
		r.outSteps = append(r.outSteps, step)
		r.dtypes = append(r.dtypes, t.Dtype)
		r.outputs = append(r.outputs, AlignedBytes(maxCalls*step))
		r.scratch = append(r.scratch, AlignedBytes(step))
	}
	if f, ok := model.(FloatModel); ok {
		r.floats = f.Model
		r.floatIn, r.floatOut, r.floatScratch = floats(inputs[0].Bytes), floats(r.outputs[0]), floats(r.scratch[0])
		r.floatInStep, r.floatOutStep = batch*InputWidth, batch*OutputWidth
	}
	return r
}

// call makes call i into the outputs' place i, or into scratch.
func (r *Rounds) call(i int, scratch bool) error {
	if r.floats != nil {
		out := r.floatScratch
		if !scratch {
			out = r.floatOut[i*r.floatOutStep : (i+1)*r.floatOutStep]
		}
		return r.floats.Call(r.floatIn[i*r.floatInStep:(i+1)*r.floatInStep], out)
	}
	for k, step := range r.inSteps {
		r.in[k] = r.inputs[k].Bytes[i*step : (i+1)*step]
	}
	for k, step := range r.outSteps {
		if scratch {
			r.out[k] = r.scratch[k]
		} else {
			r.out[k] = r.outputs[k][i*step : (i+1)*step]
		}
	}
	return r.model.Call(r.in, r.out)
}

// Warmup is what the warm-up did: the ready line says it.
type Warmup struct {
	Calls int
	NS    int64
}

// MinWarmupCalls are the calls a time-limited warm-up makes at least (fewer only when
// --warmup asks fewer).
const MinWarmupCalls = 5

// WarmUpCalls is the contract's warm-up: call(i) for warm-up calls j = 0, 1, ... with
// i = j mod n, until calls of them, or until at least MinWarmupCalls and seconds (> 0) have
// passed. The clock is read after each call: the warm-up is not timed.
func WarmUpCalls(calls int, seconds float64, n int, call func(i int) error) (Warmup, error) {
	start := time.Now()
	budget := time.Duration(seconds * 1e9)
	least := min(calls, MinWarmupCalls)
	done := 0
	for done < calls {
		if err := call(done % n); err != nil {
			return Warmup{done, time.Since(start).Nanoseconds()}, err
		}
		done++
		if budget > 0 && done >= least && time.Since(start) >= budget {
			break
		}
	}
	return Warmup{done, time.Since(start).Nanoseconds()}, nil
}

// WarmUp is the warm-up (WarmUpCalls): at most calls untimed calls, seconds once a few are made.
func (r *Rounds) WarmUp(calls int, seconds float64) (Warmup, error) {
	return WarmUpCalls(calls, seconds, r.maxCalls, func(i int) error { return r.call(i, false) })
}

// Round times calls 0 .. k-1 as one block, each output poisoned first (untimed).
func (r *Rounds) Round(k int) (Round, error) {
	if err := checkCalls("round", k, r.maxCalls); err != nil {
		return Round{}, err
	}
	r.poison(k)
	cpuStart := ThreadCPUNanos()
	startNS := MonotonicNanos()
	start := time.Now()
	if err := r.calls(k); err != nil {
		return Round{}, err
	}
	ns := time.Since(start).Nanoseconds()
	cpuNS := ThreadCPUNanos() - cpuStart
	return Round{Calls: int64(k), NS: ns, CPUNS: cpuNS, StartNS: startNS, EndNS: startNS + ns}, nil
}

// calls makes calls 0 .. k-1 into the outputs; a FloatModel's loop is the
// float call's own (its rows count as they did before the adapter).
func (r *Rounds) calls(k int) error {
	if r.floats != nil {
		for i := 0; i < k; i++ {
			in := r.floatIn[i*r.floatInStep : (i+1)*r.floatInStep]
			if err := r.floats.Call(in, r.floatOut[i*r.floatOutStep:(i+1)*r.floatOutStep]); err != nil {
				return err
			}
		}
		return nil
	}
	for i := 0; i < k; i++ {
		if err := r.call(i, false); err != nil {
			return err
		}
	}
	return nil
}

// Latencies times calls 0 .. k-1 one at a time into scratch buffers (the
// outputs keep the last round's); ns per call.
func (r *Rounds) Latencies(k int) ([]int64, error) {
	if err := checkCalls("latencies", k, r.maxCalls); err != nil {
		return nil, err
	}
	ns := make([]int64, k)
	for i := range ns {
		start := time.Now()
		if err := r.call(i, true); err != nil {
			return nil, err
		}
		ns[i] = time.Since(start).Nanoseconds()
	}
	return ns, nil
}

// Paced serves the arrivals of offsets from startNS (contract 6, paced.go) at one
// caller: arrival j in slot j mod M of the run's buffers.
func (r *Rounds) Paced(offsets []int64, startNS *int64) (Paced, error) {
	pacing := NewPacing(offsets, 1, r.maxCalls)
	r.poison(pacing.Filled())
	pacing.Begin(startNS)
	if err := pacing.Serve(0, func(slot int) error { return r.call(slot, false) }); err != nil {
		return Paced{}, err
	}
	return pacing.Result(), nil
}

// poison fills each output's first k calls with what no call gives; they are the
// outputs the next round leaves.
func (r *Rounds) poison(k int) {
	for o, step := range r.outSteps {
		Poison(r.outputs[o][:k*step], r.dtypes[o])
	}
	r.lastCalls = k
}

// LastOutputs are each output's last-round samples (k*B of them), in the
// model's order; none before any round.
func (r *Rounds) LastOutputs() [][]byte {
	if r.lastCalls == 0 {
		return nil
	}
	all := make([][]byte, len(r.outputs))
	for o, step := range r.outSteps {
		all[o] = r.outputs[o][:r.lastCalls*step]
	}
	return all
}

// checkCalls is a UsageError unless 1 <= k <= maxCalls.
func checkCalls(command string, k, maxCalls int) error {
	if k < 1 || k > maxCalls {
		return Usagef("%s K needs 1 <= K <= %d (--calls), got %d", command, maxCalls, k)
	}
	return nil
}
