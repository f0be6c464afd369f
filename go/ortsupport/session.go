// session: the session options every Go ONNX Runtime driver uses, the
// model's signature and the tensors over it, and the checks around loading.

package ortsupport

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	ort "github.com/yalue/onnxruntime_go"

	"callbench/kit"
)

// dtypes: ONNX Runtime's element types the contract has.
var dtypes = map[ort.TensorElementDataType]kit.Dtype{
	ort.TensorElementDataTypeFloat:   kit.Float32,
	ort.TensorElementDataTypeFloat16: kit.Float16,
	ort.TensorElementDataTypeDouble:  kit.Float64,
	ort.TensorElementDataTypeInt64:   kit.Int64,
	ort.TensorElementDataTypeInt32:   kit.Int32,
	ort.TensorElementDataTypeInt8:    kit.Int8,
	ort.TensorElementDataTypeUint8:   kit.Uint8,
	ort.TensorElementDataTypeBool:    kit.Bool,
}

// ElementType is ONNX Runtime's name for d.
func ElementType(d kit.Dtype) ort.TensorElementDataType {
	for element, dtype := range dtypes {
		if dtype == d {
			return element
		}
	}
	return ort.TensorElementDataTypeUndefined
}

// ReadSignature asks ONNX Runtime for the model's inputs and outputs
// (contract 3: names, dtypes, shapes per sample, in the model's order) and
// checks them against the reference files beside it. It opens a session of
// its own for it, which load_ns includes.
func ReadSignature(path string) (kit.Signature, error) {
	inputs, outputs, err := ort.GetInputOutputInfo(path)
	if err != nil {
		return kit.Signature{}, LoadError(path, err)
	}
	var s kit.Signature
	for _, info := range inputs {
		t, err := tensorOf(path, "input", info)
		if err != nil {
			return kit.Signature{}, err
		}
		s.Inputs = append(s.Inputs, t)
	}
	for _, info := range outputs {
		t, err := tensorOf(path, "output", info)
		if err != nil {
			return kit.Signature{}, err
		}
		s.Outputs = append(s.Outputs, t)
	}
	if len(s.Inputs) == 0 {
		return kit.Signature{}, kit.Dataf(path, "has no inputs")
	}
	if err := kit.CheckReferences(path, filepath.Dir(path), s); err != nil {
		return kit.Signature{}, err
	}
	return s, nil
}

// tensorOf is one input or output as the model declares it: a tensor of a
// dtype the contract has, a batch dimension and every other dimension fixed.
func tensorOf(path, role string, info ort.InputOutputInfo) (kit.Tensor, error) {
	if info.OrtValueType != ort.ONNXTypeTensor {
		return kit.Tensor{}, kit.Dataf(path, "%s '%s' is not a tensor", role, info.Name)
	}
	dtype, ok := dtypes[info.DataType]
	if !ok {
		return kit.Tensor{}, kit.Dataf(path, "%s '%s' is %v, which the contract does not feed", role,
			info.Name, info.DataType)
	}
	dims := info.Dimensions
	if len(dims) == 0 {
		return kit.Tensor{}, kit.Dataf(path, "%s '%s' has no batch dimension", role, info.Name)
	}
	for _, d := range dims[1:] {
		if d < 1 {
			return kit.Tensor{}, kit.Dataf(path, "%s '%s' is %v: only the batch size may be symbolic",
				role, info.Name, dims)
		}
	}
	return kit.Tensor{Name: info.Name, Dtype: dtype, Shape: append([]int64(nil), dims[1:]...)}, nil
}

// Tensors are ONNX Runtime tensors made once over buffers of ours, one per
// input or output of the signature, [batch, *shape] each: a custom-data
// tensor takes any element type over raw bytes, and ONNX Runtime writes
// outputs into preallocated ones (the binding copies outputs it allocated
// itself by element count, not bytes).
type Tensors struct {
	Values []ort.Value
	Data   [][]byte // each tensor's bytes, fixed for the session's life
}

// NewTensors makes them; the caller destroys them with Destroy.
func NewTensors(path string, tensors []kit.Tensor, batch int) (Tensors, error) {
	var made Tensors
	for _, t := range tensors {
		data := kit.AlignedBytes(batch * t.SampleBytes())
		value, err := ort.NewCustomDataTensor(Shape(batch, t.Shape...), data, ElementType(t.Dtype))
		if err != nil {
			made.Destroy()
			return Tensors{}, kit.Dataf(path, "cannot make a tensor for %s: %s", t.Describe(), kit.FirstLine(err.Error()))
		}
		made.Values = append(made.Values, value)
		made.Data = append(made.Data, data)
	}
	return made, nil
}

// Names are the tensors' names, in order.
func Names(tensors []kit.Tensor) []string {
	names := make([]string, len(tensors))
	for i, t := range tensors {
		names[i] = t.Name
	}
	return names
}

// Destroy releases every tensor made.
func (t Tensors) Destroy() {
	for _, v := range t.Values {
		v.Destroy()
	}
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
// not answer its outputs' shapes; later, the runtime failing mid-round).
func RunError(path string, err error) error {
	return kit.Dataf(path, "run failed: %s", kit.FirstLine(err.Error()))
}

// Opened is what each ONNX Runtime driver makes before its own session: the model's path and
// signature, its input and output tensors for the run's batch, and the session options.
type Opened struct {
	Path      string
	Signature kit.Signature
	X, Y      Tensors
	Options   *ort.SessionOptions // the caller destroys them once its session is made
}

// Open checks mlp.onnx in o.Models, initializes the library, reads the model's signature
// and makes its tensors and session options (NewSessionOptions) for o.Batch and o.Threads.
func Open(o kit.Options) (Opened, error) {
	path := filepath.Join(o.Models, "mlp.onnx")
	if err := RequireModel(path); err != nil {
		return Opened{}, err
	}
	if err := Initialize(); err != nil {
		return Opened{}, err
	}
	sig, err := ReadSignature(path)
	if err != nil {
		return Opened{}, err
	}
	x, err := NewTensors(path, sig.Inputs, o.Batch)
	if err != nil {
		return Opened{}, err
	}
	y, err := NewTensors(path, sig.Outputs, o.Batch)
	if err != nil {
		x.Destroy()
		return Opened{}, err
	}
	options, err := NewSessionOptions(o.Threads)
	if err != nil {
		x.Destroy()
		y.Destroy()
		return Opened{}, err
	}
	return Opened{Path: path, Signature: sig, X: x, Y: y, Options: options}, nil
}
