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
	return ortsupport.BindSession(s.session, s.Path, s.Sig, x, y, s.Threads)
}

func (s *shared) Holding() kit.Holding {
	return kit.Holding{Holds: kit.Shared,
		How: "one DynamicAdvancedSession; each caller its own tensors and IoBinding (RunWithBinding)"}
}

func load(o kit.Options) (kit.TakesCallers, error) {
	session, bound, err := ortsupport.OpenBound(o)
	if err != nil {
		return nil, err
	}
	return &shared{Bound: bound, session: session, batch: o.Batch}, nil
}

func main() { kit.DriverMainCallers("go-onnxruntime-iobinding", load) }
