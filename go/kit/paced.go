// paced: contract 6's paced rounds. The calls arrive on the harness's schedule
// (K arrival offsets in ns, read by ReadSchedule) from START, an absolute time
// on the machine's monotonic clock (CLOCK_MONOTONIC, as Python's
// time.monotonic_ns and C++'s steady_clock), or from PacedLeadNS after the
// set-up when START is absent; the set-up (slots, poisoned outputs, callers
// released) is done before it. A free caller takes the next arrival (one atomic
// counter for all callers), waits for its time if it is early (WaitUntil: a
// sleep to SpinNS before it, then a spin on the clock that yields the core each
// turn), makes the call and keeps three times of it from its scheduled arrival
// (due): when it took it (negative: it was waiting), when the call started, when
// it ended. Wait is start - due, service end - start: a call that queued behind
// a slow one carries the queue in its wait, not its service (no coordinated
// omission). Arrival j is served in slot j mod M (M: the calls the run's buffers
// hold) of the caller that took it, with that slot's samples; the outputs hold
// each slot's last arrival.
//
// The clock read per arrival is time.Now's monotonic reading (the runtime's
// nanotime: CLOCK_MONOTONIC through the vDSO, tens of ns), not MonotonicNanos
// (a system call each time); the two are tied once per round, at its set-up.

package kit

import (
	"encoding/binary"
	"os"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// SpinNS: a caller early for its arrival sleeps until this long before it, then
// spins (a nanosleep overshoots by tens of µs, a call of our MLP takes a few).
const SpinNS = 200_000

// PacedLeadNS: a round without START begins this long after the set-up is done,
// so that releasing the callers is off the clock too.
const PacedLeadNS = 1_000_000

// Paced is what a paced round gives the dialogue: its answer's figures and its times.
type Paced struct {
	Calls       int     `json:"calls"`
	NS          int64   `json:"ns"`       // from the round's start to the last call's end
	StartNS     int64   `json:"start_ns"` // the round's start on the monotonic clock
	EndNS       int64   `json:"end_ns"`
	ReadyNS     int64   `json:"ready_ns"` // when the set-up was done
	Slots       int     `json:"slots"`    // the slots the round filled: min(K, M)
	Callers     int     `json:"callers"`
	CallerCalls []int64 `json:"caller_calls"`          // the arrivals each caller served
	BatchSizes  []int64 `json:"batch_sizes,omitempty"` // the batcher's (contract 7): calls of k at k-1
	Times       []int64 `json:"-"`                     // K taken, then K started, then K ended, ns from due
}

// ReadSchedule reads paced FILE's arrival offsets: K >= 1 int64 ns, non-negative
// and non-decreasing (else a DataError naming it).
func ReadSchedule(path string) ([]int64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, Dataf(path, "cannot read the schedule (%v)", unwrapPath(err))
	}
	if len(data) == 0 || len(data)%8 != 0 {
		return nil, Dataf(path, "a schedule is int64 arrival offsets; %d bytes is not", len(data))
	}
	offsets := make([]int64, len(data)/8)
	for j := range offsets {
		offsets[j] = int64(binary.LittleEndian.Uint64(data[8*j:]))
		if offsets[j] < 0 || (j > 0 && offsets[j] < offsets[j-1]) {
			return nil, Dataf(path, "arrival offsets must be non-negative and non-decreasing")
		}
	}
	return offsets, nil
}

// WaitUntil is back on the clock at due or just after (a sleep, then a spin that
// yields the core each turn: a caller waiting must not hold the core from one
// calling; sched_yield, since the caller's goroutine is locked to its thread and
// runtime.Gosched would yield to goroutines only); the clock's reading then.
//
// The sleep is the nanosleep system call (the kernel's high-resolution timer, as
// the other kits' sleeps), not time.Sleep: the runtime's timers woke a locked
// caller most of a millisecond late, beyond SpinNS, so a point at a low rate
// failed a 200 µs bound on the clock alone (run
// 20261205T1750Z-serving-policy-value-batcher-go, Go 1.26: clock late p99
// 869 µs at 14,217 arrivals a second). nanosleep overshoots by the kernel's
// timer slack (50 µs) and a wake-up. A signal (the runtime preempts with
// SIGURG) ends it early: the loop sleeps what is left.
func WaitUntil(due time.Time) time.Time {
	for left := time.Until(due); left > SpinNS; left = time.Until(due) {
		rest := unix.NsecToTimespec(int64(left - SpinNS))
		_ = unix.Nanosleep(&rest, nil)
	}
	for {
		now := time.Now()
		if !now.Before(due) {
			return now
		}
		_, _, _ = unix.Syscall(unix.SYS_SCHED_YIELD, 0, 0, 0)
	}
}

