//! rust-burn: the MLP as burn modules (`burn::nn::Linear`, ReLU) on burn's
//! Flex CPU backend, its weights from mlp_weights.f32. Each call makes a
//! tensor of its samples (`Tensor::from_data`), runs the forward pass, and
//! reads the output back (`into_data`): the way burn's book runs inference.
//! Its callers (contract 4) share the module: `forward` takes `&self` and a
//! burn module is `Send + Sync`.

use std::path::PathBuf;
use std::process::ExitCode;

use burn::prelude::*;
use burn::tensor::TensorData;
use callbench_burn::mlp::Mlp;
use callbench_kit::inputs::INPUT_WIDTH;
use callbench_kit::{
    FloatCallers, FloatModel, Holding, Holds, MlpWeights, Model, Notes, Options, Result, ResultExt,
    check_output_shape, rayon_pool,
};

struct BurnModel {
    mlp: Mlp,
    device: Device,
    batch: usize,
    path: PathBuf,
}

impl BurnModel {
    fn forward(&self, input: &[f32]) -> Tensor<2> {
        let data = TensorData::new(input.to_vec(), [self.batch, INPUT_WIDTH]);
        self.mlp.forward(Tensor::from_data(data, &self.device))
    }
}

impl BurnModel {
    /// One call, through `&self`: what every caller does.
    #[inline(always)]
    fn call_shared(&self, input: &[f32], output: &mut [f32]) -> Result<()> {
        let y = self.forward(input).into_data();
        let values = y
            .as_slice::<f32>()
            .map_err(|e| format!("{e:?}"))
            .data_err_while(&self.path, "reading the output")?;
        output.copy_from_slice(values);
        Ok(())
    }
}

impl Model for BurnModel {
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        self.call_shared(input, output)
    }

    fn runtime_version(&self) -> String {
        callbench_burn::VERSION.to_string()
    }

    fn notes(&self) -> Notes {
        Notes::new()
            .with(
                "call",
                "Tensor::from_data + three burn::nn::Linear forwards with relu + into_data",
            )
            .with("backend", "Flex (burn's pure-Rust CPU backend), simd")
            .with("threads", rayon_pool::threads())
    }
}

/// A caller of the one module (contract 4).
struct BurnCaller<'a>(&'a BurnModel);

impl Model for BurnCaller<'_> {
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        self.0.call_shared(input, output)
    }

    fn runtime_version(&self) -> String {
        self.0.runtime_version()
    }
}

impl FloatCallers for BurnModel {
    type Caller<'a> = BurnCaller<'a>;

    fn caller(&self) -> Result<BurnCaller<'_>> {
        Ok(BurnCaller(self))
    }

    fn holding(&self) -> Holding {
        let how = "one Mlp module, forward called through &self by every caller";
        Holding { holds: Holds::Shared, how: how.into() }
    }
}

fn load(options: &Options) -> Result<BurnModel> {
    rayon_pool::build_global(options)?;
    let path = MlpWeights::path(options);
    let weights = MlpWeights::read(&path)?;
    let device = Device::flex();
    let mlp = Mlp::new(&weights, &device);
    let batch = options.batch as usize;
    let model = BurnModel { mlp, device, batch, path };
    let y = model.forward(&vec![0.0; INPUT_WIDTH * batch]);
    check_output_shape(&model.path, &y.dims(), options.batch)?;
    Ok(model)
}

fn main() -> ExitCode {
    callbench_kit::driver_main_callers(env!("CARGO_BIN_NAME"), |options| {
        load(options).map(FloatModel)
    })
}
