// go-handwritten: the forward pass as plain loops over mlp_weights.f32, no
// library at all: Go's floor, beside cpp-handwritten and rust-handwritten.
package main

import (
	"path/filepath"
	"runtime"

	"callbench/kit"
)

const hidden = 8

// weightCount is the floats of mlp_weights.f32: 16 + 8 + 64 + 8 + 8 + 1.
const weightCount = hidden*kit.InputWidth + hidden + hidden*hidden + hidden + hidden*kit.OutputWidth + kit.OutputWidth

// model holds the 2-8-8-1 MLP in mlp_weights.f32's order: each layer's
// weight as nn.Linear keeps it ([out, in], row-major), then its bias.
type model struct {
	aWeight [hidden * kit.InputWidth]float32
	aBias   [hidden]float32
	bWeight [hidden * hidden]float32
	bBias   [hidden]float32
	cWeight [hidden]float32
	cBias   float32
}

func load(o kit.Options) (kit.Model, error) {
	path := filepath.Join(o.Models, "mlp_weights.f32")
	values, err := kit.ReadFiniteFloats(path, 1, "weight")
	if err != nil {
		return nil, err
	}
	if len(values) != weightCount {
		return nil, kit.Dataf(path, "holds %d floats, expected %d (the 2-8-8-1 MLP)", len(values), weightCount)
	}
	m := &model{}
	rest := values
	rest = rest[copy(m.aWeight[:], rest):]
	rest = rest[copy(m.aBias[:], rest):]
	rest = rest[copy(m.bWeight[:], rest):]
	rest = rest[copy(m.bBias[:], rest):]
	rest = rest[copy(m.cWeight[:], rest):]
	m.cBias = rest[0]
	return m, nil
}

// Call writes every sample's output into the kit's buffer, which the kit
// checks against the reference, so the work is kept. Fixed-size array views
// let the compiler drop the bounds checks of the inner loops (0.054 against
// 0.061 µs a call with plain slices here).
func (m *model) Call(in, out []float32) error {
	for s := range out {
		x := (*[kit.InputWidth]float32)(in[kit.InputWidth*s:])
		var h [hidden]float32
		for j := range hidden {
			h[j] = relu(m.aWeight[2*j]*x[0] + m.aWeight[2*j+1]*x[1] + m.aBias[j])
		}
		y := m.cBias
		for j := range hidden {
			row := (*[hidden]float32)(m.bWeight[hidden*j:])
			v := m.bBias[j]
			for k := range hidden {
				v += row[k] * h[k]
			}
			y += m.cWeight[j] * relu(v)
		}
		out[s] = y
	}
	return nil
}

// relu is the max builtin: a compare-and-branch on the sign mispredicts on
// random inputs (0.073 µs a call here).
func relu(v float32) float32 { return max(v, 0) }

func (m *model) RuntimeVersion() string { return runtime.Version() }

func (m *model) Notes() kit.Notes {
	return kit.Notes{
		{Key: "call", Value: "plain loops, go build's default optimisation, outputs into the kit's buffer"},
		{Key: "threads", Value: "always the calling thread; --threads is not used"},
	}
}

func main() { kit.DriverMain("go-handwritten", load) }
