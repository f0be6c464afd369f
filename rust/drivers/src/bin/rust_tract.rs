//! rust-tract: tract's optimised plan for mlp.onnx, called the plain way:
//! `SimplePlan::run` each call (which makes a fresh state every time). Its
//! callers (contract 4) share the plan: `run` takes `&self` and the plan is
//! `Sync`; each caller holds an `Arc` of it.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use callbench_drivers::tract_support::{self, input_tensors, input_types, store_outputs};
use callbench_kit::{
    Holding, Holds, Notes, Options, Result, ResultExt, Signature, TakesCallers, TensorModel,
};
use tract_onnx::prelude::*;

#[derive(Clone)]
struct TractModel {
    plan: Arc<TypedSimplePlan>,
    path: PathBuf,
    signature: Signature,
    /// Each input's dtype as tract names it and its `[batch, *shape]`.
    types: Vec<(DatumType, Vec<usize>)>,
}

impl TensorModel for TractModel {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn call(&mut self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<()> {
        let x = input_tensors(&self.path, inputs, &self.types)?;
        let results = self.plan.run(x).data_err_while(&self.path, "run")?;
        store_outputs(&self.path, &results, outputs)
    }

    fn runtime_version(&self) -> String {
        tract_support::VERSION.to_string()
    }

    fn notes(&self) -> Notes {
        Notes::new()
            .with("call", "Tensor::from_raw_dt copy + SimplePlan::run (new state each call)")
            .with("threads", tract_support::THREADS_NOTE)
    }
}

impl TakesCallers for TractModel {
    type Caller<'a> = TractModel;

    fn caller(&self) -> Result<TractModel> {
        Ok(self.clone())
    }

    fn holding(&self) -> Holding {
        let how = "one optimised plan, an Arc of it in each caller; SimplePlan::run(&self)";
        Holding { holds: Holds::Shared, how: how.into() }
    }
}

fn load(options: &Options) -> Result<TractModel> {
    let path = tract_support::model_path(options);
    let batch = options.batch as usize;
    let (plan, signature) = tract_support::load_plan(&path, batch)?;
    let types = input_types(&signature, batch);
    let mut model = TractModel { plan, path, signature, types };
    tract_support::check_answers(&mut model, batch)?;
    Ok(model)
}

fn main() -> ExitCode {
    callbench_kit::driver_main_callers(env!("CARGO_BIN_NAME"), load)
}
