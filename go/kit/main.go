// DriverMain: the main function of every Go driver. It wires the kit's parts
// together: options -> inputs -> load the model (timed) -> warm-up -> serve
// or the standalone script -> outputs -> result line; errors become the
// contract's lines and exit statuses. A driver only says how to load its
// model and make one call:
//
//	func main() { kit.DriverMain("go-x", load) }

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

// DriverMain runs the driver on the process's arguments and streams, and exits.
func DriverMain(id string, load Loader) {
	os.Exit(Run(id, os.Args[1:], load, os.Stdin, os.Stdout, os.Stderr))
}

// Run is DriverMain without the exit: it returns the exit status.
func Run(id string, args []string, load Loader, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	// Every call, clock read and CPU-clock read happens on this one thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	o, err := ParseOptions(args)
	if err != nil {
		return Report(stderr, id, err, false)
	}
	defer func() {
		if p := recover(); p != nil {
			if o.Debug {
				fmt.Fprintf(stderr, "%v\n%s", p, debug.Stack())
			}
			status = Report(stderr, id, fmt.Errorf("panic: %v", p), false)
		}
	}()
	if err := drive(id, o, load, stdin, stdout, stderr); err != nil {
		return Report(stderr, id, err, o.Debug)
	}
	return 0
}

func drive(id string, o Options, load Loader, stdin io.Reader, stdout, stderr io.Writer) error {
	inputsPath := filepath.Join(o.Models, "inputs.f32")
	if err := RequireFile(inputsPath); err != nil {
		return err
	}

	fmt.Fprintln(stderr, "progress: loading")
	start := time.Now()
	model, err := load(o)
	if err != nil {
		return err
	}
	loadNS := time.Since(start).Nanoseconds()

	// Read after loading: how many floats make a sample is the model's to say.
	width := WidthsOf(model).Input
	inputs, err := ReadSamples(inputsPath, width)
	if err != nil {
		return err
	}
	if err := RequireSamples(inputsPath, len(inputs)/width, o); err != nil {
		return err
	}

	fmt.Fprintln(stderr, "progress: warm-up")
	rounds := NewRounds(model, inputs, o.Calls, o.Batch)
	if err := rounds.WarmUp(o.Warmup); err != nil {
		return err
	}
	var done []Round
	if o.Serve {
		done, err = Serve(o, rounds, loadNS, stdin, stdout)
	} else {
		done, err = RunScript(o, rounds)
	}
	if err != nil {
		return err
	}
	if o.Outputs != "" {
		if err := WriteFloats(o.Outputs, rounds.LastOutputs()); err != nil {
			return err
		}
	}
	result := Result{
		Driver: id, Calls: o.Calls, Batch: o.Batch, Threads: o.Threads,
		RuntimeVersion: model.RuntimeVersion(), LoadNS: loadNS,
		PeakRSSBytes: PeakRSSBytes(), Rounds: done, Notes: model.Notes(),
	}
	fmt.Fprintln(stdout, result.JSON())
	return nil
}
