// rounds: the warm-up, one timed round and the latency pass, with the clock
// (time.Now, monotonic) and the CPU clock (the calling thread's,
// CLOCK_THREAD_CPUTIME_ID) they read. The CPU time is the calling thread's
// only while the goroutine is locked to it: DriverMain calls
// runtime.LockOSThread before loading the model, and cgo calls made from a
// locked goroutine run on that same thread.

package kit

import (
	"math"
	"time"

	"golang.org/x/sys/unix"
)

// Round is one timed round: calls 0 .. Calls-1, wall and thread CPU time.
type Round struct {
	Calls int64 `json:"calls"`
	NS    int64 `json:"ns"`
	CPUNS int64 `json:"cpu_ns"`
}

// ThreadCPUNanos is the calling thread's CPU time, in ns.
func ThreadCPUNanos() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0 // Linux always has this clock; 0 keeps a round's figures honest (cpu_ns 0)
	}
	return ts.Nano()
}

// Rounds drives a Model over the inputs: call i takes samples
// [i*B, (i+1)*B) and stores its outputs at [i*B, (i+1)*B) of the outputs.
type Rounds struct {
	model     Model
	inputs    []float32
	maxCalls  int
	inStep    int
	outStep   int
	outputs   []float32 // maxCalls*B floats; the last round's come first
	scratch   []float32 // one call's outputs, for the latency pass
	lastCalls int
}

// NewRounds: inputs hold at least maxCalls*batch samples (RequireSamples).
func NewRounds(model Model, inputs []float32, maxCalls, batch int) *Rounds {
	return &Rounds{
		model:    model,
		inputs:   inputs,
		maxCalls: maxCalls,
		inStep:   batch * InputWidth,
		outStep:  batch * OutputWidth,
		outputs:  make([]float32, maxCalls*batch*OutputWidth),
		scratch:  make([]float32, batch*OutputWidth),
	}
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
	return WarmUpCalls(calls, seconds, r.maxCalls, func(i int) error { return r.call(i, r.out(i)) })
}

// Round times calls 0 .. k-1 as one block. The outputs are filled with NaN
// first (untimed), so that a call that stores nothing shows up as an error.
func (r *Rounds) Round(k int) (Round, error) {
	if err := r.check("round", k); err != nil {
		return Round{}, err
	}
	nan := float32(math.NaN())
	for i := range r.outputs[:k*r.outStep] {
		r.outputs[i] = nan
	}
	r.lastCalls = k
	cpuStart := ThreadCPUNanos()
	start := time.Now()
	for i := 0; i < k; i++ {
		if err := r.call(i, r.out(i)); err != nil {
			return Round{}, err
		}
	}
	ns := time.Since(start).Nanoseconds()
	cpuNS := ThreadCPUNanos() - cpuStart
	return Round{Calls: int64(k), NS: ns, CPUNS: cpuNS}, nil
}

// Latencies times calls 0 .. k-1 one at a time into a scratch buffer (the
// outputs keep the last round's); ns per call.
func (r *Rounds) Latencies(k int) ([]int64, error) {
	if err := r.check("latencies", k); err != nil {
		return nil, err
	}
	ns := make([]int64, k)
	for i := range ns {
		start := time.Now()
		if err := r.call(i, r.scratch); err != nil {
			return nil, err
		}
		ns[i] = time.Since(start).Nanoseconds()
	}
	return ns, nil
}

// LastOutputs are the last round's outputs (k*B floats; empty before any round).
func (r *Rounds) LastOutputs() []float32 {
	return r.outputs[:r.lastCalls*r.outStep]
}

func (r *Rounds) call(i int, out []float32) error {
	return r.model.Call(r.inputs[i*r.inStep:(i+1)*r.inStep], out)
}

func (r *Rounds) out(i int) []float32 {
	return r.outputs[i*r.outStep : (i+1)*r.outStep]
}

func (r *Rounds) check(command string, k int) error { return checkCalls(command, k, r.maxCalls) }

// checkCalls is a UsageError unless 1 <= k <= maxCalls.
func checkCalls(command string, k, maxCalls int) error {
	if k < 1 || k > maxCalls {
		return Usagef("%s K needs 1 <= K <= %d (--calls), got %d", command, maxCalls, k)
	}
	return nil
}
