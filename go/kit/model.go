// model: what a driver writes. Its load function returns a Model; the kit
// does everything else (options, inputs, rounds, serve, outputs, result).

package kit

// Model is one loaded runtime, ready for calls.
type Model interface {
	// Call makes one call: in holds batch*2 floats (a view of the inputs),
	// out receives batch*1 floats (a SampleWidther's own widths instead).
	// An error is the runtime failing.
	Call(in, out []float32) error
	// RuntimeVersion is the runtime's own version string.
	RuntimeVersion() string
	// Notes say how the runtime is called, and what was read back.
	Notes() Notes
}

// SampleWidths are the floats of one sample: in inputs.f32, and out.
type SampleWidths struct{ Input, Output int }

// SampleWidther is a Model that says its own sample widths, read from what
// it loaded (a user's ONNX model, --onnx); other models take our MLP's.
type SampleWidther interface {
	SampleWidths() SampleWidths
}

// WidthsOf is the model's sample widths: its own, or our MLP's 2 and 1.
func WidthsOf(m Model) SampleWidths {
	if w, ok := m.(SampleWidther); ok {
		return w.SampleWidths()
	}
	return SampleWidths{Input: InputWidth, Output: OutputWidth}
}

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
