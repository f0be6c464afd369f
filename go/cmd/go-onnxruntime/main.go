// go-onnxruntime: onnxruntime_go's documented way (its README's example):
// an AdvancedSession made once with its input and output tensors; each call
// copies its samples into the input tensors' data, calls Run(), and copies
// the output tensors' data out.
package main

import (
	ort "github.com/yalue/onnxruntime_go"

	"callbench/kit"
	"callbench/ortsupport"
)

type model struct {
	path      string
	session   *ort.AdvancedSession
	signature kit.Signature
	x, y      [][]byte // the tensors' data, fixed for the session's life
	threads   int
}

func load(o kit.Options) (kit.TensorModel, error) {
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
	return &model{path: path, session: session, signature: sig, x: x.Data, y: y.Data, threads: o.Threads}, nil
}

func (m *model) Call(in, out [][]byte) error {
	for k, data := range m.x {
		copy(data, in[k])
	}
	if err := m.session.Run(); err != nil {
		return ortsupport.RunError(m.path, err)
	}
	for k, data := range m.y {
		copy(out[k], data)
	}
	return nil
}

func (m *model) Signature() kit.Signature { return m.signature }

func (m *model) RuntimeVersion() string { return ortsupport.RuntimeVersion() }

func (m *model) Notes() kit.Notes {
	return kit.Notes{
		{Key: "call", Value: "AdvancedSession.Run on input/output tensors made once; samples copied in, outputs copied out"},
		{Key: "binding", Value: "onnxruntime_go " + ortsupport.BindingVersion()},
		{Key: "intra_op_threads", Value: m.threads},
	}
}

func main() { kit.DriverMain("go-onnxruntime", load) }
