package kit

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sumCallers is a TakesCallers of sumModel: each caller its own, one chosen failing.
type sumCallers struct {
	FloatModel
	made      int
	failingAt int // the caller whose calls fail (-1: none)
}

func (s *sumCallers) Caller() (TensorModel, error) {
	one := &sumModel{}
	if s.made == s.failingAt {
		one.fail = Dataf("x", "failed on purpose")
	}
	s.made++
	return FloatModel{one}, nil
}

func (s *sumCallers) Holding() Holding { return Holding{Holds: PerCaller, How: "a sumModel each"} }

func callersLoader(failingAt int) CallersLoader {
	return func(o Options) (TakesCallers, error) {
		return &sumCallers{FloatModel: FloatModel{&sumModel{}}, failingAt: failingAt}, nil
	}
}

func runCallers(t *testing.T, stdin string, load CallersLoader, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr strings.Builder
	status := RunCallers("go-test", args, load, strings.NewReader(stdin), &stdout, &stderr)
	return status, stdout.String(), stderr.String()
}

func TestEachCallerTakesItsOwnSamplesAndEveryCallersOutputsAreWritten(t *testing.T) {
	// 5 samples (x0 = i, x1 = 0); 3 callers of 2 calls: caller c's call i is (2c + i) mod 5.
	dir := t.TempDir()
	writeInputs(t, dir, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0)
	outputs := filepath.Join(dir, "o.f32")
	status, stdout, stderr := runCallers(t, "round 2\nend\n", callersLoader(-1), "--models", dir,
		"--calls", "2", "--callers", "3", "--warmup", "4", "--outputs", outputs, "--serve")
	if status != 0 {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	var round Round
	if err := json.Unmarshal([]byte(lines[1]), &round); err != nil {
		t.Fatal(err)
	}
	if round.Callers != 3 || len(round.CallerNS) != 3 || round.NS != round.EndNS-round.StartNS {
		t.Fatalf("round %+v", round)
	}
	for _, ns := range round.CallerNS {
		if ns > round.NS {
			t.Fatalf("a caller's span %d is longer than the round's %d", ns, round.NS)
		}
	}
	var result struct {
		Callers int            `json:"callers"`
		Notes   map[string]any `json:"notes"`
	}
	if err := json.Unmarshal([]byte(lines[2]), &result); err != nil {
		t.Fatal(err)
	}
	if result.Callers != 3 || result.Notes["callers_hold"] != PerCaller || result.Notes["callers"] != 3.0 {
		t.Fatalf("result %s", lines[2])
	}
	written, _ := os.ReadFile(outputs)
	var got []float32
	for i := 0; i+4 <= len(written); i += 4 {
		got = append(got, math.Float32frombits(binary.LittleEndian.Uint32(written[i:])))
	}
	want := []float32{0, 1, 2, 3, 4, 0}
	if len(got) != len(want) {
		t.Fatalf("outputs %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("outputs %v, want %v", got, want)
		}
	}
}

func TestAFailingCallerIsOneLineNamingIt(t *testing.T) {
	dir := t.TempDir()
	writeInputs(t, dir, 1, 2, 3, 4)
	status, stdout, stderr := runCallers(t, "round 2\n", callersLoader(1), "--models", dir,
		"--calls", "2", "--callers", "3", "--warmup", "0", "--serve")
	if status != 1 || lastLine(stderr) != "go-test: error: caller 1: x: failed on purpose" {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	if strings.Count(stdout, "\n") != 1 { // the ready line only
		t.Fatalf("stdout %q", stdout)
	}
}

func TestADriverOfOneCallerRefusesMoreBeforeLoading(t *testing.T) {
	loaded := false
	load := func(o Options) (Model, error) { loaded = true; return &sumModel{}, nil }
	status, _, stderr := runDriver(t, "", load, "--callers", "2")
	if status != 2 || lastLine(stderr) != "go-test: usage: "+OneCaller || loaded {
		t.Fatalf("status %d, stderr %q, loaded %v", status, stderr, loaded)
	}
}
