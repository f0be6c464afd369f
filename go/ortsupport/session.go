// session: the session options every Go ONNX Runtime driver uses, and the
// checks around loading.

package ortsupport

import (
	"errors"
	"io/fs"
	"os"

	ort "github.com/yalue/onnxruntime_go"

	"callbench/kit"
)

// Names of the model's input and output, as the exporter writes them.
const (
	InputName  = "x"
	OutputName = "y"
)

// NewSessionOptions: threads intra-op threads, one inter-op thread,
// sequential execution, all graph optimisations (as cpp-onnxruntime).
// The caller destroys them once the session is made.
func NewSessionOptions(threads int) (*ort.SessionOptions, error) {
	options, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	for _, set := range []func() error{
		func() error { return options.SetIntraOpNumThreads(threads) },
		func() error { return options.SetInterOpNumThreads(1) },
		func() error { return options.SetExecutionMode(ort.ExecutionModeSequential) },
		func() error { return options.SetGraphOptimizationLevel(ort.GraphOptimizationLevelEnableAll) },
	} {
		if err := set(); err != nil {
			options.Destroy()
			return nil, err
		}
	}
	return options, nil
}

// RequireModel is a DataError unless path is a regular file.
func RequireModel(path string) error {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return kit.MissingArtifact(path)
	}
	if err != nil || !info.Mode().IsRegular() {
		return kit.Dataf(path, "not a regular file")
	}
	return nil
}

// LoadError is the DataError for a model ONNX Runtime would not load.
func LoadError(path string, err error) error {
	return kit.Dataf(path, "does not load as ONNX: %s", kit.FirstLine(err.Error()))
}

// RunError is the DataError for a run that failed (at load, a model that does
// not map x [B, 2] to y [B, 1]; later, the runtime failing mid-round).
func RunError(path string, err error) error {
	return kit.Dataf(path, "run failed: %s", kit.FirstLine(err.Error()))
}
