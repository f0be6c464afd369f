// Package ortsupport holds what the Go ONNX Runtime drivers share: finding
// and loading libonnxruntime, the single-threaded session options, and the
// versions the result line reports.
//
// library: onnxruntime_go opens the ONNX Runtime shared library with dlopen
// at run time (it links nothing at build time); the harness names the file
// in CALLBENCH_ONNXRUNTIME_LIB (the onnxruntime wheel's
// libonnxruntime.so.<version>).
package ortsupport

import (
	"os"
	"runtime/debug"

	ort "github.com/yalue/onnxruntime_go"

	"callbench/kit"
)

// LibraryEnv names the environment variable that holds the library's path.
const LibraryEnv = "CALLBENCH_ONNXRUNTIME_LIB"

// BindingModule is the Go binding's module path (its version is read from
// the build information).
const BindingModule = "github.com/yalue/onnxruntime_go"

// Initialize loads the library named by CALLBENCH_ONNXRUNTIME_LIB and creates
// ONNX Runtime's environment (errors-only logging). Every problem is a
// DataError naming the variable or the file. Once done, it is done: a caller's
// session (contract 4) opens the model after the entry's.
func Initialize() error {
	if ort.IsInitialized() {
		return nil
	}
	path := os.Getenv(LibraryEnv)
	if path == "" {
		return kit.Dataf(LibraryEnv, "not set; point it at libonnxruntime.so.<version> "+
			"(the onnxruntime wheel's onnxruntime/capi/ holds one)")
	}
	if info, err := os.Stat(path); err != nil || info.IsDir() {
		return kit.Dataf(path, "not a file (from %s)", LibraryEnv)
	}
	ort.SetSharedLibraryPath(path)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return kit.Dataf(path, "does not load as ONNX Runtime: %s", kit.FirstLine(err.Error()))
	}
	return nil
}

// RuntimeVersion is the loaded library's own version (OrtGetApiBase's).
func RuntimeVersion() string { return ort.GetVersion() }

// BindingVersion is onnxruntime_go's module version this binary was built
// with, e.g. "v1.27.0"; "unknown" without build information.
func BindingVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, dep := range info.Deps {
		if dep.Path == BindingModule {
			return dep.Version
		}
	}
	return "unknown"
}
