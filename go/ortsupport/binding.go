package ortsupport

import (
	ort "github.com/yalue/onnxruntime_go"

	"callbench/kit"
)

// BindSession binds x and y to a new IoBinding of session and checks one run: the call of
// the -iobinding drivers (onnxruntime_go's documented IoBinding API), RunWithBinding on
// tensors bound once.
func BindSession(session *ort.DynamicAdvancedSession, path string, sig kit.Signature, x, y Tensors,
	threads int) (*Bound, error) {
	binding, err := session.CreateIoBinding()
	if err != nil {
		return nil, LoadError(path, err)
	}
	for k, t := range sig.Inputs {
		if err := binding.BindInput(t.Name, x.Values[k]); err != nil {
			return nil, LoadError(path, err)
		}
	}
	for k, t := range sig.Outputs {
		if err := binding.BindOutput(t.Name, y.Values[k]); err != nil {
			return nil, LoadError(path, err)
		}
	}
	// One run checks that the model answers each output's shape: ONNX
	// Runtime refuses a bound output of another shape.
	if err := session.RunWithBinding(binding); err != nil {
		return nil, RunError(path, err)
	}
	run := func() error { return session.RunWithBinding(binding) }
	return &Bound{Path: path, Sig: sig, X: x.Data, Y: y.Data, Run: run, Threads: threads,
		CallWords: "DynamicAdvancedSession.RunWithBinding on tensors bound once; samples copied in, outputs copied out"}, nil
}

// OpenBound opens the model of o, makes a DynamicAdvancedSession and binds its tensors
// (BindSession): one caller's session, or the shared one's first caller.
func OpenBound(o kit.Options) (*ort.DynamicAdvancedSession, *Bound, error) {
	opened, err := Open(o)
	if err != nil {
		return nil, nil, err
	}
	defer opened.Options.Destroy()
	path, sig := opened.Path, opened.Signature
	session, err := ort.NewDynamicAdvancedSession(path, Names(sig.Inputs), Names(sig.Outputs),
		opened.Options)
	if err != nil {
		return nil, nil, LoadError(path, err)
	}
	bound, err := BindSession(session, path, sig, opened.X, opened.Y, o.Threads)
	if err != nil {
		return nil, nil, err
	}
	return session, bound, nil
}
