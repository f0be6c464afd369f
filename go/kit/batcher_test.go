package kit

import (
	"slices"
	"testing"
)

// sumBatcher is the batcher over sumModel at batch 2, its inputs holding calls x 2 samples
// (sample i is (i, 1): its sum i + 1 names it).
func sumBatcher(calls, maxDelayUs int) (*Batcher, *sumModel) {
	values := make([]float32, 0, 4*calls)
	for i := 0; i < 2*calls; i++ {
		values = append(values, float32(i), 1)
	}
	sum := &sumModel{}
	model := FloatModel{sum}
	inputs := floatSamples(values...)
	return NewBatcher(NewRounds(model, inputs, calls, 2), model, inputs, calls, 2, maxDelayUs), sum
}

func TestABurstOfBIsOneCallAndEachArrivalItsOwnSample(t *testing.T) {
	batcher, sum := sumBatcher(3, 1_000_000)
	// Three bursts of two, 1 ms apart, then one alone: a full call does not wait D (a second).
	paced, err := batcher.Paced([]int64{0, 0, 1e6, 1e6, 2e6, 2e6, 3e6}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The last arrival, alone, waits out D (it cannot know none follows).
	if !slices.Equal(paced.BatchSizes, []int64{1, 3}) || sum.calls != 4 || paced.Slots != 6 {
		t.Fatalf("got %+v after %d calls", paced, sum.calls)
	}
	if !slices.Equal(paced.CallerCalls, []int64{7}) {
		t.Fatalf("caller_calls %v", paced.CallerCalls)
	}
	count := 7
	started := paced.Times[count : 2*count]
	if started[0] != started[1] || started[6] < 1_000_000_000 {
		t.Fatalf("started %v", started)
	}
	// Arrival 6 took sample 0 (6 mod 6): its sum 1 is at slot 0.
	want := []float32{1, 2, 3, 4, 5, 6}
	if got := floats(batcher.LastOutputs()[0]); !slices.Equal(got, want) {
		t.Fatalf("outputs %v, want %v", got, want)
	}
}

func TestARoundAfterThePacedOneIsTheModelsOwn(t *testing.T) {
	batcher, _ := sumBatcher(2, 0)
	if _, err := batcher.Paced([]int64{0, 5, 10}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := batcher.Round(2); err != nil {
		t.Fatal(err)
	}
	if got := floats(batcher.LastOutputs()[0]); !slices.Equal(got, []float32{1, 2, 3, 4}) {
		t.Fatalf("outputs %v", got)
	}
}

// gatheredSum is sumModel's sums at any batch: each gathered call's n is kept.
type gatheredSum struct {
	FloatModel
	sizes []int
}

func (g *gatheredSum) CallGathered(in, out [][]byte, n int) error {
	g.sizes = append(g.sizes, n)
	return g.Model.Call(floats(in[0])[:2*n], floats(out[0])[:n])
}

func TestAGatheredCallTakesOnlyTheArrivalsItGathered(t *testing.T) {
	batcher, sum := sumBatcher(3, 0)
	gathered := &gatheredSum{FloatModel: FloatModel{sum}}
	batcher.gathered = gathered
	// A burst of two, then one alone: calls of 2 and 1, not two of B = 2.
	if _, err := batcher.Paced([]int64{0, 0, 5_000_000}, nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gathered.sizes, []int{2, 1}) {
		t.Fatalf("gathered calls of %v", gathered.sizes)
	}
	if got := floats(batcher.LastOutputs()[0]); !slices.Equal(got, []float32{1, 2, 3}) {
		t.Fatalf("outputs %v", got)
	}
}
