// tensors: contract version 3 in Go. A model's named inputs and outputs
// (dtype, shape per sample), the raw file that holds each one's samples by
// the naming rule (inputs.f32, inputs1.i64, reference.f32, reference1.i64,
// ...), and reading those files. The same words as the other kits: a Tensor,
// a Signature of inputs and outputs, a sample shape, a dtype.

package kit

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unsafe"
)

// Dtype is one of the contract's element types.
type Dtype int

const (
	Float32 Dtype = iota
	Float16
	Float64
	Int64
	Int32
	Int8
	Uint8
	Bool
)

var dtypeFacts = [...]struct {
	bytes           int
	name, extension string
}{
	Float32: {4, "float32", "f32"},
	Float16: {2, "float16", "f16"},
	Float64: {8, "float64", "f64"},
	Int64:   {8, "int64", "i64"},
	Int32:   {4, "int32", "i32"},
	Int8:    {1, "int8", "i8"},
	Uint8:   {1, "uint8", "u8"},
	Bool:    {1, "bool", "bool"},
}

// Bytes per value.
func (d Dtype) Bytes() int { return dtypeFacts[d].bytes }

// Name is the contract's: float32, ..., bool.
func (d Dtype) Name() string { return dtypeFacts[d].name }

// Extension is the file's: f32, ..., bool.
func (d Dtype) Extension() string { return dtypeFacts[d].extension }

// finite: whether one value (d.Bytes() long) is a finite float, or not a float.
func (d Dtype) finite(v []byte) bool {
	switch d {
	case Float32:
		f := math.Float32frombits(binary.LittleEndian.Uint32(v))
		return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0)
	case Float64:
		f := math.Float64frombits(binary.LittleEndian.Uint64(v))
		return !math.IsNaN(f) && !math.IsInf(f, 0)
	case Float16:
		return binary.LittleEndian.Uint16(v)&0x7C00 != 0x7C00 // all-ones exponent: Inf or NaN
	}
	return true
}

// Poison fills b with what no call gives: NaN for floats, an integer's
// smallest value; bool has no such value and is left as it is.
func Poison(b []byte, d Dtype) {
	var value []byte
	switch d {
	case Float32:
		value = binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(math.NaN())))
	case Float64:
		value = binary.LittleEndian.AppendUint64(nil, math.Float64bits(math.NaN()))
	case Float16:
		value = binary.LittleEndian.AppendUint16(nil, 0x7E00)
	case Int64:
		value = binary.LittleEndian.AppendUint64(nil, 1<<63)
	case Int32:
		value = binary.LittleEndian.AppendUint32(nil, 1<<31)
	case Int8:
		value = []byte{0x80}
	case Uint8:
		value = []byte{0}
	default:
		return
	}
	// The first value, then the filled part copied onto the rest, doubling:
	// a few memmoves per round, not one per value (a round's poison is
	// counted with its calls).
	end := len(b) - len(b)%len(value)
	if end == 0 {
		return
	}
	for filled := copy(b[:end], value); filled < end; {
		filled += copy(b[filled:end], b[:filled])
	}
}

// Tensor is one named input or output of a model.
type Tensor struct {
	Name  string
	Dtype Dtype
	Shape []int64 // per sample, without the batch dimension
}

// SampleSize is the values per sample.
func (t Tensor) SampleSize() int {
	size := 1
	for _, d := range t.Shape {
		size *= int(d)
	}
	return size
}

// SampleBytes is the bytes per sample.
func (t Tensor) SampleBytes() int { return t.SampleSize() * t.Dtype.Bytes() }

// Describe: 'x' float32 [3, 32, 32]
func (t Tensor) Describe() string {
	dims := make([]string, len(t.Shape))
	for i, d := range t.Shape {
		dims[i] = strconv.FormatInt(d, 10)
	}
	return fmt.Sprintf("'%s' %s [%s]", t.Name, t.Dtype.Name(), strings.Join(dims, ", "))
}

