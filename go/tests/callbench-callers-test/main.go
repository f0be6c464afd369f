// callbench-callers-test: a driver of the Go kit that takes callers (contract 4)
// and misbehaves in one chosen caller on request, for the conformance test:
//
//	callbench-callers-test MODE DRIVER_ID <contract options>
//
// Each caller reads its own copy of mlp_weights.f32 and runs the MLP's forward
// pass as plain loops, so its outputs are the model's and only MODE can fail it:
// "ok"; "fail-in-caller-C" (caller C fails in its first round); "hang-in-caller-C"
// (caller C sleeps ten minutes in its first round); "stall-at-call-J" (after its
// warm-up, the first call over the samples of call J, whichever caller makes it,
// sleeps 50 ms first: contract 6's paced test, the calls queued behind it carry
// the wait).
package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"callbench/kit"
)

// mode is what MODE asks: how the chosen caller misbehaves, and which one it is; or
// the call whose samples stall.
type mode struct {
	how     string
	caller  int // -1: none
	stallAt int // -1: none
}

func parseMode(text string) mode {
	dash := strings.LastIndex(text, "-")
	if dash > 0 {
		if n, err := strconv.Atoi(text[dash+1:]); err == nil {
			switch {
			case strings.HasSuffix(text[:dash], "-in-caller"):
				return mode{how: text[:dash], caller: n, stallAt: -1}
			case text[:dash] == "stall-at-call":
				return mode{how: "ok", caller: -1, stallAt: n}
			}
		}
	}
	return mode{how: "ok", caller: -1, stallAt: -1}
}

// stalled: the one stall of stall-at-call-J, in the whole process.
var stalled atomic.Bool

// forward is one caller's MLP over its own weights.
type forward struct {
	w          []float32
	h          int
	misbehaves string // "" for a caller that behaves
	warmup     int
	calls      int
	stallOver  []float32 // stall-at-call-J: call J's samples
}

func readForward(o kit.Options) (*forward, error) {
	path := filepath.Join(o.Models, "mlp_weights.f32")
	w, err := kit.ReadFiniteFloats(path, 1, "weight")
	if err != nil {
		return nil, err
	}
	for h := 1; h*h+5*h+1 <= len(w); h++ {
		if h*h+5*h+1 == len(w) {
			return &forward{w: w, h: h, warmup: o.Warmup}, nil
		}
	}
	return nil, kit.Dataf(path, "holds %d floats, which is no 2-H-H-1 MLP's count", len(w))
}

func (f *forward) Call(in, out []float32) error {
	f.calls++
	if f.stallOver != nil && f.calls > f.warmup && slices.Equal(in, f.stallOver) && !stalled.Swap(true) {
		time.Sleep(50 * time.Millisecond)
	}
	if f.misbehaves != "" && f.calls > f.warmup { // the warm-up goes as it should
		if f.misbehaves == "fail-in-caller" {
			return kit.Dataf("caller", "failed on purpose")
		}
		time.Sleep(10 * time.Minute)
	}
	h := f.h
	aW, aB := f.w[:2*h], f.w[2*h:3*h]
	bW, bB := f.w[3*h:3*h+h*h], f.w[3*h+h*h:4*h+h*h]
	cW, cB := f.w[4*h+h*h:5*h+h*h], f.w[5*h+h*h]
	h1 := make([]float32, h)
	for s := range out {
		x := in[2*s : 2*s+2]
		for j := range h1 {
			h1[j] = max(aW[2*j]*x[0]+aW[2*j+1]*x[1]+aB[j], 0)
		}
		y := cB
		for j := 0; j < h; j++ {
			v := bB[j]
			for k, hk := range h1 {
				v += bW[j*h+k] * hk
			}
			y += cW[j] * max(v, 0)
		}
		out[s] = y
	}
	return nil
}

// stallAt keeps call J's samples (J >= 0), so that a call over them can stall.
func (f *forward) stallAt(o kit.Options, j int) error {
	if j < 0 {
		return nil
	}
	all, err := kit.ReadFiniteFloats(filepath.Join(o.Models, "inputs.f32"), 2, "sample")
	if err != nil {
		return err
	}
	f.stallOver = all[2*o.Batch*j : 2*o.Batch*(j+1)]
	return nil
}

func (f *forward) RuntimeVersion() string { return "0" }

func (f *forward) Notes() kit.Notes { return nil }

// callersTest is the loaded model: the options each caller reads its weights by, and the mode.
type callersTest struct {
	kit.FloatModel
	o    kit.Options
	mode mode
	made int
}

func (c *callersTest) Caller() (kit.TensorModel, error) {
	one, err := readForward(c.o)
	if err != nil {
		return nil, err
	}
	if err := one.stallAt(c.o, c.mode.stallAt); err != nil {
		return nil, err
	}
	if c.made == c.mode.caller {
		one.misbehaves = c.mode.how
	}
	c.made++
	return kit.FloatModel{Model: one}, nil
}

func (c *callersTest) Holding() kit.Holding {
	return kit.Holding{Holds: kit.PerCaller, How: "its own weights read by each caller"}
}

func main() {
	if len(os.Args) < 3 {
		os.Stderr.WriteString("usage: callbench-callers-test MODE DRIVER_ID <contract options>\n")
		os.Exit(2)
	}
	m, id := parseMode(os.Args[1]), os.Args[2]
	load := func(o kit.Options) (kit.TakesCallers, error) {
		one, err := readForward(o)
		if err != nil {
			return nil, err
		}
		if err := one.stallAt(o, m.stallAt); err != nil {
			return nil, err
		}
		return &callersTest{FloatModel: kit.FloatModel{Model: one}, o: o, mode: m}, nil
	}
	os.Exit(kit.RunCallers(id, os.Args[3:], load, os.Stdin, os.Stdout, os.Stderr))
}
