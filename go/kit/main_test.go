package kit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sumLoader(o Options) (Model, error) { return &sumModel{}, nil }

func runDriver(t *testing.T, stdin string, load Loader, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr strings.Builder
	status := Run("go-test", args, FloatModelLoader(load), strings.NewReader(stdin), &stdout, &stderr)
	return status, stdout.String(), stderr.String()
}

func lastLine(text string) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestRunServesAndWritesOutputs(t *testing.T) {
	dir := t.TempDir()
	writeInputs(t, dir, 1, 2, 3, 4, 5, 6)
	outputs := filepath.Join(dir, "o.f32")
	status, stdout, stderr := runDriver(t, "round 2\nround 3\nend\n", sumLoader,
		"--models", dir, "--calls", "3", "--warmup", "2", "--outputs", outputs, "--serve")
	if status != 0 {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], `{"event":"ready"`) {
		t.Fatalf("stdout %q", stdout)
	}
	var result struct {
		Driver string `json:"driver"`
		Calls  int    `json:"calls"`
		Rounds []struct {
			Calls int `json:"calls"`
		} `json:"rounds"`
	}
	if err := json.Unmarshal([]byte(lines[3]), &result); err != nil {
		t.Fatal(err)
	}
	if result.Driver != "go-test" || result.Calls != 3 || len(result.Rounds) != 2 || result.Rounds[1].Calls != 3 {
		t.Fatalf("result %+v", result)
	}
	written, _ := os.ReadFile(outputs)
	if len(written) != 12 {
		t.Fatalf("outputs hold %d bytes, want the last round's 3 floats", len(written))
	}
	if lastLine(stderr) != "progress: warm-up" {
		t.Fatalf("stderr %q", stderr)
	}
}

func TestRunStandalone(t *testing.T) {
	dir := t.TempDir()
	writeInputs(t, dir, 1, 2, 3, 4)
	status, stdout, _ := runDriver(t, "", sumLoader, "--models", dir, "--calls", "2", "--repeats", "2")
	if status != 0 || strings.Count(stdout, "\n") != 1 || !strings.Contains(stdout, `"rounds":[{"calls":2`) {
		t.Fatalf("status %d, stdout %q", status, stdout)
	}
}

func TestRunUsageErrors(t *testing.T) {
	dir := t.TempDir()
	writeInputs(t, dir, 1, 2, 3, 4)
	cases := map[string][]string{
		"bad option":       {"--calls", "0"},
		"too few samples":  {"--models", dir, "--calls", "3"},
		"round too large":  {"--models", dir, "--calls", "1", "--serve"},
		"unknown argument": {"--models", dir, "x"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			status, _, stderr := runDriver(t, "round 2\n", sumLoader, args...)
			if status != 2 || !strings.HasPrefix(lastLine(stderr), "go-test: usage: ") {
				t.Fatalf("status %d, stderr %q", status, stderr)
			}
		})
	}
	status, _, stderr := runDriver(t, "bogus\n", sumLoader, "--models", dir, "--calls", "2", "--serve")
	if status != 2 || lastLine(stderr) != "go-test: usage: unknown command 'bogus': expected 'round K', 'latencies K', 'paced FILE [START]' or 'end'" {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
}

func TestRunDataErrors(t *testing.T) {
	dir := t.TempDir()
	status, _, stderr := runDriver(t, "", sumLoader, "--models", dir)
	want := "go-test: error: " + filepath.Join(dir, "inputs.f32") + ": missing; run `nox -s export` first"
	if status != 1 || lastLine(stderr) != want {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	writeInputs(t, dir, 1, 2)
	failing := func(o Options) (Model, error) { return nil, MissingArtifact(filepath.Join(o.Models, "m.onnx")) }
	status, _, stderr = runDriver(t, "", failing, "--models", dir, "--calls", "1")
	if status != 1 || !strings.HasSuffix(lastLine(stderr), "m.onnx: missing; run `nox -s export` first") {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
}

func TestRunPanicIsOneLine(t *testing.T) {
	dir := t.TempDir()
	writeInputs(t, dir, 1, 2)
	panicking := func(o Options) (Model, error) { panic("boom\nmore") }
	status, _, stderr := runDriver(t, "", panicking, "--models", dir, "--calls", "1")
	if status != 1 || stderr != "progress: loading\ngo-test: error: panic: boom\n" {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
}
