//! rust-candle: the MLP written with candle-nn's `Linear` on the CPU device,
//! its weights from mlp_weights.f32. Each call copies its samples into a
//! tensor, runs the three layers and copies the output out. Its callers
//! (contract 4) share the model: `Module::forward` takes `&self` and candle's
//! tensors are `Send + Sync`.

use std::path::PathBuf;
use std::process::ExitCode;

use callbench_drivers::candle_support;
use callbench_kit::inputs::INPUT_WIDTH;
use callbench_kit::{
    FloatCallers, FloatModel, Holding, Holds, MlpWeights, Model, Notes, Options, Result, ResultExt,
    check_output_shape,
};
use candle_core::{Device, Tensor};
use candle_nn::{Linear, Module};

struct CandleModel {
    a: Linear,
    b: Linear,
    c: Linear,
    batch: usize,
    path: PathBuf,
}

impl CandleModel {
    fn forward(&self, input: &[f32]) -> candle_core::Result<Tensor> {
        let x = Tensor::from_slice(input, (self.batch, INPUT_WIDTH), &Device::Cpu)?;
        let h1 = self.a.forward(&x)?.relu()?;
        let h2 = self.b.forward(&h1)?.relu()?;
        self.c.forward(&h2)
    }

    /// One call, through `&self`: what every caller does.
    #[inline(always)]
    fn call_shared(&self, input: &[f32], output: &mut [f32]) -> Result<()> {
        let y = self.forward(input).data_err_while(&self.path, "forward")?;
        let values = y.flatten_all().and_then(|y| y.to_vec1::<f32>()).data_err(&self.path)?;
        output.copy_from_slice(&values);
        Ok(())
    }
}

impl Model for CandleModel {
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        self.call_shared(input, output)
    }

    fn runtime_version(&self) -> String {
        candle_support::VERSION.to_string()
    }

    fn notes(&self) -> Notes {
        Notes::new()
            .with("call", "Tensor::from_slice copy + three candle_nn::Linear forwards + to_vec1")
            .with("threads", candle_support::threads())
    }
}

/// A caller of the one model (contract 4).
struct CandleCaller<'a>(&'a CandleModel);

impl Model for CandleCaller<'_> {
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        self.0.call_shared(input, output)
    }

    fn runtime_version(&self) -> String {
        self.0.runtime_version()
    }
}

impl FloatCallers for CandleModel {
    type Caller<'a> = CandleCaller<'a>;

    fn caller(&self) -> Result<CandleCaller<'_>> {
        Ok(CandleCaller(self))
    }

    fn holding(&self) -> Holding {
        let how = "one model, its three Linear layers called through &self by every caller";
        Holding { holds: Holds::Shared, how: how.into() }
    }
}

/// A `Linear` layer holding the exported weight `[out, in]` and bias.
fn layer(
    inputs: usize,
    outputs: usize,
    weight: &[f32],
    bias: &[f32],
) -> candle_core::Result<Linear> {
    let weight = Tensor::from_slice(weight, (outputs, inputs), &Device::Cpu)?;
    let bias = Tensor::from_slice(bias, outputs, &Device::Cpu)?;
    Ok(Linear::new(weight, Some(bias)))
}

fn load(options: &Options) -> Result<CandleModel> {
    candle_support::set_threads(options)?;
    let path = MlpWeights::path(options);
    let w = MlpWeights::read(&path)?;
    let hidden = w.hidden; // from the weights' size: every width of the family runs
    let a = layer(INPUT_WIDTH, hidden, &w.a_weight, &w.a_bias).data_err(&path)?;
    let b = layer(hidden, hidden, &w.b_weight, &w.b_bias).data_err(&path)?;
    let c = layer(hidden, 1, &w.c_weight, &w.c_bias).data_err(&path)?;
    let batch = options.batch as usize;
    let model = CandleModel { a, b, c, batch, path };
    let y = model.forward(&vec![0.0; INPUT_WIDTH * batch]).data_err(&model.path)?;
    check_output_shape(&model.path, y.dims(), options.batch)?;
    Ok(model)
}

fn main() -> ExitCode {
    callbench_kit::driver_main_callers(env!("CARGO_BIN_NAME"), |options| {
        load(options).map(FloatModel)
    })
}
