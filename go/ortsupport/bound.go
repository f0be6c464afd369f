package ortsupport

import "callbench/kit"

// Bound is the model of both ONNX Runtime drivers: the session's tensors made
// once, each call its samples copied into the inputs' data, Run (the
// driver's way of running the session, bound at load), the outputs' data
// copied out.
type Bound struct {
	Path      string
	Sig       kit.Signature
	X, Y      [][]byte // the tensors' data, fixed for the session's life
	Run       func() error
	CallWords string // the notes' "call": how the driver runs the session
	Threads   int
}

// Call copies in, runs, copies out.
func (b *Bound) Call(in, out [][]byte) error {
	for k, data := range b.X {
		copy(data, in[k])
	}
	if err := b.Run(); err != nil {
		return RunError(b.Path, err)
	}
	for k, data := range b.Y {
		copy(out[k], data)
	}
	return nil
}

// Signature is the model's, as ONNX Runtime read it.
func (b *Bound) Signature() kit.Signature { return b.Sig }

// RuntimeVersion is ONNX Runtime's.
func (b *Bound) RuntimeVersion() string { return RuntimeVersion() }

// Notes say how the driver runs the session, the binding and the threads.
func (b *Bound) Notes() kit.Notes {
	return kit.Notes{
		{Key: "call", Value: b.CallWords},
		{Key: "binding", Value: "onnxruntime_go " + BindingVersion()},
		{Key: "intra_op_threads", Value: b.Threads},
	}
}
