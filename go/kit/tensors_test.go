package kit

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tokens: two int64 inputs of 4, a float32 [2] and an int64 [] output.
var tokens = Signature{
	Inputs:  []Tensor{{Name: "ids", Dtype: Int64, Shape: []int64{4}}, {Name: "mask", Dtype: Int64, Shape: []int64{4}}},
	Outputs: []Tensor{{Name: "logits", Dtype: Float32, Shape: []int64{2}}, {Name: "label", Dtype: Int64}},
}

func writeTestFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func int64s(values ...int64) []byte {
	data := make([]byte, 8*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint64(data[8*i:], uint64(v))
	}
	return data
}

func TestFilesAreNamedByPlaceAndDtype(t *testing.T) {
	for _, c := range []struct {
		stem  string
		index int
		dtype Dtype
		want  string
	}{{InputsStem, 0, Float32, "inputs.f32"}, {InputsStem, 1, Int64, "inputs1.i64"},
		{ReferenceStem, 2, Bool, "reference2.bool"}, {ReferenceStem, 0, Float16, "reference.f16"}} {
		if got := TensorFile(c.stem, c.index, c.dtype); got != c.want {
			t.Fatalf("got %q, want %q", got, c.want)
		}
	}
	image := Tensor{Name: "x", Dtype: Float16, Shape: []int64{3, 32, 32}}
	if image.SampleBytes() != 2*3*32*32 || image.Describe() != "'x' float16 [3, 32, 32]" {
		t.Fatalf("got %d, %q", image.SampleBytes(), image.Describe())
	}
}

func TestEachInputIsReadFromItsFileAndChecked(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "inputs.i64"), int64s(1, 2, 3, 4, 5, 6, 7, 8))
	writeTestFile(t, filepath.Join(dir, "inputs1.i64"), int64s(1, 1, 1, 1, 1, 1, 1, 1))
	read, err := ReadInputs(dir, tokens)
	if err != nil || len(read) != 2 || read[0].Count != 2 || binary.LittleEndian.Uint64(read[0].Bytes[8:]) != 2 {
		t.Fatalf("got %v, %v", read, err)
	}
	writeTestFile(t, filepath.Join(dir, "inputs1.i64"), int64s(make([]int64, 12)...))
	_, err = ReadInputs(dir, tokens)
	if data := requireData(t, err); !strings.HasPrefix(data.Problem, "holds 3 samples, inputs.i64 holds 2") {
		t.Fatalf("got %v", data)
	}
	half := Signature{Inputs: []Tensor{{Name: "x", Dtype: Float16, Shape: []int64{2}}}}
	writeTestFile(t, filepath.Join(dir, "inputs.f16"), []byte{0, 0x3C, 0, 0x3C, 0, 0x3C, 0, 0x7C})
	_, err = ReadInputs(dir, half)
	if data := requireData(t, err); data.Problem != "sample 1 of 'x' is NaN or Inf" {
		t.Fatalf("got %v", data)
	}
}

func TestEachReferenceHoldsOneSampleOfItsOutputPerInputSample(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "inputs.i64"), make([]byte, 96))    // 3 samples of 4
	writeTestFile(t, filepath.Join(dir, "reference.f32"), make([]byte, 24)) // 3 x 2
	model := filepath.Join(dir, "m.onnx")
	if err := CheckReferences(model, dir, tokens); err != nil { // no reference1.i64: the harness's
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(dir, "reference1.i64"), make([]byte, 16))
	want := model + ": answers 'label' int64 [] a sample; " + filepath.Join(dir, "reference1.i64") +
		" (16 bytes) does not hold one for each of the 3 samples of the inputs"
	if err := CheckReferences(model, dir, tokens); err == nil || err.Error() != want {
		t.Fatalf("got %v", err)
	}
}

// pairModel: per sample, ids[0] + ids[1] + bias as an int64 label and,
// halved, a float32 score; records each call's first id.
type pairModel struct {
	store    bool
	firstIDs []int64
}

func (m *pairModel) Signature() Signature {
	return Signature{
		Inputs:  []Tensor{{Name: "ids", Dtype: Int64, Shape: []int64{2}}, {Name: "bias", Dtype: Int64}},
		Outputs: []Tensor{{Name: "label", Dtype: Int64}, {Name: "score", Dtype: Float32}},
	}
}

