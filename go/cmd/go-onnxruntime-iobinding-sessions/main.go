// go-onnxruntime-iobinding-sessions: go-onnxruntime-iobinding with a DynamicAdvancedSession
// of its own in each caller (contract 4, per caller), its tensors bound to an IoBinding of
// that session: the other holding of the same call, so the two differ in the holding alone.
// At one caller it is go-onnxruntime-iobinding itself, so it runs at N > 1 callers only
// (the registry's callers_only).
package main

import (
	"callbench/kit"
	"callbench/ortsupport"
)

// perCaller is the loaded session, and what makes each caller's own.
type perCaller struct {
	*ortsupport.Bound
	o kit.Options
}

func (p *perCaller) Caller() (kit.TensorModel, error) {
	_, bound, err := ortsupport.OpenBound(p.o)
	if err != nil {
		return nil, err // not a nil *Bound inside a non-nil interface
	}
	return bound, nil
}

func (p *perCaller) Holding() kit.Holding {
	return kit.Holding{Holds: kit.PerCaller,
		How: "a DynamicAdvancedSession per caller, its tensors bound to an IoBinding of it (RunWithBinding)"}
}

func load(o kit.Options) (kit.TakesCallers, error) {
	_, bound, err := ortsupport.OpenBound(o)
	if err != nil {
		return nil, err
	}
	return &perCaller{Bound: bound, o: o}, nil
}

func main() { kit.DriverMainCallers("go-onnxruntime-iobinding-sessions", load) }
