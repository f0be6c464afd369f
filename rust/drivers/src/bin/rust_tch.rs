//! rust-tch: the MLP written with tch's `nn` (three `nn::linear` layers, the
//! LibTorch C++ API that was the seed study's fastest row), its weights
//! copied from mlp_weights.f32. Each call copies its samples into a tensor,
//! runs the layers without autograd and copies the output out.

use std::path::PathBuf;
use std::process::ExitCode;

use callbench_drivers::tch_support::{self, check_output, input_tensor, store_output};
use callbench_kit::{FloatModel, MlpWeights, Model, Notes, Options, Result};
use tch::nn::{self, Module};
use tch::{Device, Tensor};

struct TchModel {
    a: nn::Linear,
    b: nn::Linear,
    c: nn::Linear,
    batch: i64,
    // Keeps autograd off on this (the calling) thread while the model lives.
    _no_grad: tch::NoGradGuard,
    _vars: nn::VarStore,
}

impl TchModel {
    fn forward(&self, input: &[f32]) -> Tensor {
        let x = input_tensor(input, self.batch);
        self.c.forward(&self.b.forward(&self.a.forward(&x).relu()).relu())
    }
}

impl Model for TchModel {
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        store_output(&self.forward(input), output);
        Ok(())
    }

    fn runtime_version(&self) -> String {
        tch_support::LIBTORCH_VERSION.to_string()
    }

    fn notes(&self) -> Notes {
        tch_support::notes(
            "Tensor::from_slice copy + three nn::Linear forwards (no_grad) + copy_data",
        )
    }
}

/// An `nn::linear` layer holding the exported weight `[out, in]` and bias.
fn layer(
    path: nn::Path,
    inputs: usize,
    outputs: usize,
    weight: &[f32],
    bias: &[f32],
) -> nn::Linear {
    let mut layer = nn::linear(path, inputs as i64, outputs as i64, Default::default());
    layer.ws.copy_(&Tensor::from_slice(weight).view([outputs as i64, inputs as i64]));
    if let Some(bs) = layer.bs.as_mut() {
        bs.copy_(&Tensor::from_slice(bias));
    }
    layer
}

fn load(options: &Options) -> Result<TchModel> {
    tch_support::set_threads(options)?;
    let weights_path: PathBuf = MlpWeights::path(options);
    let w = MlpWeights::read(&weights_path)?;
    let no_grad = tch::no_grad_guard();
    let mut vars = nn::VarStore::new(Device::Cpu);
    let root = vars.root();
    let hidden = w.hidden; // from the weights' size: every width of the family runs
    let a = layer(&root / "a", 2, hidden, &w.a_weight, &w.a_bias);
    let b = layer(&root / "b", hidden, hidden, &w.b_weight, &w.b_bias);
    let c = layer(&root / "c", hidden, 1, &w.c_weight, &w.c_bias);
    vars.freeze();
    let batch = options.batch as i64;
    let model = TchModel { a, b, c, batch, _no_grad: no_grad, _vars: vars };
    let y = model.forward(&vec![0.0; 2 * options.batch as usize]);
    check_output(&weights_path, &y, options.batch)?;
    Ok(model)
}

fn main() -> ExitCode {
    callbench_kit::driver_main(env!("CARGO_BIN_NAME"), |options| load(options).map(FloatModel))
}
