//! rust-tch: the MLP written with tch's `nn` (three `nn::linear` layers, the
//! LibTorch C++ API that was the seed study's fastest row), its weights
//! copied from mlp_weights.f32. Each call copies its samples into a tensor,
//! runs the layers without autograd and copies the output out. Its callers
//! (contract 4) each hold layers of their own: tch's `Tensor` is `Send` but not
//! `Sync`, so a module of them cannot be called from two threads at once.

use std::path::PathBuf;
use std::process::ExitCode;

use callbench_drivers::tch_support::{
    self, NoGradOnCaller, check_output, input_tensor, store_output,
};
use callbench_kit::{
    FloatCallers, FloatModel, Holding, Holds, MlpWeights, Model, Notes, Options, Result,
};
use tch::nn::{self, Module};
use tch::{Device, Tensor};

/// The three layers and the variables they hold.
struct Layers {
    a: nn::Linear,
    b: nn::Linear,
    c: nn::Linear,
    batch: i64,
    _vars: nn::VarStore,
}

impl Layers {
    fn forward(&self, input: &[f32]) -> Tensor {
        let x = input_tensor(input, self.batch);
        self.c.forward(&self.b.forward(&self.a.forward(&x).relu()).relu())
    }
}

struct TchModel {
    layers: Layers,
    /// What each caller's own layers are made of.
    weights: MlpWeights,
    // Keeps autograd off on this (the calling) thread while the model lives.
    _no_grad: tch::NoGradGuard,
}

impl Model for TchModel {
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        store_output(&self.layers.forward(input), output);
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

/// The layers of `w`, frozen; made with autograd off (the weights are copied in place).
fn layers(w: &MlpWeights, batch: i64) -> Layers {
    let mut vars = nn::VarStore::new(Device::Cpu);
    let root = vars.root();
    let hidden = w.hidden; // from the weights' size: every width of the family runs
    let a = layer(&root / "a", 2, hidden, &w.a_weight, &w.a_bias);
    let b = layer(&root / "b", hidden, hidden, &w.b_weight, &w.b_bias);
    let c = layer(&root / "c", hidden, 1, &w.c_weight, &w.c_bias);
    vars.freeze();
    Layers { a, b, c, batch, _vars: vars }
}

/// A caller's own layers (contract 4), autograd off on its thread.
struct TchCaller {
    layers: Layers,
    no_grad: NoGradOnCaller,
}

impl Model for TchCaller {
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        self.no_grad.enter();
        store_output(&self.layers.forward(input), output);
        Ok(())
    }

    fn runtime_version(&self) -> String {
        tch_support::LIBTORCH_VERSION.to_string()
    }
}

impl FloatCallers for TchModel {
    type Caller<'a> = TchCaller;

    fn caller(&self) -> Result<TchCaller> {
        let layers = tch::no_grad(|| layers(&self.weights, self.layers.batch));
        Ok(TchCaller { layers, no_grad: NoGradOnCaller::default() })
    }

    fn holding(&self) -> Holding {
        let how = "three nn::Linear layers of its own per caller (tch's Tensor is not Sync)";
        Holding { holds: Holds::PerCaller, how: how.into() }
    }
}

fn load(options: &Options) -> Result<TchModel> {
    tch_support::set_threads(options)?;
    let weights_path: PathBuf = MlpWeights::path(options);
    let weights = MlpWeights::read(&weights_path)?;
    let no_grad = tch::no_grad_guard();
    let layers = layers(&weights, options.batch as i64);
    let model = TchModel { layers, weights, _no_grad: no_grad };
    let y = model.layers.forward(&vec![0.0; 2 * options.batch as usize]);
    check_output(&weights_path, &y, options.batch)?;
    Ok(model)
}

fn main() -> ExitCode {
    callbench_kit::driver_main_callers(env!("CARGO_BIN_NAME"), |options| {
        load(options).map(FloatModel)
    })
}
