package ortsupport

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"callbench/kit"
)

func dataError(t *testing.T, err error) *kit.DataError {
	t.Helper()
	var data *kit.DataError
	if !errors.As(err, &data) {
		t.Fatalf("want a DataError, got %v", err)
	}
	return data
}

func TestLibraryUnsetSaysWhatToSet(t *testing.T) {
	t.Setenv(LibraryEnv, "")
	data := dataError(t, Initialize())
	if data.Path != LibraryEnv || !strings.HasPrefix(data.Problem, "not set; point it at libonnxruntime.so") {
		t.Fatalf("got %v", data)
	}
}

func TestLibraryMissingNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "libonnxruntime.so.9")
	t.Setenv(LibraryEnv, path)
	if data := dataError(t, Initialize()); data.Path != path {
		t.Fatalf("got %v", data)
	}
}

func TestRequireModel(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mlp.onnx")
	if data := dataError(t, RequireModel(path)); data.Path != path || !strings.Contains(data.Problem, "missing") {
		t.Fatalf("got %v", data)
	}
	if data := dataError(t, RequireModel(dir)); data.Path != dir {
		t.Fatalf("got %v", data)
	}
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := RequireModel(path); err != nil {
		t.Fatal(err)
	}
}
