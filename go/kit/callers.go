// callers: contract 4's N callers calling one loaded model at once. Each
// caller is a goroutine locked to its own OS thread (runtime.LockOSThread, as
// the entry's one caller is, so its thread CPU time reads right and its cgo
// calls stay on that thread), with its own call state (the model's Caller())
// and its own Rounds over its own inputs and outputs: the same timed loop as
// one caller. The goroutines start after the load, warm up together and wait
// for their next task between rounds; a round hands every caller its task,
// then one closed channel releases them together, and the round runs from the
// first caller's start to the last caller's end on the monotonic clock. Caller
// c's call i takes the samples of call (c*K + i) mod S (S: the calls the
// inputs hold), copied into its own inputs before the release, outside the
// timing.
//
// A caller whose call fails fails the round at once (the others are not waited
// for: one may be stuck in a call): the entry reports "caller C: <problem>"
// and the process exits with every goroutine in it. A run without a failure
// ends by closing every caller's tasks.

package kit

import (
	"fmt"
	"runtime"
)

// Shared and PerCaller are how a driver's callers hold the model (contract 4), as
// its runtime documents: one handle called from every caller, or one each.
const (
	Shared    = "shared"
	PerCaller = "per caller"
)

// Holding says how a driver's callers hold the model, and what each caller gets.
type Holding struct {
	Holds string // Shared or PerCaller
	How   string // the notes' callers_how
}

// TakesCallers is a TensorModel that takes callers (contract 4): loaded once, each
// caller's call state made by Caller (on the entry's goroutine, in caller order),
// a TensorModel then called from that caller's goroutine only. At one caller the
// loaded model itself is called, as before contract 4.
type TakesCallers interface {
	TensorModel
	Caller() (TensorModel, error)
	Holding() Holding
}

// CallersLoader makes the driver's TakesCallers from the options; its time is load_ns.
type CallersLoader func(o Options) (TakesCallers, error)

type taskKind int

const (
	taskWarmUp taskKind = iota
	taskRound
	taskLatencies
	taskPaced
)

type task struct {
	kind    taskKind
	calls   int
	pacing  *Pacing         // the paced round being served (taskPaced)
	release <-chan struct{} // closed once every caller has its task
}

type report struct {
	caller    int
	round     Round
	warmup    Warmup
	latencies []int64
	err       error
}

type caller struct {
	rounds *Rounds
	inputs []Samples // its maxCalls*B samples of each input
	tasks  chan task
}

// Callers serve the rounds of N callers of one model (a Runner).
type Callers struct {
	model    TakesCallers
	every    []Samples // each input's samples, all the file holds
	held     int       // S: the calls they hold at this batch
	inSteps  []int
	maxCalls int
	warmup   int
	seconds  float64
	callers  []*caller
	reports  chan report
	// After a paced round: the caller that served each slot's last arrival (nil after
	// any other round).
	slotCallers []int
}

// StartCallers makes o.Callers callers of model, each with its call state and a
// goroutine of its own, and warms them up together: the fewest warm-up calls any made.
func StartCallers(model TakesCallers, every []Samples, o Options) (*Callers, Warmup, error) {
	s := model.Signature()
	c := &Callers{model: model, every: every, held: every[0].Count / o.Batch, maxCalls: o.Calls,
		warmup: o.Warmup, seconds: o.WarmupTime, reports: make(chan report, o.Callers)}
	for _, t := range s.Inputs {
		c.inSteps = append(c.inSteps, o.Batch*t.SampleBytes())
	}
	for n := 0; n < o.Callers; n++ {
		state, err := model.Caller()
		if err != nil {
			c.Close()
			return nil, Warmup{}, fmt.Errorf("caller %d: %w", n, err)
		}
		one := &caller{tasks: make(chan task, 1)}
		for _, step := range c.inSteps {
			one.inputs = append(one.inputs, Samples{Bytes: AlignedBytes(o.Calls * step), Count: o.Calls * o.Batch})
		}
		one.rounds = NewRounds(state, one.inputs, o.Calls, o.Batch)
		c.callers = append(c.callers, one)
		go c.serve(n, one)
	}
	c.fillInputs(o.Calls, false)
	reports, err := c.runAll(taskWarmUp, o.Calls)
	if err != nil {
		return nil, Warmup{}, err
	}
	fewest := reports[0].warmup
	for _, r := range reports {
		fewest.Calls = min(fewest.Calls, r.warmup.Calls)
		fewest.NS = max(fewest.NS, r.warmup.NS)
	}
	return c, fewest, nil
}

// Close ends every caller's goroutine once its task is done.
func (c *Callers) Close() {
	for _, one := range c.callers {
		close(one.tasks)
	}
	c.callers = nil
}

// serve is caller n's goroutine: one task a release until its tasks end.
func (c *Callers) serve(n int, one *caller) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for t := range one.tasks {
		<-t.release
		r := report{caller: n}
		switch t.kind {
		case taskWarmUp:
			r.warmup, r.err = one.rounds.WarmUp(c.warmup, c.seconds)
		case taskRound:
			r.round, r.err = one.rounds.Round(t.calls)
		case taskLatencies:
			r.latencies, r.err = one.rounds.Latencies(t.calls)
		case taskPaced:
			r.err = t.pacing.Serve(n, func(slot int) error { return one.rounds.call(slot, false) })
		}
		c.reports <- r
	}
}

