package kit

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

func TestResultJSON(t *testing.T) {
	rss := int64(31457280)
	r := Result{
		Driver: "go-x", Calls: 20, Batch: 1, Threads: 1, RuntimeVersion: "1.31.1",
		LoadNS: 123, PeakRSSBytes: &rss,
		Rounds: []Round{{Calls: 20, NS: 4000, CPUNS: 3900, StartNS: 1, EndNS: 4001}, {Calls: 10, NS: 2000, CPUNS: 1900, StartNS: 5000, EndNS: 7000}},
		Notes:  Notes{{"call", `quote " and \ backslash`}, {"threads_read_back", 1}, {"ratio", 0.5}, {"bad", math.NaN()}},
	}
	line := r.JSON()
	// Notes are an object; encoding/json writes its keys sorted.
	want := `{"driver":"go-x","calls":20,"batch":1,"threads":1,"runtime_version":"1.31.1",` +
		`"load_ns":123,"peak_rss_bytes":31457280,"rounds":[{"calls":20,"ns":4000,"cpu_ns":3900,"start_ns":1,"end_ns":4001},` +
		`{"calls":10,"ns":2000,"cpu_ns":1900,"start_ns":5000,"end_ns":7000}],"notes":{"bad":null,"call":"quote \" and \\ backslash",` +
		`"ratio":0.5,"threads_read_back":1}}`
	if line != want {
		t.Fatalf("got\n%s\nwant\n%s", line, want)
	}
	var parsed map[string]any
	if err := json.Unmarshal([]byte(line), &parsed); err != nil {
		t.Fatal(err)
	}
	keys := []string{"driver", "calls", "batch", "threads", "runtime_version", "load_ns", "peak_rss_bytes", "rounds", "notes"}
	for _, key := range keys {
		if _, ok := parsed[key]; !ok {
			t.Fatalf("no %q", key)
		}
	}
}

func TestResultWithoutRSSOrRounds(t *testing.T) {
	var parsed map[string]any
	if err := json.Unmarshal([]byte(Result{Driver: "go-x"}.JSON()), &parsed); err != nil {
		t.Fatal(err)
	}
	if parsed["peak_rss_bytes"] != nil || !reflect.DeepEqual(parsed["rounds"], []any{}) {
		t.Fatalf("got %v", parsed)
	}
}

func TestVmHWM(t *testing.T) {
	status := "Name:\tx\nVmPeak:\t  2000 kB\nVmHWM:\t   1234 kB\nVmRSS:\t 1000 kB\n"
	if got, ok := VmHWMBytes(status); !ok || got != 1234*1024 {
		t.Fatalf("got %d %v", got, ok)
	}
	for _, bad := range []string{"", "VmRSS: 1 kB\n", "VmHWM: x kB\n", "VmHWM: 12 MB\n", "VmHWM:\n"} {
		if _, ok := VmHWMBytes(bad); ok {
			t.Errorf("%q read as a VmHWM", bad)
		}
	}
	if p := PeakRSSBytes(); p == nil || *p <= 0 {
		t.Fatal("this process's VmHWM is unreadable")
	}
}
