// inputs: reading and checking inputs.f32 ([N, 2] float32 little-endian).

package kit

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"math"
	"os"
)

// InputWidth and OutputWidth are the floats of one sample in inputs.f32 and
// in the outputs.
const (
	InputWidth  = 2
	OutputWidth = 1
)

// ReadInputs reads inputs.f32: a whole number of samples, none NaN or Inf.
// Every problem is a DataError naming the file.
func ReadInputs(path string) ([]float32, error) {
	return ReadFiniteFloats(path, InputWidth, "sample")
}

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
