// go-onnxruntime: onnxruntime_go's documented way (its README's example):
// an AdvancedSession made once with its input and output tensors; each call
// copies its samples into the input tensors' data, calls Run(), and copies
// the output tensors' data out. Its callers (contract 4) each hold an
// AdvancedSession of their own: the session's tensors are bound when it is
// made, so one session is one caller's.
package main

import (
	ort "github.com/yalue/onnxruntime_go"

	"callbench/kit"
	"callbench/ortsupport"
)

// perCaller is the loaded session, and what makes each caller's own.
type perCaller struct {
	*ortsupport.Bound
	o kit.Options
}

func (p *perCaller) Caller() (kit.TensorModel, error) { return newSession(p.o) }

func (p *perCaller) Holding() kit.Holding {
	return kit.Holding{Holds: kit.PerCaller,
		How: "an AdvancedSession per caller, its input and output tensors bound when it is made"}
}

// newSession opens the model and makes an AdvancedSession over tensors of its own.
func newSession(o kit.Options) (*ortsupport.Bound, error) {
	opened, err := ortsupport.Open(o)
	if err != nil {
		return nil, err
	}
	defer opened.Options.Destroy()
	path, sig, x, y := opened.Path, opened.Signature, opened.X, opened.Y
	session, err := ort.NewAdvancedSession(path, ortsupport.Names(sig.Inputs), ortsupport.Names(sig.Outputs),
		x.Values, y.Values, opened.Options)
	if err != nil {
		return nil, ortsupport.LoadError(path, err)
	}
	// One run checks that the model answers each output's shape: ONNX
	// Runtime refuses a preallocated output of another shape.
	if err := session.Run(); err != nil {
		return nil, ortsupport.RunError(path, err)
	}
	return &ortsupport.Bound{Path: path, Sig: sig, X: x.Data, Y: y.Data, Run: session.Run, Threads: o.Threads,
		CallWords: "AdvancedSession.Run on input/output tensors made once; samples copied in, outputs copied out"}, nil
}

func load(o kit.Options) (kit.TakesCallers, error) {
	bound, err := newSession(o)
	if err != nil {
		return nil, err
	}
	return &perCaller{Bound: bound, o: o}, nil
}

func main() { kit.DriverMainCallers("go-onnxruntime", load) }
