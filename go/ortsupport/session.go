// session: the session options every Go ONNX Runtime driver uses, and the
// checks around loading.

package ortsupport

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	ort "github.com/yalue/onnxruntime_go"

	"callbench/kit"
)

// Signature is the model's one float input [batch, F] and one float output
// [batch, ...], as ONNX Runtime reads them (ours: x [batch, 2] and y
// [batch, 1]; a user's model, --onnx, its own).
type Signature struct {
	InputName, OutputName string
	Widths                kit.SampleWidths
	OutputShape           []int64 // after the batch dimension
}

// ReadSignature asks ONNX Runtime for the model's names and sizes (it opens
// a session of its own for it, which load_ns includes).
func ReadSignature(path string) (Signature, error) {
	inputs, outputs, err := ort.GetInputOutputInfo(path)
	if err != nil {
		return Signature{}, LoadError(path, err)
	}
	if len(inputs) != 1 || len(outputs) != 1 {
		return Signature{}, kit.Dataf(path, "has %d inputs and %d outputs, expected 1 and 1",
			len(inputs), len(outputs))
	}
	in, err := perSample(path, inputs[0])
	if err != nil {
		return Signature{}, err
	}
	if len(in) != 1 {
		return Signature{}, kit.Dataf(path, "input %q is %v, not [batch, F]", inputs[0].Name,
			inputs[0].Dimensions)
	}
	out, err := perSample(path, outputs[0])
	if err != nil {
		return Signature{}, err
	}
	width := int64(1)
	for _, d := range out {
		width *= d
	}
	widths := kit.SampleWidths{Input: int(in[0]), Output: int(width)}
	if err := kit.CheckSampleWidths(path, filepath.Dir(path), widths); err != nil {
		return Signature{}, err
	}
	return Signature{InputName: inputs[0].Name, OutputName: outputs[0].Name, Widths: widths,
		OutputShape: out}, nil
}

// perSample is a float tensor's dimensions after the batch one, each fixed.
func perSample(path string, info ort.InputOutputInfo) ([]int64, error) {
	if info.OrtValueType != ort.ONNXTypeTensor || info.DataType != ort.TensorElementDataTypeFloat {
		return nil, kit.Dataf(path, "%q is not a float32 tensor", info.Name)
	}
	dims := info.Dimensions
	if len(dims) == 0 {
		return nil, kit.Dataf(path, "%q is a scalar, not [batch, ...]", info.Name)
	}
	for _, d := range dims[1:] {
		if d < 1 {
			return nil, kit.Dataf(path, "%q is %v: only the batch size may be symbolic",
				info.Name, dims)
		}
	}
	return dims[1:], nil
}

// Shape is [batch, dims...].
func Shape(batch int, dims ...int64) ort.Shape {
	return ort.NewShape(append([]int64{int64(batch)}, dims...)...)
}

// NewSessionOptions: threads intra-op threads, one inter-op thread,
// sequential execution, all graph optimisations (as cpp-onnxruntime).
// The caller destroys them once the session is made.
func NewSessionOptions(threads int) (*ort.SessionOptions, error) {
	options, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	for _, set := range []func() error{
		func() error { return options.SetIntraOpNumThreads(threads) },
		func() error { return options.SetInterOpNumThreads(1) },
		func() error { return options.SetExecutionMode(ort.ExecutionModeSequential) },
		func() error { return options.SetGraphOptimizationLevel(ort.GraphOptimizationLevelEnableAll) },
	} {
		if err := set(); err != nil {
			options.Destroy()
			return nil, err
		}
	}
	return options, nil
}

// RequireModel is a DataError unless path is a regular file.
func RequireModel(path string) error {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return kit.MissingArtifact(path)
	}
	if err != nil || !info.Mode().IsRegular() {
		return kit.Dataf(path, "not a regular file")
	}
	return nil
}

// LoadError is the DataError for a model ONNX Runtime would not load.
func LoadError(path string, err error) error {
	return kit.Dataf(path, "does not load as ONNX: %s", kit.FirstLine(err.Error()))
}

// RunError is the DataError for a run that failed (at load, a model that does
// not map x [B, 2] to y [B, 1]; later, the runtime failing mid-round).
func RunError(path string, err error) error {
	return kit.Dataf(path, "run failed: %s", kit.FirstLine(err.Error()))
}
