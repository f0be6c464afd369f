// result: the one-line JSON object a driver prints last on success, and the
// process's peak resident memory it reports.

package kit

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
)

// Result is the result line's content, in the contract's key order.
type Result struct {
	Driver         string
	Calls          int
	Batch          int
	Threads        int
	RuntimeVersion string
	LoadNS         int64
	PeakRSSBytes   *int64 // nil: null
	Rounds         []Round
	Notes          Notes
}

// JSON is the result line (no newline).
func (r Result) JSON() string {
	var b strings.Builder
	b.WriteString(`{"driver": ` + jsonString(r.Driver))
	b.WriteString(`, "calls": ` + strconv.Itoa(r.Calls))
	b.WriteString(`, "batch": ` + strconv.Itoa(r.Batch))
	b.WriteString(`, "threads": ` + strconv.Itoa(r.Threads))
	b.WriteString(`, "runtime_version": ` + jsonString(r.RuntimeVersion))
	b.WriteString(`, "load_ns": ` + strconv.FormatInt(r.LoadNS, 10))
	b.WriteString(`, "peak_rss_bytes": `)
	if r.PeakRSSBytes != nil {
		b.WriteString(strconv.FormatInt(*r.PeakRSSBytes, 10))
	} else {
		b.WriteString("null")
	}
	b.WriteString(`, "rounds": [`)
	for i, round := range r.Rounds {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`{"calls": ` + strconv.FormatInt(round.Calls, 10) +
			`, "ns": ` + strconv.FormatInt(round.NS, 10) +
			`, "cpu_ns": ` + strconv.FormatInt(round.CPUNS, 10) + `}`)
	}
	b.WriteString(`], "notes": {`)
	for i, note := range r.Notes {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(jsonString(note.Key) + ": " + jsonValue(note.Value))
	}
	b.WriteString("}}")
	return b.String()
}

func jsonString(text string) string {
	var b bytes.Buffer
	encoder := json.NewEncoder(&b)
	encoder.SetEscapeHTML(false)
	_ = encoder.Encode(text) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// jsonValue: a note's value; a string, an integer or a finite float (NaN,
// Inf and anything else become null).
func jsonValue(value any) string {
	switch v := value.(type) {
	case string:
		return jsonString(v)
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "null"
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return "null"
}

// VmHWMBytes is the VmHWM of a /proc/<pid>/status text, in bytes; false if
// absent or malformed.
func VmHWMBytes(status string) (int64, bool) {
	for _, line := range strings.Split(status, "\n") {
		rest, found := strings.CutPrefix(line, "VmHWM:")
		if !found {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" { // the kernel writes kibibytes as "kB"
			return 0, false
		}
		kib, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || kib < 0 {
			return 0, false
		}
		return kib * 1024, true
	}
	return 0, false
}

// PeakRSSBytes is this process's VmHWM (/proc/self/status); nil if unreadable.
func PeakRSSBytes() *int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return nil
	}
	if hwm, ok := VmHWMBytes(string(status)); ok {
		return &hwm
	}
	return nil
}
