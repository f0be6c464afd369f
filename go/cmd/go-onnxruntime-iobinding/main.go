// go-onnxruntime-iobinding: the same input and output tensors as
// go-onnxruntime, bound once to an IoBinding of a DynamicAdvancedSession
// (onnxruntime_go's documented IoBinding API); each call copies its samples
// into the input tensors' data, calls RunWithBinding, and copies the output
// tensors' data out. Its callers (contract 4) share the session, each with
// tensors and an IoBinding of its own: ONNX Runtime's run is safe to call
// from many threads, and onnxruntime_go's RunWithBinding keeps no state of its own.
package main

import (
	ort "github.com/yalue/onnxruntime_go"

	"callbench/kit"
	"callbench/ortsupport"
)

// shared is the one session, with the entry's own binding (its one caller).
type shared struct {
	*ortsupport.Bound
	session *ort.DynamicAdvancedSession
	batch   int
}

func (s *shared) Caller() (kit.TensorModel, error) {
	x, err := ortsupport.NewTensors(s.Path, s.Sig.Inputs, s.batch)
	if err != nil {
		return nil, err
	}
	y, err := ortsupport.NewTensors(s.Path, s.Sig.Outputs, s.batch)
	if err != nil {
		x.Destroy()
		return nil, err
	}
	return bind(s.session, s.Path, s.Sig, x, y, s.Threads)
}

func (s *shared) Holding() kit.Holding {
	return kit.Holding{Holds: kit.Shared,
		How: "one DynamicAdvancedSession; each caller its own tensors and IoBinding (RunWithBinding)"}
}

// bind binds x and y to a new IoBinding of session and checks one run.
func bind(session *ort.DynamicAdvancedSession, path string, sig kit.Signature, x, y ortsupport.Tensors,
	threads int) (*ortsupport.Bound, error) {
	binding, err := session.CreateIoBinding()
	if err != nil {
		return nil, ortsupport.LoadError(path, err)
	}
	for k, t := range sig.Inputs {
		if err := binding.BindInput(t.Name, x.Values[k]); err != nil {
			return nil, ortsupport.LoadError(path, err)
		}
	}
	for k, t := range sig.Outputs {
		if err := binding.BindOutput(t.Name, y.Values[k]); err != nil {
			return nil, ortsupport.LoadError(path, err)
		}
	}
	// One run checks that the model answers each output's shape: ONNX
	// Runtime refuses a bound output of another shape.
	if err := session.RunWithBinding(binding); err != nil {
		return nil, ortsupport.RunError(path, err)
	}
	run := func() error { return session.RunWithBinding(binding) }
	return &ortsupport.Bound{Path: path, Sig: sig, X: x.Data, Y: y.Data, Run: run, Threads: threads,
		CallWords: "DynamicAdvancedSession.RunWithBinding on tensors bound once; samples copied in, outputs copied out"}, nil
}

func load(o kit.Options) (kit.TakesCallers, error) {
	opened, err := ortsupport.Open(o)
	if err != nil {
		return nil, err
	}
	defer opened.Options.Destroy()
	path, sig := opened.Path, opened.Signature
	session, err := ort.NewDynamicAdvancedSession(path, ortsupport.Names(sig.Inputs),
		ortsupport.Names(sig.Outputs), opened.Options)
	if err != nil {
		return nil, ortsupport.LoadError(path, err)
	}
	bound, err := bind(session, path, sig, opened.X, opened.Y, o.Threads)
	if err != nil {
		return nil, err
	}
	return &shared{Bound: bound, session: session, batch: o.Batch}, nil
}

func main() { kit.DriverMainCallers("go-onnxruntime-iobinding", load) }
