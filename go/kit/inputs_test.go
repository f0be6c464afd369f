package kit

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadInputsOfTheMLP(t *testing.T) {
	dir := t.TempDir()
	writeInputs(t, dir, 1, 2, -3, 4.5)
	read, err := ReadInputs(dir, MLPSignature())
	if err != nil {
		t.Fatal(err)
	}
	if values := floats(read[0].Bytes); len(read) != 1 || read[0].Count != 2 || values[2] != -3 || values[3] != 4.5 {
		t.Fatalf("got %v", read)
	}
}

func TestInputsNotWholeSamples(t *testing.T) {
	dir := t.TempDir()
	path := writeInputs(t, dir, 1, 2, 3) // 12 bytes: not a multiple of 8
	_, err := ReadInputs(dir, MLPSignature())
	data := requireData(t, err)
	if data.Path != path || !strings.Contains(data.Problem, "size 12 bytes is not a whole number of samples") {
		t.Fatalf("got %v", err)
	}
}

func TestInputsNaNAndInf(t *testing.T) {
	for name, bad := range map[string]float32{"NaN": float32(math.NaN()), "Inf": float32(math.Inf(-1))} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeInputs(t, dir, 0, 0, 1, bad)
			_, err := ReadInputs(dir, MLPSignature())
			data := requireData(t, err)
			if data.Path != path || data.Problem != "sample 1 of 'x' is NaN or Inf" {
				t.Fatalf("got %v", err)
			}
		})
	}
}

func TestInputsMissing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "inputs.f32")
	_, err := ReadInputs(dir, MLPSignature())
	if data := requireData(t, err); data.Path != path || !strings.Contains(data.Problem, "missing") {
		t.Fatalf("got %v", err)
	}
}

func TestInputsUnreadable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "inputs.f32")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := ReadInputs(dir, MLPSignature())
	requireData(t, err)
}

func TestTooFewSamples(t *testing.T) {
	o := DefaultOptions()
	o.Calls, o.Batch = 3, 2
	if err := RequireSamples("in.f32", 6, o); err != nil {
		t.Fatal(err)
	}
	usage := requireUsage(t, RequireSamples("in.f32", 5, o))
	if usage.Problem != "--calls 3 x --batch 2 needs 6 samples but in.f32 holds 5" {
		t.Fatalf("got %q", usage.Problem)
	}
}
