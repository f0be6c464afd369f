//! rust-tract-state: tract's optimised plan for mlp.onnx with one
//! `SimpleState` made at load and reused by every call (`SimpleState::run`),
//! instead of the fresh state `SimplePlan::run` makes each time. Its callers
//! (contract 4) share the plan, each with a `SimpleState` of its own (a state
//! is one caller's: `run` takes `&mut self`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use callbench_drivers::tract_support::{self, input_tensors, input_types, store_outputs};
use callbench_kit::{
    Holding, Holds, Notes, Options, Result, ResultExt, Signature, TakesCallers, TensorModel,
};
use tract_onnx::prelude::*;

struct TractStateModel {
    plan: Arc<TypedSimplePlan>,
    state: TypedSimpleState,
    path: PathBuf,
    signature: Signature,
    /// Each input's dtype as tract names it and its `[batch, *shape]`.
    types: Vec<(DatumType, Vec<usize>)>,
}

impl TensorModel for TractStateModel {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn call(&mut self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<()> {
        let x = input_tensors(&self.path, inputs, &self.types)?;
        let results = self.state.run(x).data_err_while(&self.path, "run")?;
        store_outputs(&self.path, &results, outputs)
    }

    fn runtime_version(&self) -> String {
        tract_support::VERSION.to_string()
    }

    fn notes(&self) -> Notes {
        Notes::new()
            .with("call", "Tensor::from_raw_dt copy + SimpleState::run on one state made at load")
            .with("threads", tract_support::THREADS_NOTE)
    }
}

impl TakesCallers for TractStateModel {
    type Caller<'a> = TractStateModel;

    fn caller(&self) -> Result<TractStateModel> {
        let state = self.plan.spawn().data_err_while(&self.path, "cannot make a state")?;
        let (plan, path) = (Arc::clone(&self.plan), self.path.clone());
        Ok(TractStateModel {
            plan,
            state,
            path,
            signature: self.signature.clone(),
            types: self.types.clone(),
        })
    }

    fn holding(&self) -> Holding {
        let how = "one optimised plan shared (Arc); a SimpleState spawned from it per caller";
        Holding { holds: Holds::Shared, how: how.into() }
    }
}

fn load(options: &Options) -> Result<TractStateModel> {
    let path = tract_support::model_path(options);
    let batch = options.batch as usize;
    let (plan, signature) = tract_support::load_plan(&path, batch)?;
    let state = plan.spawn().data_err_while(&path, "cannot make a state")?;
    let types = input_types(&signature, batch);
    let mut model = TractStateModel { plan, state, path, signature, types };
    tract_support::check_answers(&mut model, batch)?;
    Ok(model)
}

fn main() -> ExitCode {
    callbench_kit::driver_main_callers(env!("CARGO_BIN_NAME"), load)
}