// Pacing is one paced round's arrivals and what each caller made of them. Each
// arrival's times are written by the one caller that took it, each caller's by itself.
type Pacing struct {
	offsets     []int64
	slots       int
	times       []int64 // K taken, then K started, then K ended, ns from due
	servedBy    []int
	callerCalls []int64
	ends        []time.Time
	start       time.Time // the round's start as time.Now's monotonic reading
	startNS     int64     // ... and on CLOCK_MONOTONIC
	readyNS     int64
	next        atomic.Int64
}

// NewPacing: slots is M, the calls the run's buffers hold.
func NewPacing(offsets []int64, callers, slots int) *Pacing {
	return &Pacing{offsets: offsets, slots: slots, times: make([]int64, 3*len(offsets)),
		servedBy: make([]int, len(offsets)), callerCalls: make([]int64, callers),
		ends: make([]time.Time, callers)}
}

// Filled is the slots the round fills: min(K, M).
func (p *Pacing) Filled() int { return min(len(p.offsets), p.slots) }

// Begin: the set-up is done; the round starts at startNS (CLOCK_MONOTONIC), or
// PacedLeadNS from now when it is nil. Called before the callers are released.
func (p *Pacing) Begin(startNS *int64) {
	// The two clocks tied: CLOCK_MONOTONIC read between two readings of time.Now.
	before := time.Now()
	mono := MonotonicNanos()
	after := time.Now()
	tie := before.Add(after.Sub(before) / 2)
	p.readyNS = mono + after.Sub(tie).Nanoseconds()
	p.startNS = p.readyNS + PacedLeadNS
	if startNS != nil {
		p.startNS = *startNS
	}
	p.start = tie.Add(time.Duration(p.startNS - mono))
}

// Serve is caller `caller` serving arrivals until none is left; call(slot) makes a
// call in that slot. A failing call ends its caller's serving with the error.
func (p *Pacing) Serve(caller int, call func(slot int) error) error {
	count := len(p.offsets)
	var served int64
	var last time.Time
	defer func() { p.callerCalls[caller], p.ends[caller] = served, last }()
	for {
		j := int(p.next.Add(1) - 1)
		if j >= count {
			return nil
		}
		due := p.start.Add(time.Duration(p.offsets[j]))
		now := time.Now()
		begin := now
		if now.Before(due) {
			begin = WaitUntil(due)
		}
		if err := call(j % p.slots); err != nil {
			return err
		}
		last = time.Now()
		p.times[j], p.times[count+j], p.times[2*count+j] = now.Sub(due).Nanoseconds(),
			begin.Sub(due).Nanoseconds(), last.Sub(due).Nanoseconds()
		p.servedBy[j] = caller
		served++
	}
}

// SlotCallers is the caller that served each filled slot's last arrival.
func (p *Pacing) SlotCallers() []int {
	owners := make([]int, p.Filled())
	for j := len(p.offsets) - p.Filled(); j < len(p.offsets); j++ {
		owners[j%p.slots] = p.servedBy[j]
	}
	return owners
}

// Result is the answer's figures and the times, once every caller is done.
func (p *Pacing) Result() Paced {
	end := p.ends[0]
	for _, e := range p.ends[1:] {
		if e.After(end) {
			end = e
		}
	}
	ns := end.Sub(p.start).Nanoseconds()
	return Paced{Calls: len(p.offsets), NS: ns, StartNS: p.startNS, EndNS: p.startNS + ns,
		ReadyNS: p.readyNS, Slots: p.Filled(), Callers: len(p.callerCalls),
		CallerCalls: p.callerCalls, Times: p.times}
}
