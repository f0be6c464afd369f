// options: the contract's command-line options, declared once for every Go
// driver (standard flag package; "--calls 10" and "--calls=10" both work).

package kit

import (
	"flag"
	"io"
	"math"
	"strconv"
	"strings"
)

// Options are what the harness (or a person) asked the driver for.
type Options struct {
	Models     string  // artifacts folder
	Calls      int     // N: the most calls a round may take
	Warmup     int     // untimed calls after loading, at most
	WarmupTime float64 // seconds the warm-up may take once it has made 5 calls (0: no limit)
	Repeats    int     // standalone runs only: rounds of N calls
	Batch      int     // samples per call
	Threads    int     // intra-op threads for the runtime
	Callers    int     // contract 4: callers calling the model at once (DriverMain refuses more than 1)
	MaxDelayUs int     // contract 7's batcher's longest wait in µs (batcher.go); -1 when not given
	Gathered   bool    // ... its calls at the size they gathered (a GatheredModel's), not padded to B
	Outputs    string  // "" when not given
	Latencies  string  // "" when not given
	Serve      bool    // take commands from stdin instead of running --repeats rounds
	Debug      bool    // full error text on stderr
	Help       bool    // --help: the entry prints HelpLine and exits 0, loading nothing
}

// DefaultOptions are the contract's defaults.
func DefaultOptions() Options {
	return Options{Models: "models", Calls: 1_000_000, Warmup: 10_000, WarmupTime: 2, Repeats: 3, Batch: 1, Threads: 1, Callers: 1, MaxDelayUs: -1}
}

// ParseOptions parses the arguments after the program name. Every problem is
// a UsageError naming the option.
func ParseOptions(args []string) (Options, error) {
	o := DefaultOptions()
	var firstProblem error // ours, clearer than the flag package's wrapping
	flags := flag.NewFlagSet("driver", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	count := func(name string, target *int, minimum int) {
		flags.Func(name, "", func(text string) error {
			value, err := parseCount(name, text, minimum)
			if err != nil && firstProblem == nil {
				firstProblem = err
			}
			*target = value
			return err
		})
	}
	path := func(name, what string, target *string) {
		flags.Func(name, "", func(text string) error {
			if text == "" {
				err := Usagef("--%s needs %s", name, what)
				if firstProblem == nil {
					firstProblem = err
				}
				return err
			}
			*target = text
			return nil
		})
	}
	path("models", "a folder", &o.Models)
	count("calls", &o.Calls, 1)
	count("warmup", &o.Warmup, 0)
	flags.Func("warmup-time", "", func(text string) error {
		value, err := parseSeconds("warmup-time", text)
		if err != nil && firstProblem == nil {
			firstProblem = err
		}
		o.WarmupTime = value
		return err
	})
	count("repeats", &o.Repeats, 1)
	count("batch", &o.Batch, 1)
	count("threads", &o.Threads, 1)
	count("callers", &o.Callers, 1)
	count("max-delay", &o.MaxDelayUs, 0)
	path("outputs", "a path", &o.Outputs)
	path("latencies", "a path", &o.Latencies)
	flags.BoolVar(&o.Gathered, "gathered", false, "")
	flags.BoolVar(&o.Serve, "serve", false, "")
	flags.BoolVar(&o.Debug, "debug", false, "")
	flags.BoolVar(&o.Help, "help", false, "")

	if err := flags.Parse(args); err != nil {
		if firstProblem != nil {
			return o, firstProblem
		}
		if err == flag.ErrHelp { // -h: only --help is ours
			return o, Usagef("unknown option '-h'")
		}
		return o, Usagef("%s", contractWords(err.Error()))
	}
	if rest := flags.Args(); len(rest) > 0 {
		return o, Usagef("unknown option '%s'", rest[0])
	}
	if o.MaxDelayUs >= 0 && o.Callers > 1 {
		return o, Usagef("%s", OneGatherer)
	}
	if o.Gathered && o.MaxDelayUs < 0 {
		return o, Usagef("%s", GatheredAlone)
	}
	// calls * batch * 2 floats must be addressable; the inputs bound it further.
	if o.Calls > math.MaxInt/2/o.Batch {
		return o, Usagef("--calls x --batch is too large")
	}
	return o, nil
}

// HelpLine is what --help prints, the same in every kit (docs/contract.md, "The contract's words").
func HelpLine(id string) string {
	return "usage: " + id + " [--models DIR] [--calls N] [--warmup W] [--warmup-time S] [--repeats R] " +
		"[--batch B] [--threads T] [--callers N] [--max-delay US] [--gathered] [--outputs PATH] [--latencies PATH] " +
		"[--serve] [--debug]"
}

func parseCount(name, text string, minimum int) (int, error) {
	value, err := strconv.Atoi(text)
	if err != nil {
		return 0, Usagef("--%s needs an integer, got '%s'", name, text)
	}
	if value < minimum {
		return 0, Usagef("--%s must be >= %d, got %d", name, minimum, value)
	}
	return value, nil
}

// parseSeconds reads a plain decimal number in 0..1e6 (no inf or nan).
func parseSeconds(name, text string) (float64, error) {
	value, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(value, 0) || math.IsNaN(value) {
		return 0, Usagef("--%s needs a number, got '%s'", name, text)
	}
	if value < 0 || value > 1e6 {
		return 0, Usagef("--%s must be in 0..1000000, got %s", name, text)
	}
	return value, nil
}

// contractWords words the flag package's errors as the contract does, with the "--name"
// users type for its "-name".
func contractWords(message string) string {
	if name, ok := strings.CutPrefix(message, "flag provided but not defined: -"); ok {
		return "unknown option '--" + strings.TrimPrefix(name, "-") + "'"
	}
	if name, ok := strings.CutPrefix(message, "flag needs an argument: -"); ok {
		return "--" + strings.TrimPrefix(name, "-") + " needs a value"
	}
	return strings.ReplaceAll(message, ": -", ": --")
}
