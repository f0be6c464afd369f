// serve: the command dialogue of --serve (round K, latencies K, paced FILE
// [START], end) and the
// standalone script that runs the same commands without it.

package kit

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// CommandKind is what one line of the dialogue asks for.
type CommandKind int

const (
	CommandRound CommandKind = iota
	CommandLatencies
	CommandPaced
	CommandEnd
)

// Command is one parsed line; Calls is K for round and latencies, Schedule FILE
// and StartNS START (nil when absent, on CLOCK_MONOTONIC) for paced.
type Command struct {
	Kind     CommandKind
	Calls    int
	Schedule string
	StartNS  *int64
}

// StandaloneLatencyCalls caps the standalone script's latency pass.
const StandaloneLatencyCalls = 100_000

// Runner is what the dialogue asks of the loaded model (Rounds, or a fake
// in tests).
type Runner interface {
	Round(k int) (Round, error)
	Latencies(k int) ([]int64, error)
	Paced(offsets []int64, startNS *int64) (Paced, error)
}

// ParseCommand reads "round K", "latencies K" (1 <= K <= maxCalls), "paced FILE
// [START]" or "end"; anything else is a UsageError.
func ParseCommand(line string, maxCalls int) (Command, error) {
	words := strings.Fields(line)
	switch {
	case len(words) == 1 && words[0] == "end":
		return Command{Kind: CommandEnd}, nil
	case len(words) == 2 && (words[0] == "round" || words[0] == "latencies"):
		k, err := strconv.Atoi(words[1])
		if err != nil {
			return Command{}, Usagef("%s K needs an integer K, got '%s'", words[0], words[1])
		}
		if k < 1 || k > maxCalls {
			return Command{}, Usagef("%s K needs 1 <= K <= %d (--calls), got %d", words[0], maxCalls, k)
		}
		kind := CommandRound
		if words[0] == "latencies" {
			kind = CommandLatencies
		}
		return Command{Kind: kind, Calls: k}, nil
	case (len(words) == 2 || len(words) == 3) && words[0] == "paced":
		command := Command{Kind: CommandPaced, Schedule: words[1]}
		if len(words) == 3 {
			start, err := strconv.ParseInt(words[2], 10, 64)
			if err != nil {
				return Command{}, Usagef("paced FILE START needs START in ns, got '%s'", words[2])
			}
			command.StartNS = &start
		}
		return command, nil
	}
	shown := []rune(line)
	if len(shown) > 60 {
		shown = shown[:60]
	}
	return Command{}, Usagef("unknown command '%s': expected 'round K', 'latencies K', 'paced FILE [START]' or 'end'",
		strings.Map(printable, string(shown)))
}

func printable(r rune) rune {
	if r < 0x20 || r == 0x7f {
		return ' '
	}
	return r
}

// StandaloneScript is what a run without --serve does: round N, --repeats
// times; latencies min(N, 100000) if --latencies is given; end.
func StandaloneScript(o Options) []Command {
	script := make([]Command, 0, o.Repeats+2)
	for i := 0; i < o.Repeats; i++ {
		script = append(script, Command{Kind: CommandRound, Calls: o.Calls})
	}
	if o.Latencies != "" {
		script = append(script, Command{Kind: CommandLatencies, Calls: min(o.Calls, StandaloneLatencyCalls)})
	}
	return append(script, Command{Kind: CommandEnd})
}

// Serve prints the ready line, then answers each command read from commands
// with one JSON line on answers, until "end" or the end of input. It returns
// the rounds in the order run. It writes --latencies on each latencies
// command; the caller writes --outputs and the result line.
func Serve(o Options, runner Runner, loadNS int64, warmup Warmup, commands io.Reader,
	answers io.Writer) ([]Round, error) {
	answer(answers, struct {
		Event       string `json:"event"`
		LoadNS      int64  `json:"load_ns"`
		WarmupCalls int    `json:"warmup_calls"`
		WarmupNS    int64  `json:"warmup_ns"`
	}{"ready", loadNS, warmup.Calls, warmup.NS})
	var rounds []Round
	lines := bufio.NewScanner(commands)
	for lines.Scan() {
		command, err := ParseCommand(lines.Text(), o.Calls)
		if err != nil {
			return rounds, err
		}
		more, err := execute(command, o, runner, &rounds, answers)
		if err != nil || !more {
			return rounds, err
		}
	}
	if err := lines.Err(); err != nil {
		return rounds, Usagef("reading commands: %v", err)
	}
	return rounds, nil
}

// RunScript runs the standalone script silently (only the result line, the
// caller's, goes to stdout).
func RunScript(o Options, runner Runner) ([]Round, error) {
	var rounds []Round
	for _, command := range StandaloneScript(o) {
		more, err := execute(command, o, runner, &rounds, nil)
		if err != nil || !more {
			return rounds, err
		}
	}
	return rounds, nil
}

// execute runs one command; false once it is "end". answers is nil in a
// standalone run.
func execute(c Command, o Options, runner Runner, rounds *[]Round, answers io.Writer) (bool, error) {
	switch c.Kind {
	case CommandRound:
		round, err := runner.Round(c.Calls)
		if err != nil {
			return false, err
		}
		*rounds = append(*rounds, round)
		if answers != nil {
			answer(answers, struct {
				Event string `json:"event"`
				Round
			}{"round", round})
		}
		return true, nil
	case CommandLatencies:
		if o.Latencies == "" {
			return false, Usagef("latencies K needs --latencies PATH")
		}
		ns, err := runner.Latencies(c.Calls)
		if err != nil {
			return false, err
		}
		if err := WriteInt64s(o.Latencies, ns); err != nil {
			return false, err
		}
		if answers != nil {
			answer(answers, struct {
				Event string `json:"event"`
				Calls int    `json:"calls"`
			}{"latencies", c.Calls})
		}
		return true, nil
	case CommandPaced:
		return true, executePaced(c, o, runner, answers)
	}
	return false, nil
}

// executePaced serves a paced round (contract 6) and writes its 3 x K times to --latencies.
func executePaced(c Command, o Options, runner Runner, answers io.Writer) error {
	if o.Latencies == "" {
		return Usagef("paced FILE needs --latencies PATH")
	}
	offsets, err := ReadSchedule(c.Schedule)
	if err != nil {
		return err
	}
	paced, err := runner.Paced(offsets, c.StartNS)
	if err != nil {
		return err
	}
	if err := WriteInt64s(o.Latencies, paced.Times); err != nil {
		return err
	}
	if answers != nil {
		answer(answers, struct {
			Event string `json:"event"`
			Paced
		}{"paced", paced})
	}
	return nil
}

// answer writes one answer of the dialogue: a JSON object on one line.
func answer(answers io.Writer, line any) {
	fmt.Fprintln(answers, encodeLine(line))
}
