package kit

import (
	"math"
	"runtime"
	"testing"
)

func TestRoundStoresEveryCall(t *testing.T) {
	inputs := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	model := &sumModel{}
	r := NewRounds(FloatModel{model}, floatSamples(inputs...), 4, 1)
	before := MonotonicNanos()
	round, err := r.Round(3)
	after := MonotonicNanos()
	if err != nil {
		t.Fatal(err)
	}
	if round.Calls != 3 || round.NS <= 0 || round.CPUNS < 0 || model.calls != 3 {
		t.Fatalf("round %+v after %d calls", round, model.calls)
	}
	// When it ran, on the clock every process reads (contract 4's processes).
	if round.StartNS < before || round.EndNS != round.StartNS+round.NS || round.EndNS > after {
		t.Fatalf("round %+v between %d and %d", round, before, after)
	}
	got := lastFloats(t, r)
	if len(got) != 3 || got[0] != 3 || got[1] != 7 || got[2] != 11 {
		t.Fatalf("outputs %v", got)
	}
}

func TestRoundWithBatches(t *testing.T) {
	inputs := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	r := NewRounds(FloatModel{&sumModel{}}, floatSamples(inputs...), 2, 2)
	if _, err := r.Round(2); err != nil {
		t.Fatal(err)
	}
	got := lastFloats(t, r)
	if len(got) != 4 || got[3] != 15 {
		t.Fatalf("outputs %v", got)
	}
}

func TestOutputsAreNaNBeforeEachRound(t *testing.T) {
	inputs := []float32{1, 2, 3, 4}
	model := &sumModel{}
	r := NewRounds(FloatModel{model}, floatSamples(inputs...), 2, 1)
	if _, err := r.Round(2); err != nil {
		t.Fatal(err)
	}
	model.lazy = true
	if _, err := r.Round(2); err != nil {
		t.Fatal(err)
	}
	for _, v := range lastFloats(t, r) {
		if !math.IsNaN(float64(v)) {
			t.Fatalf("a call that stores nothing left %v", lastFloats(t, r))
		}
	}
}

func TestWarmUpWrapsAroundN(t *testing.T) {
	model := &sumModel{}
	r := NewRounds(FloatModel{model}, floatSamples(1, 2, 3, 4), 2, 1)
	if w, err := r.WarmUp(5, 0); err != nil || model.calls != 5 || w.Calls != 5 {
		t.Fatalf("%d calls, %v", model.calls, err)
	}
	if len(r.LastOutputs()) != 0 {
		t.Fatal("warm-up is not a round")
	}
}

func TestAWarmUpByTimeMakesAFewCallsThenStopsAtItsBudget(t *testing.T) {
	made := 0
	// A budget of 1 ns is spent by the first call: the few calls, then the end.
	w, err := WarmUpCalls(10_000, 1e-9, 3, func(int) error { made++; return nil })
	if err != nil || w.Calls != MinWarmupCalls || made != MinWarmupCalls {
		t.Fatalf("%+v after %d calls, %v", w, made, err)
	}
	none := func(int) error { return nil }
	for _, c := range []struct {
		calls   int
		seconds float64
		want    int
	}{{2, 1e-9, 2}, {1000, 0, 1000}, {1000, 1000, 1000}} {
		if w, _ := WarmUpCalls(c.calls, c.seconds, 3, none); w.Calls != c.want {
			t.Fatalf("%+v: %d calls", c, w.Calls)
		}
	}
}

func TestLatenciesKeepTheRoundsOutputs(t *testing.T) {
	model := &sumModel{}
	r := NewRounds(FloatModel{model}, floatSamples(1, 2, 3, 4), 2, 1)
	if _, err := r.Round(1); err != nil {
		t.Fatal(err)
	}
	ns, err := r.Latencies(2)
	if err != nil || len(ns) != 2 || ns[0] <= 0 {
		t.Fatalf("%v, %v", ns, err)
	}
	if got := lastFloats(t, r); len(got) != 1 || got[0] != 3 {
		t.Fatalf("outputs %v", got)
	}
}

func TestRoundRange(t *testing.T) {
	r := NewRounds(FloatModel{&sumModel{}}, floatSamples(1, 2, 3, 4), 2, 1)
	for _, k := range []int{0, 3, -1} {
		_, err := r.Round(k)
		requireUsage(t, err)
		_, err = r.Latencies(k)
		requireUsage(t, err)
	}
}

func TestThreadCPUNanosAdvances(t *testing.T) {
	// The clock is per OS thread; a test goroutine may move between threads
	// unless locked, as DriverMain locks a driver's.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := ThreadCPUNanos()
	x := 0.0
	for i := 0; i < 2_000_000; i++ {
		x += math.Sqrt(float64(i))
	}
	if x <= 0 || ThreadCPUNanos() <= start {
		t.Fatal("the thread's CPU clock did not move")
	}
}