func (m *pairModel) Call(in, out [][]byte) error {
	m.firstIDs = append(m.firstIDs, int64(binary.LittleEndian.Uint64(in[0])))
	if !m.store {
		return nil
	}
	for s := 0; s < len(in[1])/8; s++ {
		label := int64(binary.LittleEndian.Uint64(in[0][16*s:])+binary.LittleEndian.Uint64(in[0][16*s+8:])) +
			int64(binary.LittleEndian.Uint64(in[1][8*s:]))
		binary.LittleEndian.PutUint64(out[0][8*s:], uint64(label))
		binary.LittleEndian.PutUint32(out[1][4*s:], math.Float32bits(float32(label)/2))
	}
	return nil
}

func (m *pairModel) RuntimeVersion() string { return "0" }
func (m *pairModel) Notes() Notes           { return nil }

// pairInputs: ids (2s, 2s + 1), bias 100.
func pairInputs(samples int) []Samples {
	ids, bias := make([]int64, 2*samples), make([]int64, samples)
	for i := range ids {
		ids[i] = int64(i)
	}
	for i := range bias {
		bias[i] = 100
	}
	return []Samples{{Bytes: int64s(ids...), Count: samples}, {Bytes: int64s(bias...), Count: samples}}
}

func TestTensorRoundsFeedEveryInputAndStoreEveryOutput(t *testing.T) {
	model := &pairModel{store: true}
	r := NewRounds(model, pairInputs(6), 3, 2)
	if _, err := r.WarmUp(4, 0); err != nil || r.LastOutputs() != nil {
		t.Fatal(err)
	}
	if _, err := r.Round(2); err != nil {
		t.Fatal(err)
	}
	out := r.LastOutputs()
	if len(out) != 2 || len(out[0]) != 32 || binary.LittleEndian.Uint64(out[0][24:]) != 113 ||
		math.Float32frombits(binary.LittleEndian.Uint32(out[1][12:])) != 56.5 {
		t.Fatalf("outputs %v", out)
	}
	if ns, err := r.Latencies(3); err != nil || len(ns) != 3 || binary.LittleEndian.Uint64(r.LastOutputs()[0][24:]) != 113 {
		t.Fatalf("latencies %v, %v", ns, err)
	}
	want := []int64{0, 4, 8, 0, 0, 4, 0, 4, 8}
	for i, id := range want {
		if model.firstIDs[i] != id {
			t.Fatalf("first ids %v, want %v", model.firstIDs, want)
		}
	}
	if _, err := r.Round(4); err == nil {
		t.Fatal("a round of 4 of 3 calls ran")
	}
}

func TestTensorRoundsPoisonEveryOutputBeforeEachRound(t *testing.T) {
	model := &pairModel{store: true}
	r := NewRounds(model, pairInputs(3), 3, 1)
	if _, err := r.Round(3); err != nil {
		t.Fatal(err)
	}
	model.store = false
	if _, err := r.Round(3); err != nil {
		t.Fatal(err)
	}
	out := r.LastOutputs()
	if int64(binary.LittleEndian.Uint64(out[0])) != math.MinInt64 ||
		!math.IsNaN(float64(math.Float32frombits(binary.LittleEndian.Uint32(out[1])))) {
		t.Fatalf("a call that stores nothing left %v", out)
	}
}

func TestRunServesATensorModelAndWritesEveryOutput(t *testing.T) {
	dir := t.TempDir()
	samples := pairInputs(3)
	writeTestFile(t, filepath.Join(dir, "inputs.i64"), samples[0].Bytes)
	writeTestFile(t, filepath.Join(dir, "inputs1.i64"), samples[1].Bytes)
	outputs := filepath.Join(dir, "o.bin")
	var stdout, stderr strings.Builder
	load := func(o Options) (TensorModel, error) { return &pairModel{store: true}, nil }
	status := Run("go-test", []string{"--models", dir, "--calls", "3", "--warmup", "2",
		"--outputs", outputs}, load, strings.NewReader(""), &stdout, &stderr)
	if status != 0 {
		t.Fatalf("status %d, stderr %q", status, stderr.String())
	}
	written, _ := os.ReadFile(outputs)
	if len(written) != 3*8+3*4 || binary.LittleEndian.Uint64(written[16:]) != 109 {
		t.Fatalf("outputs %v: want 3 int64 labels then 3 float32 scores", written)
	}
}
