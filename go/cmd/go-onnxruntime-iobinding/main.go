// go-onnxruntime-iobinding: the same input and output tensors as
// go-onnxruntime, bound once to an IoBinding of a DynamicAdvancedSession
// (onnxruntime_go's documented IoBinding API); each call copies its samples
// into the input tensor's data, calls RunWithBinding, and copies the output
// tensor's data out.
package main

import (
	"path/filepath"

	ort "github.com/yalue/onnxruntime_go"

	"callbench/kit"
	"callbench/ortsupport"
)

type model struct {
	path    string
	session *ort.DynamicAdvancedSession
	binding *ort.IoBinding
	x, y    []float32 // the bound tensors' data
	threads int
	widths  kit.SampleWidths
}

func load(o kit.Options) (kit.Model, error) {
	path := filepath.Join(o.Models, "mlp.onnx")
	if err := ortsupport.RequireModel(path); err != nil {
		return nil, err
	}
	if err := ortsupport.Initialize(); err != nil {
		return nil, err
	}
	sig, err := ortsupport.ReadSignature(path)
	if err != nil {
		return nil, err
	}
	x, err := ort.NewEmptyTensor[float32](ortsupport.Shape(o.Batch, int64(sig.Widths.Input)))
	if err != nil {
		return nil, err
	}
	y, err := ort.NewEmptyTensor[float32](ortsupport.Shape(o.Batch, sig.OutputShape...))
	if err != nil {
		return nil, err
	}
	options, err := ortsupport.NewSessionOptions(o.Threads)
	if err != nil {
		return nil, err
	}
	defer options.Destroy()
	session, err := ort.NewDynamicAdvancedSession(path,
		[]string{sig.InputName}, []string{sig.OutputName}, options)
	if err != nil {
		return nil, ortsupport.LoadError(path, err)
	}
	binding, err := session.CreateIoBinding()
	if err != nil {
		return nil, ortsupport.LoadError(path, err)
	}
	if err := binding.BindInput(sig.InputName, x); err != nil {
		return nil, ortsupport.LoadError(path, err)
	}
	if err := binding.BindOutput(sig.OutputName, y); err != nil {
		return nil, ortsupport.LoadError(path, err)
	}
	// One run checks that the model maps [B, F] to its output's shape: ONNX
	// Runtime refuses a bound output of another shape.
	if err := session.RunWithBinding(binding); err != nil {
		return nil, ortsupport.RunError(path, err)
	}
	return &model{path: path, session: session, binding: binding, x: x.GetData(), y: y.GetData(),
		threads: o.Threads, widths: sig.Widths}, nil
}

func (m *model) Call(in, out []float32) error {
	copy(m.x, in)
	if err := m.session.RunWithBinding(m.binding); err != nil {
		return ortsupport.RunError(m.path, err)
	}
	copy(out, m.y)
	return nil
}

func (m *model) SampleWidths() kit.SampleWidths { return m.widths }

func (m *model) RuntimeVersion() string { return ortsupport.RuntimeVersion() }

func (m *model) Notes() kit.Notes {
	return kit.Notes{
		{Key: "call", Value: "DynamicAdvancedSession.RunWithBinding on tensors bound once; samples copied in, outputs copied out"},
		{Key: "binding", Value: "onnxruntime_go " + ortsupport.BindingVersion()},
		{Key: "intra_op_threads", Value: m.threads},
	}
}

func main() { kit.DriverMain("go-onnxruntime-iobinding", load) }
