//! The MLP written as a burn user writes it: `burn::nn::Linear` layers and
//! ReLU, on burn's Flex CPU device, the weights taken from mlp_weights.f32.

use burn::module::Param;
use burn::nn::Linear;
use burn::prelude::*;
use burn::tensor::TensorData;
use burn::tensor::activation::relu;
use callbench_kit::MlpWeights;
use callbench_kit::inputs::INPUT_WIDTH;

/// Three linear layers, ReLU after the first two.
#[derive(Module, Debug)]
pub struct Mlp {
    a: Linear,
    b: Linear,
    c: Linear,
}

impl Mlp {
    /// The layers of `weights` on `device`.
    pub fn new(weights: &MlpWeights, device: &Device) -> Self {
        let hidden = weights.hidden; // from the weights' size: every width of the family runs
        Self {
            a: layer(INPUT_WIDTH, hidden, &weights.a_weight, &weights.a_bias, device),
            b: layer(hidden, hidden, &weights.b_weight, &weights.b_bias, device),
            c: layer(hidden, 1, &weights.c_weight, &weights.c_bias, device),
        }
    }

    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let h1 = relu(self.a.forward(x));
        let h2 = relu(self.b.forward(h1));
        self.c.forward(h2)
    }
}

/// A `Linear` of the exported weight (PyTorch's `[out, in]`, row-major) and
/// bias. burn keeps the weight as `[in, out]`, so it is transposed here, once,
/// rather than viewed transposed on every call.
fn layer(inputs: usize, outputs: usize, weight: &[f32], bias: &[f32], device: &Device) -> Linear {
    let mut by_input = vec![0.0; inputs * outputs];
    for o in 0..outputs {
        for i in 0..inputs {
            by_input[i * outputs + o] = weight[o * inputs + i];
        }
    }
    let weight = Tensor::from_data(TensorData::new(by_input, [inputs, outputs]), device);
    let bias = Tensor::from_data(TensorData::new(bias.to_vec(), [outputs]), device);
    Linear { weight: Param::from_tensor(weight), bias: Some(Param::from_tensor(bias)) }
}
