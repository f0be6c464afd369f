// tensor_rounds: the rounds of a TensorModel (contract 3), as rounds are of
// a float Model: the warm-up, one timed round, the latency pass. Call i takes
// samples [i*B, (i+1)*B) of every input and stores each output's batch at its
// place in that output's buffer; before each round every output is filled
// with what no call gives (NaN, an integer's smallest value).

package kit

import "time"

// TensorRounds drives a TensorModel over every input's samples.
type TensorRounds struct {
	model     TensorModel
	inputs    []Samples
	maxCalls  int
	inSteps   []int // bytes one call takes of each input
	outSteps  []int // bytes one call stores of each output
	dtypes    []Dtype
	outputs   [][]byte // each output's maxCalls*B samples; the last round's come first
	scratch   [][]byte // one call of each output, for the latency pass
	in, out   [][]byte // the views of the call being made
	lastCalls int
}

// NewTensorRounds: each input holds at least maxCalls*batch samples (RequireSamples).
func NewTensorRounds(model TensorModel, inputs []Samples, maxCalls, batch int) *TensorRounds {
	s := model.Signature()
	r := &TensorRounds{model: model, inputs: inputs, maxCalls: maxCalls,
		in: make([][]byte, len(s.Inputs)), out: make([][]byte, len(s.Outputs))}
	for _, t := range s.Inputs {
		r.inSteps = append(r.inSteps, batch*t.SampleBytes())
	}
	for _, t := range s.Outputs {
		step := batch * t.SampleBytes()
		r.outSteps = append(r.outSteps, step)
		r.dtypes = append(r.dtypes, t.Dtype)
		r.outputs = append(r.outputs, AlignedBytes(maxCalls*step))
		r.scratch = append(r.scratch, AlignedBytes(step))
	}
	return r
}

// call makes call i into the outputs' place i, or into scratch.
func (r *TensorRounds) call(i int, scratch bool) error {
	for k, step := range r.inSteps {
		r.in[k] = r.inputs[k].Bytes[i*step : (i+1)*step]
	}
	for k, step := range r.outSteps {
		if scratch {
			r.out[k] = r.scratch[k]
		} else {
			r.out[k] = r.outputs[k][i*step : (i+1)*step]
		}
	}
	return r.model.Call(r.in, r.out)
}

// WarmUp is the warm-up (WarmUpCalls): at most calls untimed calls, seconds once a few are made.
func (r *TensorRounds) WarmUp(calls int, seconds float64) (Warmup, error) {
	return WarmUpCalls(calls, seconds, r.maxCalls, func(i int) error { return r.call(i, false) })
}

// Round times calls 0 .. k-1 as one block, each output poisoned first (untimed).
func (r *TensorRounds) Round(k int) (Round, error) {
	if err := checkCalls("round", k, r.maxCalls); err != nil {
		return Round{}, err
	}
	for o, step := range r.outSteps {
		Poison(r.outputs[o][:k*step], r.dtypes[o])
	}
	r.lastCalls = k
	cpuStart := ThreadCPUNanos()
	start := time.Now()
	for i := 0; i < k; i++ {
		if err := r.call(i, false); err != nil {
			return Round{}, err
		}
	}
	ns := time.Since(start).Nanoseconds()
	cpuNS := ThreadCPUNanos() - cpuStart
	return Round{Calls: int64(k), NS: ns, CPUNS: cpuNS}, nil
}

// Latencies times calls 0 .. k-1 one at a time into scratch buffers (the
// outputs keep the last round's); ns per call.
func (r *TensorRounds) Latencies(k int) ([]int64, error) {
	if err := checkCalls("latencies", k, r.maxCalls); err != nil {
		return nil, err
	}
	ns := make([]int64, k)
	for i := range ns {
		start := time.Now()
		if err := r.call(i, true); err != nil {
			return nil, err
		}
		ns[i] = time.Since(start).Nanoseconds()
	}
	return ns, nil
}

// LastOutputs are each output's last-round samples (k*B of them), in the
// model's order; none before any round.
func (r *TensorRounds) LastOutputs() [][]byte {
	if r.lastCalls == 0 {
		return nil
	}
	all := make([][]byte, len(r.outputs))
	for o, step := range r.outSteps {
		all[o] = r.outputs[o][:r.lastCalls*step]
	}
	return all
}