// fillInputs: caller c's call i <- the samples of call (c*calls + i) mod S, each input;
// for a paced round's arrivals, every caller's call i <- those of call i mod S.
func (c *Callers) fillInputs(calls int, arrivals bool) {
	for n, one := range c.callers {
		first := n * calls
		if arrivals {
			first = 0
		}
		for k, step := range c.inSteps {
			for i := 0; i < calls; i++ {
				from := (first + i) % c.held
				copy(one.inputs[k].Bytes[i*step:(i+1)*step], c.every[k].Bytes[from*step:(from+1)*step])
			}
		}
	}
}

// runAll hands every caller the task, releases them together and waits for every
// report, in caller order; the first failing caller's error at once.
func (c *Callers) runAll(kind taskKind, calls int) ([]report, error) {
	return c.run(task{kind: kind, calls: calls})
}

// run hands every caller t, releases them together and waits for every report.
func (c *Callers) run(t task) ([]report, error) {
	release := make(chan struct{})
	t.release = release
	c.slotCallers = nil
	for _, one := range c.callers {
		one.tasks <- t
	}
	close(release)
	reports := make([]report, len(c.callers))
	for range c.callers {
		r := <-c.reports
		if r.err != nil {
			return nil, fmt.Errorf("caller %d: %w", r.caller, r.err)
		}
		reports[r.caller] = r
	}
	return reports, nil
}

// Round times k calls of every caller at once: from the first start to the last end.
func (c *Callers) Round(k int) (Round, error) {
	if err := checkCalls("round", k, c.maxCalls); err != nil {
		return Round{}, err
	}
	c.fillInputs(k, false)
	reports, err := c.runAll(taskRound, k)
	if err != nil {
		return Round{}, err
	}
	all := Round{Calls: int64(k), StartNS: reports[0].round.StartNS, EndNS: reports[0].round.EndNS}
	for _, r := range reports {
		all.StartNS = min(all.StartNS, r.round.StartNS)
		all.EndNS = max(all.EndNS, r.round.EndNS)
		all.CPUNS += r.round.CPUNS
		all.CallerNS = append(all.CallerNS, r.round.NS)
	}
	all.NS = all.EndNS - all.StartNS
	all.Callers = len(reports)
	return all, nil
}

// Latencies times every caller's k calls one by one, all callers at once: caller after caller.
func (c *Callers) Latencies(k int) ([]int64, error) {
	if err := checkCalls("latencies", k, c.maxCalls); err != nil {
		return nil, err
	}
	c.fillInputs(k, false)
	reports, err := c.runAll(taskLatencies, k)
	if err != nil {
		return nil, err
	}
	var all []int64
	for _, r := range reports {
		all = append(all, r.latencies...)
	}
	return all, nil
}

// Paced serves the arrivals of offsets (contract 6) with every caller, each taking the
// next, arrival j in slot j mod M of the caller that takes it.
func (c *Callers) Paced(offsets []int64, startNS *int64) (Paced, error) {
	pacing := NewPacing(offsets, len(c.callers), c.maxCalls)
	c.fillInputs(pacing.Filled(), true)
	for _, one := range c.callers {
		one.rounds.poison(pacing.Filled())
	}
	pacing.Begin(startNS)
	if _, err := c.run(task{kind: taskPaced, pacing: pacing}); err != nil {
		return Paced{}, err
	}
	c.slotCallers = pacing.SlotCallers()
	return pacing.Result(), nil
}

// LastOutputs are each output's last round, caller after caller (after a paced
// round, each slot's from the caller that served its last arrival, in slot order);
// none before any round.
func (c *Callers) LastOutputs() [][]byte {
	if c.slotCallers != nil {
		return c.pacedOutputs()
	}
	var all [][]byte
	for _, one := range c.callers {
		mine := one.rounds.LastOutputs()
		if mine == nil {
			return nil
		}
		if all == nil {
			all = make([][]byte, len(mine))
		}
		for o, bytes := range mine {
			all[o] = append(all[o], bytes...)
		}
	}
	return all
}

// pacedOutputs are each output's filled slots, each from its slot's caller.
func (c *Callers) pacedOutputs() [][]byte {
	all := make([][]byte, len(c.callers[0].rounds.outSteps))
	for o, step := range c.callers[0].rounds.outSteps {
		for slot, owner := range c.slotCallers {
			all[o] = append(all[o], c.callers[owner].rounds.outputs[o][slot*step:(slot+1)*step]...)
		}
	}
	return all
}

// Notes are the model's, with how its callers hold it.
func (c *Callers) Notes() Notes {
	holding := c.model.Holding()
	return append(c.model.Notes(),
		Note{Key: "callers", Value: len(c.callers)},
		Note{Key: "callers_hold", Value: holding.Holds},
		Note{Key: "callers_how", Value: holding.How},
		Note{Key: "gomaxprocs", Value: runtime.GOMAXPROCS(0)})
}
