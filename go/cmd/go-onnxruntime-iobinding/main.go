// go-onnxruntime-iobinding: the same input and output tensors as
// go-onnxruntime, bound once to an IoBinding of a DynamicAdvancedSession
// (onnxruntime_go's documented IoBinding API); each call copies its samples
// into the input tensors' data, calls RunWithBinding, and copies the output
// tensors' data out. Its callers (contract 4) share the session, each with
// tensors and an IoBinding of its own: ONNX Runtime's run is safe to call
// from many threads, and onnxruntime_go's RunWithBinding keeps no state of its own.
// With --gathered (contract 7) the batcher's calls run at the size they gathered:
// tensors of each size 1..B bound to IoBindings of their own at load (ONNX
// Runtime takes a changing batch dimension without reloading).
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
	sized   []*ortsupport.Bound // --gathered: sized[n-1] runs n samples; else nil
}

// bind is a binding of its own over new tensors of n samples (one checked run).
func (s *shared) bind(n int) (*ortsupport.Bound, error) {
	x, err := ortsupport.NewTensors(s.Path, s.Sig.Inputs, n)
	if err != nil {
		return nil, err
	}
	y, err := ortsupport.NewTensors(s.Path, s.Sig.Outputs, n)
	if err != nil {
		x.Destroy()
		return nil, err
	}
	return ortsupport.BindSession(s.session, s.Path, s.Sig, x, y, s.Threads)
}

// CallGathered is contract 7's call of the first n samples: the binding of n
// (its Call copies n samples in and n results out).
func (s *shared) CallGathered(in, out [][]byte, n int) error {
	return s.sized[n-1].Call(in, out)
}

func (s *shared) Notes() kit.Notes {
	notes := s.Bound.Notes()
	if s.sized != nil {
		notes = append(notes, kit.Note{Key: "gathered_call",
			Value: "RunWithBinding on tensors of the n gathered, bound at load for each n"})
	}
	return notes
}

func (s *shared) Caller() (kit.TensorModel, error) {
	return s.bind(s.batch)
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
	s := &shared{Bound: bound, session: session, batch: o.Batch}
	for n := 1; o.Gathered && n <= o.Batch; n++ {
		sized, err := s.bind(n)
		if err != nil {
			return nil, err
		}
		s.sized = append(s.sized, sized)
	}
	return s, nil
}

func main() { kit.DriverMainCallers("go-onnxruntime-iobinding", load) }
