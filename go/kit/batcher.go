// batcher: contract 7's dynamic batcher. A paced round's arrivals (paced.go) are
// gathered into calls of up to B (--batch) as a service's batcher gathers them
// (Triton's dynamic_batching, TorchServe's batch_size and max_batch_delay): it
// takes every arrival already due, up to B; with fewer than B it waits until B
// have arrived or the oldest it holds has waited D (--max-delay), then calls
// once. It knows the schedule, not the future: it waits for an arrival only
// while the oldest may still wait, and waits out D when the next comes later, as
// a batcher that cannot see it does. Arrival j takes sample j mod S (S: the
// samples the run's inputs hold for its calls, --calls x B) and its outputs go
// to sample slot j mod S; the call runs at B over buffers of its own, the places
// no arrival took padded with the samples they last held (a fixed-shape runtime
// pays for padding, as in a service). Each arrival keeps contract 6's three
// times: taken (when the batcher turned to it, negative when it was waiting for
// it), started (its call's start, the copying of its samples in included) and
// ended (the call's end, its outputs copied out included).

package kit

import "time"

// OneGatherer is what --max-delay refuses beside --callers N > 1: one gatherer, over its
// own schedule.
const OneGatherer = "--max-delay takes one caller: the batcher gathers for one"

// GatheredAlone is what --gathered answers without --max-delay; FixedBatch, from a driver
// whose model is no GatheredModel.
const (
	GatheredAlone = "--gathered takes --max-delay: it sizes the batcher's calls"
	FixedBatch    = "--gathered is not supported: this driver's call takes a fixed batch"
)

// GatheredModel is a model whose call takes a changing batch without reloading (contract
// 7's --gathered): CallGathered makes one call of the first n samples of in into the first
// n of out (1 <= n <= B).
type GatheredModel interface {
	CallGathered(in, out [][]byte, n int) error
}

// Batcher is the one caller's rounds (Rounds), its paced rounds served by the batcher.
type Batcher struct {
	rounds     *Rounds
	model      TensorModel
	batch      int
	slots      int // S: the samples the run's inputs hold for its calls
	maxDelay   time.Duration
	inputs     [][]byte // each input's samples as read
	inSample   []int    // each input's bytes a sample
	outSample  []int    // each output's bytes a sample
	dtypes     []Dtype
	in, out    [][]byte      // the call's B places of each tensor
	served     [][]byte      // each output's S sample slots
	pacedSlots int           // the sample slots the last paced round filled (0: a round's)
	gathered   GatheredModel // --gathered: each call at the size it gathered; nil: padded to B
}

// NewBatcher: rounds is the one caller's, over the same model and inputs.
func NewBatcher(rounds *Rounds, model TensorModel, inputs []Samples, maxCalls, batch, maxDelayUs int) *Batcher {
	s := model.Signature()
	b := &Batcher{rounds: rounds, model: model, batch: batch, slots: maxCalls * batch,
		maxDelay: time.Duration(maxDelayUs) * time.Microsecond}
	for k, t := range s.Inputs {
		size := t.SampleBytes()
		b.inputs = append(b.inputs, inputs[k].Bytes)
		b.inSample = append(b.inSample, size)
		// The call's places start as the first B samples: padding is always a sample.
		place := AlignedBytes(batch * size)
		copy(place, inputs[k].Bytes[:batch*size])
		b.in = append(b.in, place)
	}
	for _, t := range s.Outputs {
		size := t.SampleBytes()
		b.outSample = append(b.outSample, size)
		b.dtypes = append(b.dtypes, t.Dtype)
		b.out = append(b.out, AlignedBytes(batch*size))
		b.served = append(b.served, AlignedBytes(b.slots*size))
	}
	return b
}

// Round is the one caller's closed round.
func (b *Batcher) Round(k int) (Round, error) {
	b.pacedSlots = 0
	return b.rounds.Round(k)
}

// Latencies is the one caller's latency pass.
func (b *Batcher) Latencies(k int) ([]int64, error) { return b.rounds.Latencies(k) }

// Paced serves the arrivals of offsets from startNS through the batcher.
func (b *Batcher) Paced(offsets []int64, startNS *int64) (Paced, error) {
	pacing := NewPacing(offsets, 1, b.slots)
	for o, served := range b.served {
		Poison(served, b.dtypes[o])
	}
	b.pacedSlots = pacing.Filled()
	pacing.Begin(startNS)
	sizes, err := pacing.gather(b.batch, b.maxDelay, b.call)
	if err != nil {
		return Paced{}, err
	}
	paced := pacing.Result()
	paced.BatchSizes = sizes
	return paced, nil
}

// call makes one call of the arrivals whose sample slots are slots (1 to B of them).
func (b *Batcher) call(slots []int) error {
	for k, size := range b.inSample {
		for i, slot := range slots {
			copy(b.in[k][i*size:(i+1)*size], b.inputs[k][slot*size:(slot+1)*size])
		}
	}
	var err error
	if b.gathered != nil {
		err = b.gathered.CallGathered(b.in, b.out, len(slots))
	} else {
		err = b.model.Call(b.in, b.out)
	}
	if err != nil {
		return err
	}
	for o, size := range b.outSample {
		for i, slot := range slots {
			copy(b.served[o][slot*size:(slot+1)*size], b.out[o][i*size:(i+1)*size])
		}
	}
	return nil
}

// LastOutputs are a paced round's outputs by sample slot, or the last closed round's.
func (b *Batcher) LastOutputs() [][]byte {
	if b.pacedSlots == 0 {
		return b.rounds.LastOutputs()
	}
	all := make([][]byte, len(b.served))
	for o, size := range b.outSample {
		all[o] = b.served[o][:b.pacedSlots*size]
	}
	return all
}

// gather serves every arrival as the one batcher; call(slots) makes one call of the
// arrivals whose sample slots are slots. It returns the calls by the arrivals they
// took (sizes[k-1]: the calls of k).
func (p *Pacing) gather(batch int, maxDelay time.Duration, call func(slots []int) error) ([]int64, error) {
	count := len(p.offsets)
	sizes := make([]int64, batch)
	which := make([]int, 0, batch)
	due := func(j int) time.Time { return p.start.Add(time.Duration(p.offsets[j])) }
	end := p.start
	defer func() { p.callerCalls[0], p.ends[0] = int64(count), end }()
	for j := 0; j < count; {
		now := time.Now()
		first := due(j)
		p.times[j] = now.Sub(first).Nanoseconds()
		if now.Before(first) {
			now = WaitUntil(first)
		}
		deadline := first.Add(maxDelay)
		held := j + 1
		for held-j < batch {
			if held < count && !due(held).After(now) { // already arrived: taken now
				p.times[held] = now.Sub(due(held)).Nanoseconds()
			} else if held < count && !due(held).After(deadline) { // wait for it: the oldest may
				p.times[held] = now.Sub(due(held)).Nanoseconds()
				now = WaitUntil(due(held))
			} else { // none before the oldest has waited D: wait that out, then call
				if now.Before(deadline) {
					WaitUntil(deadline)
				}
				break
			}
			held++
		}
		which = which[:0]
		for i := j; i < held; i++ {
			which = append(which, i%p.slots)
		}
		begin := time.Now()
		if err := call(which); err != nil {
			return nil, err
		}
		end = time.Now()
		for i := j; i < held; i++ {
			p.times[count+i], p.times[2*count+i] = begin.Sub(due(i)).Nanoseconds(), end.Sub(due(i)).Nanoseconds()
		}
		sizes[held-j-1]++
		j = held
	}
	return sizes, nil
}
