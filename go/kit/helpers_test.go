package kit

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// writeInputs writes values as float32 little-endian to dir/inputs.f32.
func writeInputs(t *testing.T, dir string, values ...float32) string {
	t.Helper()
	data := make([]byte, 4*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(v))
	}
	path := filepath.Join(dir, "inputs.f32")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func requireUsage(t *testing.T, err error) *UsageError {
	t.Helper()
	var usage *UsageError
	if !errors.As(err, &usage) {
		t.Fatalf("want a UsageError, got %v (%T)", err, err)
	}
	return usage
}

func requireData(t *testing.T, err error) *DataError {
	t.Helper()
	var data *DataError
	if !errors.As(err, &data) {
		t.Fatalf("want a DataError, got %v (%T)", err, err)
	}
	return data
}

// sumModel stores x1 + x2 for each sample, or nothing when lazy.
type sumModel struct {
	calls int
	lazy  bool
	fail  error
}

func (m *sumModel) Call(in, out []float32) error {
	m.calls++
	if m.fail != nil {
		return m.fail
	}
	if m.lazy {
		return nil
	}
	for i := range out {
		out[i] = in[2*i] + in[2*i+1]
	}
	return nil
}

func (m *sumModel) RuntimeVersion() string { return "0.0-test" }
func (m *sumModel) Notes() Notes           { return Notes{{Key: "call", Value: "sum"}} }

// floatSamples are our MLP's inputs (2 floats a sample) as the one input's samples.
func floatSamples(values ...float32) []Samples {
	b := AlignedBytes(4 * len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return []Samples{{Bytes: b, Count: len(values) / 2}}
}

// lastFloats are the one output of a float model's last round, as floats.
func lastFloats(t *testing.T, r *Rounds) []float32 {
	t.Helper()
	outputs := r.LastOutputs()
	if len(outputs) == 0 {
		return nil
	}
	if len(outputs) != 1 {
		t.Fatalf("%d outputs, want 1", len(outputs))
	}
	return append([]float32(nil), floats(outputs[0])...)
}
