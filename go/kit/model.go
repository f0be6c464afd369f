// model: what a driver writes. Its load function returns a Model (one
// float32 input and output, our MLP) or a TensorModel (any model, contract
// 3); the kit does everything else (options, inputs, rounds, serve, outputs,
// result).

package kit

// Model is one loaded runtime, ready for calls.
type Model interface {
	// Call makes one call: in holds batch*2 floats (a view of the inputs),
	// out receives batch*1 floats.
	// An error is the runtime failing.
	Call(in, out []float32) error
	// RuntimeVersion is the runtime's own version string.
	RuntimeVersion() string
	// Notes say how the runtime is called, and what was read back.
	Notes() Notes
}

// TensorModel is one loaded runtime of any inputs and outputs (contract 3:
// a user's ONNX model), ready for calls.
type TensorModel interface {
	// Signature is the inputs and outputs, as the runtime read them from the model.
	Signature() Signature
	// Call makes one call: in[k] holds input k's batch of samples, raw
	// little-endian bytes of its dtype (a view of the inputs); out[k]
	// receives every byte of output k's batch. An error is the runtime failing.
	Call(in, out [][]byte) error
	// RuntimeVersion is the runtime's own version string.
	RuntimeVersion() string
	// Notes say how the runtime is called, and what was read back.
	Notes() Notes
}

// TensorLoader makes the driver's TensorModel from the options; its time is load_ns.
type TensorLoader func(o Options) (TensorModel, error)

// Loader makes the driver's Model from the options; its time is load_ns.
type Loader func(o Options) (Model, error)

// Note is one entry of the result line's "notes": Value is a string, an
// integer or a float64.
type Note struct {
	Key   string
	Value any
}

// Notes keep their order in the result line.
type Notes []Note