// Signature is every input and output, in the model's order (as its runtime reads them).
type Signature struct {
	Inputs, Outputs []Tensor
}

const (
	InputsStem    = "inputs"
	ReferenceStem = "reference"
)

// TensorFile is the file of tensor index of a stem by the naming rule:
// ("inputs", 0, Float32) -> inputs.f32, ("reference", 1, Int64) -> reference1.i64.
func TensorFile(stem string, index int, d Dtype) string {
	place := ""
	if index > 0 {
		place = strconv.Itoa(index)
	}
	return stem + place + "." + d.Extension()
}

// AlignedBytes is n zero bytes starting on a 64-byte boundary: a runtime may
// take a buffer without copying only when it is aligned, and a value of any
// dtype must be aligned to its size.
func AlignedBytes(n int) []byte {
	raw := make([]byte, n+64)
	skip := (64 - int(uintptr(unsafe.Pointer(&raw[0]))%64)) % 64
	return raw[skip : skip+n : skip+n]
}

// Samples are one input's samples, as raw little-endian bytes.
type Samples struct {
	Bytes []byte
	Count int
}

func readSamples(path string, t Tensor) (Samples, error) {
	if err := RequireFile(path); err != nil {
		return Samples{}, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Samples{}, Dataf(path, "cannot read: %v", unwrapPath(err))
	}
	sample := t.SampleBytes()
	if len(data) == 0 || len(data)%sample != 0 {
		return Samples{}, Dataf(path, "size %d bytes is not a whole number of samples of '%s' (%d bytes each)",
			len(data), t.Name, sample)
	}
	width := t.Dtype.Bytes()
	for i := 0; i < len(data); i += width {
		if !t.Dtype.finite(data[i : i+width]) {
			return Samples{}, Dataf(path, "sample %d of '%s' is NaN or Inf", i/sample, t.Name)
		}
	}
	bytes := AlignedBytes(len(data))
	copy(bytes, data)
	return Samples{Bytes: bytes, Count: len(data) / sample}, nil
}

// ReadInputs reads each input's file in models by the naming rule,
// checked: a whole, non-zero number of samples, every float finite, the same
// sample count in every file. Every problem is a DataError naming the file.
func ReadInputs(models string, s Signature) ([]Samples, error) {
	all := make([]Samples, 0, len(s.Inputs))
	for k, t := range s.Inputs {
		path := filepath.Join(models, TensorFile(InputsStem, k, t.Dtype))
		samples, err := readSamples(path, t)
		if err != nil {
			return nil, err
		}
		if k > 0 && samples.Count != all[0].Count {
			return nil, Dataf(path, "holds %d samples, %s holds %d (every input file holds the same samples)",
				samples.Count, TensorFile(InputsStem, 0, s.Inputs[0].Dtype), all[0].Count)
		}
		all = append(all, samples)
	}
	return all, nil
}

// CheckReferences is a DataError about model unless every reference file in
// models (by the naming rule) holds one sample of its output for each sample
// of the first input's file: a model that answers another shape than the one
// its reference was made with fails at load, naming the model. A missing or
// partial file is left to the reading that names it.
func CheckReferences(model, models string, s Signature) error {
	if len(s.Inputs) == 0 {
		return nil
	}
	first := s.Inputs[0]
	in, err := os.Stat(filepath.Join(models, TensorFile(InputsStem, 0, first.Dtype)))
	if err != nil || first.SampleBytes() == 0 || in.Size()%int64(first.SampleBytes()) != 0 {
		return nil
	}
	samples := in.Size() / int64(first.SampleBytes())
	for k, t := range s.Outputs {
		path := filepath.Join(models, TensorFile(ReferenceStem, k, t.Dtype))
		ref, err := os.Stat(path)
		if err == nil && ref.Size() != samples*int64(t.SampleBytes()) {
			return Dataf(model, "answers %s a sample; %s (%d bytes) does not hold one for each of the %d samples of the inputs",
				t.Describe(), path, ref.Size(), samples)
		}
	}
	return nil
}
