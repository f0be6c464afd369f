// go-handwritten: the forward pass as plain loops over mlp_weights.f32, no
// library at all: Go's floor, beside cpp-handwritten and rust-handwritten.
// The hidden width comes from the weights' size.
package main

import (
	"math"
	"path/filepath"
	"runtime"

	"callbench/kit"
)

// hidden is the reference model's width (2-8-8-1), which has a fixed-size
// path; the family's wider models take anyWidth's loops.
const hidden = 8

// weightCount is the floats of mlp_weights.f32 for hidden width h: 2h + h + h*h + h + h + 1.
func weightCount(h int) int { return h*h + 5*h + 1 }

// hiddenOfCount is the width whose weights have count floats, or 0 when none has.
func hiddenOfCount(count int) int {
	root := int(math.Sqrt(21 + 4*float64(count)))
	for r := max(root-1, 0); r <= root+1; r++ {
		if r > 5 && (r-5)%2 == 0 && weightCount((r-5)/2) == count {
			return (r - 5) / 2
		}
	}
	return 0
}

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

// anyWidth holds a 2-H-H-1 MLP of any width, b.weight transposed: the second
// layer adds column k, scaled by h1[k], to every hidden unit, a contiguous
// loop, each unit's sum still bias first, then k = 0, 1, ... (as model's).
type anyWidth struct {
	hidden                      int
	aWeight, aBias, bTransposed []float32
	bBias, cWeight, h1, h2      []float32
	cBias                       float32
}

func load(o kit.Options) (kit.Model, error) {
	path := filepath.Join(o.Models, "mlp_weights.f32")
	values, err := kit.ReadFiniteFloats(path, 1, "weight")
	if err != nil {
		return nil, err
	}
	h := hiddenOfCount(len(values))
	if h == 0 {
		return nil, kit.Dataf(path, "holds %d floats, which is no 2-H-H-1 MLP's count (H*H + 5H + 1; %d for H = 8)",
			len(values), weightCount(hidden))
	}
	if h != hidden {
		return newAnyWidth(values, h), nil
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

func newAnyWidth(values []float32, h int) *anyWidth {
	take := func(n int) []float32 {
		part := values[:n:n]
		values = values[n:]
		return part
	}
	m := &anyWidth{hidden: h, aWeight: take(h * kit.InputWidth), aBias: take(h)}
	bWeight := take(h * h)
	m.bBias, m.cWeight, m.cBias = take(h), take(h), take(1)[0]
	m.bTransposed = make([]float32, h*h)
	for j := range h {
		for k := range h {
			m.bTransposed[k*h+j] = bWeight[j*h+k]
		}
	}
	m.h1, m.h2 = make([]float32, h), make([]float32, h)
	return m
}

func (m *anyWidth) Call(in, out []float32) error {
	h := m.hidden
	h1, h2 := m.h1[:h], m.h2[:h]
	for s := range out {
		x := (*[kit.InputWidth]float32)(in[kit.InputWidth*s:])
		for j := range h1 {
			h1[j] = relu(m.aWeight[2*j]*x[0] + m.aWeight[2*j+1]*x[1] + m.aBias[j])
		}
		copy(h2, m.bBias)
		for k, hk := range h1 {
			column := m.bTransposed[k*h : k*h+h]
			for j := range h2 {
				h2[j] += column[j] * hk
			}
		}
		y := m.cBias
		for j, v := range h2 {
			y += m.cWeight[j] * relu(v)
		}
		out[s] = y
	}
	return nil
}

func (m *anyWidth) RuntimeVersion() string { return runtime.Version() }

func (m *anyWidth) Notes() kit.Notes { return notes(m.hidden) }

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

func (m *model) Notes() kit.Notes { return notes(hidden) }

func notes(h int) kit.Notes {
	return kit.Notes{
		{Key: "call", Value: "plain loops, go build's default optimisation, outputs into the kit's buffer"},
		{Key: "threads", Value: "always the calling thread; --threads is not used"},
		{Key: "hidden", Value: h},
	}
}

func main() { kit.DriverMain("go-handwritten", kit.FloatModelLoader(load)) }
