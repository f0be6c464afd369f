// DriverMain: the main function of every Go driver. It wires the kit's parts
// together: options -> inputs -> load the model (timed) -> warm-up -> serve
// or the standalone script -> outputs -> result line; errors become the
// contract's lines and exit statuses. A driver only says how to load its
// model and make one call:
//
//	func main() { kit.DriverMain("go-x", load) }
//
// load returns a TensorModel (any ONNX model), or for our MLP a float Model
// through kit.FloatModelLoader(load). A driver whose model takes callers
// (contract 4: a TakesCallers) calls kit.DriverMainCallers(id, load).

package kit

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"
)

// DriverMain runs the driver of a TensorModel (our MLP's float Model through
// FloatModelLoader) on the process's arguments and streams, and exits.
func DriverMain(id string, load TensorLoader) {
	os.Exit(Run(id, os.Args[1:], load, os.Stdin, os.Stdout, os.Stderr))
}

// OneCaller is what a driver that runs one caller answers to --callers N > 1 (contract 4).
const OneCaller = "--callers N > 1 is not supported: this driver runs one caller"

// Run is DriverMain without the exit: it returns the exit status. Its driver
// runs one caller: --callers N > 1 is refused before anything loads.
func Run(id string, args []string, load TensorLoader, stdin io.Reader, stdout, stderr io.Writer) int {
	return guarded(id, args, stdout, stderr, func(o Options) error {
		if o.Callers > 1 {
			return Usagef("%s", OneCaller)
		}
		return drive(id, o, load, stdin, stdout, stderr)
	})
}

// DriverMainCallers runs the driver of a model that takes callers (contract 4)
// on the process's arguments and streams, and exits.
func DriverMainCallers(id string, load CallersLoader) {
	os.Exit(RunCallers(id, os.Args[1:], load, os.Stdin, os.Stdout, os.Stderr))
}

// RunCallers is DriverMainCallers without the exit: at one caller as Run (the
// loaded model called from the entry's thread), at N > 1 callers N goroutines
// each calling its own Caller() of the one loaded model (callers.go).
func RunCallers(id string, args []string, load CallersLoader, stdin io.Reader, stdout, stderr io.Writer) int {
	return guarded(id, args, stdout, stderr, func(o Options) error {
		if o.Callers == 1 {
			asTensorModel := func(o Options) (TensorModel, error) {
				model, err := load(o)
				if err != nil {
					return nil, err
				}
				return model, nil
			}
			return drive(id, o, asTensorModel, stdin, stdout, stderr)
		}
		return driveCallers(id, o, load, stdin, stdout, stderr)
	})
}

// guarded parses the options and runs body, its errors and panics turned
// into the contract's one line and exit status.
func guarded(id string, args []string, stdout, stderr io.Writer, body func(Options) error) (status int) {
	// Every call, clock read and CPU-clock read happens on this one thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	o, err := ParseOptions(args)
	if err != nil {
		return Report(stderr, id, err, false)
	}
	if o.Help {
		fmt.Fprintln(stdout, HelpLine(id))
		return 0
	}
	defer func() {
		if p := recover(); p != nil {
			if o.Debug {
				fmt.Fprintf(stderr, "%v\n%s", p, debug.Stack())
			}
			status = Report(stderr, id, fmt.Errorf("panic: %v", p), false)
		}
	}()
	if err := body(o); err != nil {
		return Report(stderr, id, err, o.Debug)
	}
	return 0
}

// measured is what a loaded, warmed-up model leaves for the dialogue and the result line.
type measured struct {
	runner         Runner
	writeOutputs   func(path string) error
	runtimeVersion func() string
	notes          func() Notes
	loadNS         int64
	warmup         Warmup
}

