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
	Driver         string  `json:"driver"`
	Calls          int     `json:"calls"`
	Batch          int     `json:"batch"`
	Threads        int     `json:"threads"`
	Callers        int     `json:"callers,omitempty"` // contract 4: echoed when > 1
	RuntimeVersion string  `json:"runtime_version"`
	LoadNS         int64   `json:"load_ns"`
	PeakRSSBytes   *int64  `json:"peak_rss_bytes"` // nil: null
	Rounds         []Round `json:"rounds"`
	Notes          Notes   `json:"notes"`
}

// JSON is the result line (no newline), by encoding/json.
func (r Result) JSON() string {
	if r.Rounds == nil {
		r.Rounds = []Round{} // [], not null
	}
	return encodeLine(r)
}

// encodeLine is one JSON value on one line, without the newline; HTML
// characters are kept as they are, since a note may quote a library's message.
func encodeLine(value any) string {
	var b bytes.Buffer
	encoder := json.NewEncoder(&b)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(value); err != nil {
		panic(err) // our own types always encode: Notes turns NaN and Inf into null
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// MarshalJSON writes the notes as an object (encoding/json sorts its keys);
// a value that is a NaN or Inf float, or not a string or a number, is null.
func (n Notes) MarshalJSON() ([]byte, error) {
	object := make(map[string]any, len(n))
	for _, note := range n {
		object[note.Key] = noteValue(note.Value)
	}
	return json.Marshal(object)
}

func noteValue(value any) any {
	switch v := value.(type) {
	case string, int, int64:
		return v
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return v
	}
	return nil
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
