// go-onnxruntime-iobinding: the same input and output tensors as
// go-onnxruntime, bound once to an IoBinding of a DynamicAdvancedSession
// (onnxruntime_go's documented IoBinding API); each call copies its samples
// into the input tensors' data, calls RunWithBinding, and copies the output
// tensors' data out.
package main

import (
	ort "github.com/yalue/onnxruntime_go"

	"callbench/kit"
	"callbench/ortsupport"
)

func load(o kit.Options) (kit.TensorModel, error) {
	opened, err := ortsupport.Open(o)
	if err != nil {
		return nil, err
	}
	defer opened.Options.Destroy()
	path, sig, x, y := opened.Path, opened.Signature, opened.X, opened.Y
	session, err := ort.NewDynamicAdvancedSession(path, ortsupport.Names(sig.Inputs),
		ortsupport.Names(sig.Outputs), opened.Options)
	if err != nil {
		return nil, ortsupport.LoadError(path, err)
	}
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
	return &ortsupport.Bound{Path: path, Sig: sig, X: x.Data, Y: y.Data, Run: run, Threads: o.Threads,
		CallWords: "DynamicAdvancedSession.RunWithBinding on tensors bound once; samples copied in, outputs copied out"}, nil
}

func main() { kit.DriverMain("go-onnxruntime-iobinding", load) }
