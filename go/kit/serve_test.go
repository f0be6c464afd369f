package kit

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseCommand(t *testing.T) {
	cases := map[string]Command{
		"round 5":          {Kind: CommandRound, Calls: 5},
		"  round\t10 \r":   {Kind: CommandRound, Calls: 10},
		"latencies 1":      {Kind: CommandLatencies, Calls: 1},
		"end":              {Kind: CommandEnd},
		"end\r":            {Kind: CommandEnd},
		"\tlatencies 10  ": {Kind: CommandLatencies, Calls: 10},
	}
	for line, want := range cases {
		got, err := ParseCommand(line, 10)
		if err != nil || got != want {
			t.Errorf("%q: got %+v, %v; want %+v", line, got, err, want)
		}
	}
}

func TestBadCommandsAreUsageErrors(t *testing.T) {
	cases := map[string]string{
		"":               "unknown command ''",
		"start":          "unknown command 'start'",
		"round":          "unknown command 'round'",
		"round 1 2":      "unknown command",
		"end now":        "unknown command",
		"ROUND 1":        "unknown command",
		"round x":        "round K needs an integer K, got 'x'",
		"round 0":        "round K needs 1 <= K <= 10 (--calls), got 0",
		"latencies 11":   "latencies K needs 1 <= K <= 10 (--calls), got 11",
		"round -1":       "got -1",
		"bad\x01command": "unknown command 'bad command'",
	}
	for line, says := range cases {
		_, err := ParseCommand(line, 10)
		usage := requireUsage(t, err)
		if !strings.Contains(usage.Problem, says) {
			t.Errorf("%q: %q does not say %q", line, usage.Problem, says)
		}
	}
}

// fakeRunner answers rounds with made-up times and records what it ran.
type fakeRunner struct{ ran []string }

func (f *fakeRunner) Round(k int) (Round, error) {
	f.ran = append(f.ran, "round")
	return Round{Calls: int64(k), NS: int64(100 * k), CPUNS: int64(90 * k), StartNS: 5000, EndNS: 5000 + int64(100*k)}, nil
}

func (f *fakeRunner) Latencies(k int) ([]int64, error) {
	f.ran = append(f.ran, "latencies")
	return make([]int64, k), nil
}

func serveLines(t *testing.T, o Options, input string) ([]Round, []string, error) {
	t.Helper()
	var answers strings.Builder
	rounds, err := Serve(o, &fakeRunner{}, 42, Warmup{3, 9}, strings.NewReader(input), &answers)
	return rounds, strings.Split(strings.TrimSuffix(answers.String(), "\n"), "\n"), err
}

func TestServeDialogue(t *testing.T) {
	o := DefaultOptions()
	o.Calls = 100
	o.Latencies = filepath.Join(t.TempDir(), "l.i64")
	rounds, lines, err := serveLines(t, o, "round 10\nround 20\nlatencies 5\nend\nround 1\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"event":"ready","load_ns":42,"warmup_calls":3,"warmup_ns":9}`,
		`{"event":"round","calls":10,"ns":1000,"cpu_ns":900,"start_ns":5000,"end_ns":6000}`,
		`{"event":"round","calls":20,"ns":2000,"cpu_ns":1800,"start_ns":5000,"end_ns":7000}`,
		`{"event":"latencies","calls":5}`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("answers:\n%s", strings.Join(lines, "\n"))
	}
	for _, line := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%q is not JSON: %v", line, err)
		}
	}
	if len(rounds) != 2 || !reflect.DeepEqual(rounds[1], Round{Calls: 20, NS: 2000, CPUNS: 1800, StartNS: 5000, EndNS: 7000}) {
		t.Fatalf("rounds %+v", rounds)
	}
}

func TestServeStopsAtEndOfInput(t *testing.T) {
	o := DefaultOptions()
	rounds, lines, err := serveLines(t, o, "round 3")
	if err != nil || len(rounds) != 1 || len(lines) != 2 {
		t.Fatalf("rounds %+v, lines %q, err %v", rounds, lines, err)
	}
}

func TestServeBadCommand(t *testing.T) {
	o := DefaultOptions()
	o.Calls = 10
	rounds, _, err := serveLines(t, o, "round 1\nround 11\nround 1\n")
	requireUsage(t, err)
	if len(rounds) != 1 {
		t.Fatalf("rounds %+v", rounds)
	}
}

func TestServeLatenciesNeedAPath(t *testing.T) {
	_, _, err := serveLines(t, DefaultOptions(), "latencies 1\n")
	if usage := requireUsage(t, err); usage.Problem != "latencies K needs --latencies PATH" {
		t.Fatalf("got %q", usage.Problem)
	}
}

func TestServePassesRunnerErrorsOn(t *testing.T) {
	failure := Dataf("m.onnx", "run failed")
	runner := NewRounds(FloatModel{&sumModel{fail: failure}}, floatSamples(1, 2, 3, 4, 5, 6, 7, 8), 4, 1)
	_, err := Serve(DefaultOptions(), runner, 0, Warmup{}, strings.NewReader("round 2\n"), &strings.Builder{})
	if !errors.Is(err, failure) {
		t.Fatalf("got %v", err)
	}
}

func TestStandaloneScript(t *testing.T) {
	o := DefaultOptions()
	o.Calls, o.Repeats = 200_000, 2
	script := StandaloneScript(o)
	want := []Command{{Kind: CommandRound, Calls: 200_000}, {Kind: CommandRound, Calls: 200_000}, {Kind: CommandEnd}}
	if len(script) != len(want) || script[0] != want[0] || script[1] != want[1] || script[2] != want[2] {
		t.Fatalf("got %+v", script)
	}
	o.Latencies = "l.i64"
	script = StandaloneScript(o)
	if script[2] != (Command{Kind: CommandLatencies, Calls: StandaloneLatencyCalls}) || script[3].Kind != CommandEnd {
		t.Fatalf("got %+v", script)
	}
}

func TestRunScriptIsSilentAndRunsTheScript(t *testing.T) {
	o := DefaultOptions()
	o.Calls, o.Repeats, o.Latencies = 7, 3, filepath.Join(t.TempDir(), "l.i64")
	runner := &fakeRunner{}
	rounds, err := RunScript(o, runner)
	if err != nil || len(rounds) != 3 || strings.Join(runner.ran, " ") != "round round round latencies" {
		t.Fatalf("rounds %+v, ran %v, err %v", rounds, runner.ran, err)
	}
}

func (f *fakeRunner) Paced(offsets []int64, startNS *int64) (Paced, error) {
	f.ran = append(f.ran, "paced")
	return Paced{Calls: len(offsets), Callers: 1, CallerCalls: []int64{int64(len(offsets))},
		Times: make([]int64, 3*len(offsets))}, nil
}
