package kit

import (
	"strings"
	"testing"
)

func TestDefaults(t *testing.T) {
	o, err := ParseOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	if o != DefaultOptions() {
		t.Fatalf("got %+v", o)
	}
	if o.Calls != 1_000_000 || o.Warmup != 10_000 || o.WarmupTime != 2 || o.Repeats != 3 || o.Batch != 1 || o.Threads != 1 || o.Models != "models" {
		t.Fatalf("defaults differ from the contract: %+v", o)
	}
}

func TestEveryOption(t *testing.T) {
	o, err := ParseOptions([]string{"--models", "m", "--calls=10", "--warmup", "0", "--repeats", "2",
		"--warmup-time=0.25", "--batch", "4", "--threads", "3", "--outputs", "o.f32", "--latencies=l.i64", "--serve", "--debug"})
	if err != nil {
		t.Fatal(err)
	}
	want := Options{Models: "m", Calls: 10, Warmup: 0, WarmupTime: 0.25, Repeats: 2, Batch: 4, Threads: 3,
		Callers: 1, MaxDelayUs: -1, Outputs: "o.f32", Latencies: "l.i64", Serve: true, Debug: true}
	if o != want {
		t.Fatalf("got %+v, want %+v", o, want)
	}
}

func TestBadOptionsAreUsageErrors(t *testing.T) {
	cases := map[string]struct {
		args []string
		says string
	}{
		"zero calls":         {[]string{"--calls", "0"}, "--calls must be >= 1, got 0"},
		"negative warmup":    {[]string{"--warmup=-1"}, "--warmup must be >= 0"},
		"seconds, not words": {[]string{"--warmup-time", "x"}, "--warmup-time needs a number, got 'x'"},
		"infinite seconds":   {[]string{"--warmup-time", "inf"}, "--warmup-time needs a number"},
		"negative seconds":   {[]string{"--warmup-time", "-1"}, "--warmup-time must be in 0..1000000"},
		"zero repeats":       {[]string{"--repeats", "0"}, "--repeats must be >= 1"},
		"zero batch":         {[]string{"--batch", "0"}, "--batch must be >= 1"},
		"zero threads":       {[]string{"--threads", "0"}, "--threads must be >= 1"},
		"a negative wait":    {[]string{"--max-delay", "-1"}, "--max-delay must be >= 0, got -1"},
		"one gatherer":       {[]string{"--max-delay", "100", "--callers", "2"}, OneGatherer},
		"gathered alone":     {[]string{"--gathered"}, GatheredAlone},
		"zero callers":       {[]string{"--callers", "0"}, "--callers must be >= 1, got 0"},
		"not an integer":     {[]string{"--calls", "ten"}, "--calls needs an integer, got 'ten'"},
		"a fraction":         {[]string{"--batch", "1.5"}, "--batch needs an integer"},
		"unknown option":     {[]string{"--nope"}, "unknown option '--nope'"},
		"missing value":      {[]string{"--calls"}, "--calls needs a value"},
		"abbreviated":        {[]string{"--batc", "2"}, "unknown option '--batc'"},
		"empty path":         {[]string{"--outputs="}, "--outputs needs a path"},
		"empty models":       {[]string{"--models", ""}, "--models needs a folder"},
		"positional":         {[]string{"stray"}, "unknown option 'stray'"},
		"value on a switch":  {[]string{"--serve=maybe"}, "serve"},
		"too large":          {[]string{"--calls", "4611686018427387903", "--batch", "4"}, "too large"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := ParseOptions(c.args)
			usage := requireUsage(t, err)
			if !strings.Contains(usage.Problem, c.says) {
				t.Fatalf("%q does not say %q", usage.Problem, c.says)
			}
			if strings.Contains(usage.Problem, "\n") {
				t.Fatalf("not one line: %q", usage.Problem)
			}
		})
	}
}
