//! rust-tch-torchscript: `tch::CModule` on mlp_torchscript.pt (TorchScript
//! saved by the torch that exported the models). Each call copies its samples
//! into a tensor, runs `forward` without autograd and copies the output out.

use std::path::PathBuf;
use std::process::ExitCode;

use callbench_drivers::tch_support::{self, check_output, input_tensor, store_output};
use callbench_kit::inputs::require_file;
use callbench_kit::{Model, Notes, Options, Result, ResultExt};
use tch::{CModule, Tensor};

struct TorchScriptModel {
    module: CModule,
    path: PathBuf,
    batch: i64,
    _no_grad: tch::NoGradGuard,
}

impl TorchScriptModel {
    fn forward(&self, input: &[f32]) -> Result<Tensor> {
        let x = input_tensor(input, self.batch);
        self.module.forward_ts(&[x]).data_err_while(&self.path, "forward")
    }
}

impl Model for TorchScriptModel {
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        store_output(&self.forward(input)?, output);
        Ok(())
    }

    fn runtime_version(&self) -> String {
        tch_support::LIBTORCH_VERSION.to_string()
    }

    fn notes(&self) -> Notes {
        tch_support::notes(
            "Tensor::from_slice copy + CModule::forward_ts (eval, no_grad) + copy_data",
        )
    }
}

fn load(options: &Options) -> Result<TorchScriptModel> {
    tch_support::set_threads(options)?;
    let path = options.models.join("mlp_torchscript.pt");
    require_file(&path)?;
    let no_grad = tch::no_grad_guard();
    let mut module = CModule::load(&path).data_err_while(&path, "does not load as TorchScript")?;
    module.set_eval();
    let batch = options.batch as i64;
    let model = TorchScriptModel { module, path, batch, _no_grad: no_grad };
    let y = model.forward(&vec![0.0; 2 * options.batch as usize])?;
    check_output(&model.path, &y, options.batch)?;
    Ok(model)
}

fn main() -> ExitCode {
    callbench_kit::run(env!("CARGO_BIN_NAME"), load)
}
