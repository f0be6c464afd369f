// inputs: checking that the inputs hold the samples a run needs (they are
// read by their signature: tensors' ReadInputs), and reading float32
// artifacts of finite values (the MLP's weights).

package kit

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"math"
	"os"
)

// InputWidth and OutputWidth are the floats of one sample of our MLP's
// inputs.f32 and of its outputs.
const (
	InputWidth  = 2
	OutputWidth = 1
)

// RequireFile is a DataError unless path exists.
func RequireFile(path string) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return MissingArtifact(path)
	}
	return nil
}

// ReadFiniteFloats reads a file of little-endian float32 records of width
// floats, every value finite; what names one record in messages.
func ReadFiniteFloats(path string, width int, what string) ([]float32, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, MissingArtifact(path)
	}
	if err != nil {
		return nil, Dataf(path, "cannot read: %v", unwrapPath(err))
	}
	record := 4 * width
	if len(data)%record != 0 {
		return nil, Dataf(path, "size %d bytes is not a whole number of %ss (%d bytes each)",
			len(data), what, record)
	}
	values := make([]float32, len(data)/4)
	for i := range values {
		v := math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, Dataf(path, "%s %d is NaN or Inf", what, i/width)
		}
		values[i] = v
	}
	return values, nil
}

// RequireSamples is a UsageError unless the file's samples cover the
// --calls x --batch the run needs.
func RequireSamples(path string, samples int, o Options) error {
	if needed := o.Calls * o.Batch; needed > samples {
		return Usagef("--calls %d x --batch %d needs %d samples but %s holds %d",
			o.Calls, o.Batch, needed, path, samples)
	}
	return nil
}

// unwrapPath drops the "open <path>:" a *fs.PathError repeats.
func unwrapPath(err error) error {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err
	}
	return err
}