func drive(id string, o Options, load TensorLoader, stdin io.Reader, stdout, stderr io.Writer) error {
	model, loadNS, err := timedLoad(o, load, stderr)
	if err != nil {
		return err
	}
	if _, ok := model.(GatheredModel); o.Gathered && !ok {
		return Usagef("%s", FixedBatch)
	}
	inputs, err := checkedInputs(o, model.Signature())
	if err != nil {
		return err
	}
	fmt.Fprintln(stderr, "progress: warm-up")
	rounds := NewRounds(model, inputs, o.Calls, o.Batch)
	warmup, err := rounds.WarmUp(o.Warmup, o.WarmupTime)
	if err != nil {
		return err
	}
	m := measured{
		runner:         rounds,
		writeOutputs:   func(path string) error { return WriteOutputs(path, rounds.LastOutputs()) },
		runtimeVersion: model.RuntimeVersion, notes: model.Notes, loadNS: loadNS, warmup: warmup,
	}
	if o.MaxDelayUs >= 0 { // contract 7: paced rounds through the batcher
		batcher := NewBatcher(rounds, model, inputs, o.Calls, o.Batch, o.MaxDelayUs)
		if o.Gathered {
			batcher.gathered = model.(GatheredModel) // checked before the inputs were read
		}
		m.runner = batcher
		m.writeOutputs = func(path string) error { return WriteOutputs(path, batcher.LastOutputs()) }
	}
	return finish(id, o, m, stdin, stdout)
}

func driveCallers(id string, o Options, load CallersLoader, stdin io.Reader, stdout, stderr io.Writer) error {
	model, loadNS, err := timedLoad(o, load, stderr)
	if err != nil {
		return err
	}
	inputs, err := checkedInputs(o, model.Signature())
	if err != nil {
		return err
	}
	fmt.Fprintln(stderr, "progress: warm-up")
	callers, warmup, err := StartCallers(model, inputs, o)
	if err != nil {
		return err
	}
	defer callers.Close()
	return finish(id, o, measured{
		runner:         callers,
		writeOutputs:   func(path string) error { return WriteOutputs(path, callers.LastOutputs()) },
		runtimeVersion: model.RuntimeVersion, notes: callers.Notes, loadNS: loadNS, warmup: warmup,
	}, stdin, stdout)
}

// checkedInputs reads each input's samples, after loading (which files hold them is
// the model's signature to say), and checks they hold a round's.
func checkedInputs(o Options, signature Signature) ([]Samples, error) {
	inputs, err := ReadInputs(o.Models, signature)
	if err != nil {
		return nil, err
	}
	first := filepath.Join(o.Models, TensorFile(InputsStem, 0, signature.Inputs[0].Dtype))
	if err := RequireSamples(first, inputs[0].Count, o); err != nil {
		return nil, err
	}
	return inputs, nil
}

// timedLoad calls load, timed as load_ns.
func timedLoad[M any](o Options, load func(Options) (M, error), stderr io.Writer) (M, int64, error) {
	fmt.Fprintln(stderr, "progress: loading")
	start := time.Now()
	model, err := load(o)
	return model, time.Since(start).Nanoseconds(), err
}

// finish runs the dialogue (--serve) or the standalone script, writes
// --outputs and prints the result line.
func finish(id string, o Options, m measured, stdin io.Reader, stdout io.Writer) error {
	var done []Round
	var err error
	if o.Serve {
		done, err = Serve(o, m.runner, m.loadNS, m.warmup, stdin, stdout)
	} else {
		done, err = RunScript(o, m.runner)
	}
	if err != nil {
		return err
	}
	if o.Outputs != "" {
		if err := m.writeOutputs(o.Outputs); err != nil {
			return err
		}
	}
	result := Result{
		Driver: id, Calls: o.Calls, Batch: o.Batch, Threads: o.Threads, Callers: callersEchoed(o),
		RuntimeVersion: m.runtimeVersion(), LoadNS: m.loadNS,
		PeakRSSBytes: PeakRSSBytes(), Rounds: done, Notes: m.notes(),
	}
	fmt.Fprintln(stdout, result.JSON())
	return nil
}

// callersEchoed is the result line's "callers": N above one, else left out.
func callersEchoed(o Options) int {
	if o.Callers > 1 {
		return o.Callers
	}
	return 0
}
