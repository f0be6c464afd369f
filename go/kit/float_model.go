// float_model: our MLP's float Model seen as a TensorModel of one float32
// input 'x' [2] and one float32 output 'y' [1], so that the kit has one model
// path: one Rounds, one entry, one input reader, one output writer.

package kit

import "unsafe"

// MLPSignature is the MLP's, as its artifacts name it (inputs.f32 holds x, reference.f32 y).
func MLPSignature() Signature {
	return Signature{
		Inputs:  []Tensor{{Name: "x", Dtype: Float32, Shape: []int64{InputWidth}}},
		Outputs: []Tensor{{Name: "y", Dtype: Float32, Shape: []int64{OutputWidth}}},
	}
}

// FloatModel is a float Model as a TensorModel. Rounds call its Model
// directly on float32 views (no views built per call): our MLP keeps its
// cheapest timed loop.
type FloatModel struct{ Model }

// FloatModelLoader loads a float Model as a FloatModel: a float driver's
// main is kit.DriverMain(id, kit.FloatModelLoader(load)).
func FloatModelLoader(load Loader) TensorLoader {
	return func(o Options) (TensorModel, error) {
		model, err := load(o)
		if err != nil {
			return nil, err
		}
		return FloatModel{model}, nil
	}
}

// Signature is the MLP's.
func (FloatModel) Signature() Signature { return MLPSignature() }

// Call calls the Model on float32 views of the one input and output.
func (f FloatModel) Call(in, out [][]byte) error {
	return f.Model.Call(floats(in[0]), floats(out[0]))
}

// floats views little-endian float32 bytes (the kit's buffers are aligned) as floats.
func floats(b []byte) []float32 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), len(b)/4)
}
