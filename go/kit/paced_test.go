package kit

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeSchedule writes offsets as paced FILE's int64 little-endian ns.
func writeSchedule(t *testing.T, offsets ...int64) string {
	t.Helper()
	data := make([]byte, 8*len(offsets))
	for j, v := range offsets {
		binary.LittleEndian.PutUint64(data[8*j:], uint64(v))
	}
	path := filepath.Join(t.TempDir(), "arrivals.i64")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestParsePaced(t *testing.T) {
	got, err := ParseCommand("paced a.i64", 10)
	if err != nil || got.Kind != CommandPaced || got.Schedule != "a.i64" || got.StartNS != nil {
		t.Fatalf("got %+v, %v", got, err)
	}
	got, err = ParseCommand("paced a.i64 123456789", 10)
	if err != nil || got.StartNS == nil || *got.StartNS != 123456789 {
		t.Fatalf("got %+v, %v", got, err)
	}
	_, err = ParseCommand("paced a.i64 soon", 10)
	if usage := requireUsage(t, err); usage.Problem != "paced FILE START needs START in ns, got 'soon'" {
		t.Fatalf("got %q", usage.Problem)
	}
}

func TestReadScheduleNamesTheFileOfABadSchedule(t *testing.T) {
	odd := filepath.Join(t.TempDir(), "odd.i64")
	if err := os.WriteFile(odd, make([]byte, 12), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		filepath.Join(t.TempDir(), "none.i64"): "cannot read the schedule",
		odd:                                    "12 bytes is not",
		writeSchedule(t, 5, 3):                 "non-decreasing",
		writeSchedule(t, -1, 3):                "non-negative",
	}
	for path, says := range cases {
		_, err := ReadSchedule(path)
		data := requireData(t, err)
		if data.Path != path || !strings.Contains(data.Problem, says) {
			t.Errorf("%s: got %v", path, err)
		}
	}
	if offsets, err := ReadSchedule(writeSchedule(t, 0, 0, 7)); err != nil || len(offsets) != 3 || offsets[2] != 7 {
		t.Fatalf("got %v, %v", offsets, err)
	}
}

func TestAStalledCallShowsInTheWaitsOfTheArrivalsBehindIt(t *testing.T) {
	// One caller, arrivals 1 ms apart; the call of arrival 3 sleeps 30 ms. The arrivals due
	// during it start after it ends: their wait (started) holds the rest of the stall, their
	// service (ended - started) does not.
	const gap, stall = int64(time.Millisecond), 30 * time.Millisecond
	offsets := make([]int64, 20)
	for j := range offsets {
		offsets[j] = int64(j) * gap
	}
	pacing := NewPacing(offsets, 1, 8)
	start := MonotonicNanos() + 20_000_000 // ahead of any set-up of the test's own
	pacing.Begin(&start)
	calls := 0
	err := pacing.Serve(0, func(slot int) error {
		if calls++; calls == 4 {
			time.Sleep(stall)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	p := pacing.Result()
	k := len(offsets)
	taken, started, ended := p.Times[:k], p.Times[k:2*k], p.Times[2*k:]
	if taken[0] >= 0 {
		t.Errorf("the caller was not waiting for the first arrival: taken %d", taken[0])
	}
	for j := 4; j < 30; j++ {
		if j >= k {
			break
		}
		left := int64(stall) - int64(j-3)*gap
		if left <= 0 {
			break
		}
		if started[j] < left || ended[j]-started[j] >= int64(stall)/2 {
			t.Errorf("arrival %d: started %d (want >= %d), service %d", j, started[j], left, ended[j]-started[j])
		}
	}
	if p.Calls != k || p.Slots != 8 || p.CallerCalls[0] != int64(k) || p.NS != p.EndNS-p.StartNS {
		t.Fatalf("got %+v", p)
	}
	if p.StartNS != start || p.ReadyNS >= p.StartNS {
		t.Errorf("ready %d, start %d: not the start given, or not after the set-up", p.ReadyNS, p.StartNS)
	}
}

func TestWithoutAStartTheRoundStartsALeadAfterTheSetUp(t *testing.T) {
	pacing := NewPacing([]int64{0}, 1, 1)
	pacing.Begin(nil)
	if err := pacing.Serve(0, func(int) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if p := pacing.Result(); p.StartNS-p.ReadyNS != PacedLeadNS {
		t.Errorf("ready %d, start %d: the start is not PacedLeadNS after the set-up", p.ReadyNS, p.StartNS)
	}
}

func TestArrivalsPastTheSlotsWrapAndTheirLastCallerOwnsEachSlot(t *testing.T) {
	pacing := NewPacing(make([]int64, 10), 2, 4)
	pacing.Begin(nil)
	var slots []int
	if err := pacing.Serve(1, func(slot int) error { slots = append(slots, slot); return nil }); err != nil {
		t.Fatal(err)
	}
	if got := pacing.SlotCallers(); len(got) != 4 || got[0] != 1 || got[3] != 1 {
		t.Fatalf("slot callers %v", got)
	}
	want := []int{0, 1, 2, 3, 0, 1, 2, 3, 0, 1}
	for j, s := range want {
		if slots[j] != s {
			t.Fatalf("slots %v, want %v", slots, want)
		}
	}
	if p := pacing.Result(); p.CallerCalls[0] != 0 || p.CallerCalls[1] != 10 {
		t.Fatalf("caller calls %v", p.CallerCalls)
	}
}

func TestAPacedRoundOfRoundsPutsEachArrivalsOutputsInItsSlot(t *testing.T) {
	// Four samples, --calls 4, six arrivals: slots 0 and 1 are served twice, the last time
	// by arrivals 4 and 5, with the samples of calls 0 and 1.
	r := NewRounds(FloatModel{&sumModel{}}, floatSamples(1, 2, 3, 4, 5, 6, 7, 8), 4, 1)
	p, err := r.Paced([]int64{0, 0, 0, 0, 0, 0}, nil)
	if err != nil || p.Slots != 4 || p.Calls != 6 {
		t.Fatalf("got %+v, %v", p, err)
	}
	got := lastFloats(t, r)
	if len(got) != 4 || got[0] != 3 || got[1] != 7 || got[2] != 11 || got[3] != 15 {
		t.Fatalf("outputs %v", got)
	}
}

func TestServeAnswersPacedAndWritesItsTimes(t *testing.T) {
	o := DefaultOptions()
	schedule := writeSchedule(t, 0, 10, 20)
	_, err := Serve(o, &fakeRunner{}, 0, Warmup{}, strings.NewReader("paced "+schedule+"\n"), &strings.Builder{})
	if usage := requireUsage(t, err); usage.Problem != "paced FILE needs --latencies PATH" {
		t.Fatalf("got %q", usage.Problem)
	}
	o.Latencies = filepath.Join(t.TempDir(), "lat.i64")
	var answers strings.Builder
	if _, err := Serve(o, &fakeRunner{}, 0, Warmup{}, strings.NewReader("paced "+schedule+" 99\n"), &answers); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(answers.String(), `{"event":"paced","calls":3,`) {
		t.Fatalf("answers %q", answers.String())
	}
	if info, err := os.Stat(o.Latencies); err != nil || info.Size() != 3*3*8 {
		t.Fatalf("latencies %v, %v", info, err)
	}
}

// WaitUntil never returns before due: from past the sleep (a nanosleep that a
// signal may end early, then a spin), and at once for a due already gone.
func TestWaitUntilReturnsAtDueOrAfterItFromBothSidesOfTheSpin(t *testing.T) {
	for _, ahead := range []time.Duration{-time.Millisecond, 0, SpinNS / 2, 3 * time.Millisecond} {
		due := time.Now().Add(ahead)
		if got := WaitUntil(due); got.Before(due) {
			t.Errorf("%v ahead: back %v before due", ahead, due.Sub(got))
		}
	}
}
