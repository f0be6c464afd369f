//! rust-tract: tract's optimised plan for mlp.onnx, called the plain way:
//! `SimplePlan::run` each call (which makes a fresh state every time).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use callbench_drivers::tract_support::{self, input_tensor, store_output};
use callbench_kit::{Model, Notes, Options, Result, ResultExt, SampleWidths, check_output_size};
use tract_onnx::prelude::*;

struct TractModel {
    plan: Arc<TypedSimplePlan>,
    path: PathBuf,
    batch: usize,
    widths: SampleWidths,
}

impl TractModel {
    fn run(&mut self, input: &[f32], output: &mut [f32]) -> Result<Vec<usize>> {
        let x = input_tensor(&self.path, input, self.batch)?;
        let outputs = self.plan.run(tvec!(x)).data_err_while(&self.path, "run")?;
        store_output(&self.path, &outputs, output)
    }
}

impl Model for TractModel {
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        self.run(input, output).map(drop)
    }

    fn sample_widths(&self) -> SampleWidths {
        self.widths
    }

    fn runtime_version(&self) -> String {
        tract_support::VERSION.to_string()
    }

    fn notes(&self) -> Notes {
        Notes::new()
            .with("call", "Tensor::from_shape copy + SimplePlan::run (new state each call)")
            .with("threads", tract_support::THREADS_NOTE)
    }
}

fn load(options: &Options) -> Result<TractModel> {
    let path = tract_support::model_path(options);
    let batch = options.batch as usize;
    let (plan, widths) = tract_support::load_plan(&path, batch)?;
    let mut model = TractModel { plan, path, batch, widths };
    let shape =
        model.run(&vec![0.0; widths.input * batch], &mut vec![0.0; widths.output * batch])?;
    check_output_size(&model.path, &shape, options.batch, widths.output)?;
    Ok(model)
}

fn main() -> ExitCode {
    callbench_kit::run(env!("CARGO_BIN_NAME"), load)
}
