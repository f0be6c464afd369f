//! rust-ort-iobinding: ONNX Runtime through the `ort` crate with an
//! `IoBinding`: every input and output tensor allocated once and bound once;
//! each call copies its samples into the bound inputs, runs the binding and
//! copies the bound outputs out. Its callers (contract 4) each hold a session
//! and binding of their own (`Session::run_binding` takes `&mut self`), one
//! `PrepackedWeights` shared by the sessions.

use std::process::ExitCode;

use callbench_drivers::ort_support::{self, OrtShared, batch_shape, element_type};
use callbench_kit::{
    Holding, Holds, Notes, Options, Result, ResultExt, Signature, TakesCallers, TensorModel,
};
use ort::session::{IoBinding, Session};
use ort::value::DynTensor;

struct OrtBoundModel {
    shared: OrtShared,
    session: Session,
    binding: IoBinding,
    inputs: Vec<DynTensor>,
    outputs: Vec<DynTensor>,
    signature: Signature,
    batch: usize,
}

/// A CPU tensor's data as bytes: `len` is its byte size (the tensor was
/// allocated for exactly its signature's `[batch, *shape]`).
fn bytes_of(tensor: &mut DynTensor, len: usize) -> &mut [u8] {
    // SAFETY: the tensor is on the CPU allocator, holds `len` initialised
    // bytes (zeroed when made), and we hold the only borrow of it.
    unsafe { std::slice::from_raw_parts_mut(tensor.data_ptr_mut().cast::<u8>(), len) }
}

impl TensorModel for OrtBoundModel {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn call(&mut self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<()> {
        // The binding holds the same OrtValues as `self.inputs`: writing their
        // data is binding the new samples (ONNX Runtime does not copy CPU inputs).
        for (tensor, bytes) in self.inputs.iter_mut().zip(inputs) {
            bytes_of(tensor, bytes.len()).copy_from_slice(bytes);
        }
        self.session.run_binding(&self.binding).data_err_while(&self.shared.path, "run_binding")?;
        for (tensor, out) in self.outputs.iter_mut().zip(outputs.iter_mut()) {
            out.copy_from_slice(bytes_of(tensor, out.len()));
        }
        Ok(())
    }

    fn runtime_version(&self) -> String {
        self.shared.version.clone()
    }

    fn notes(&self) -> Notes {
        Notes::new()
            .with("call", "IoBinding to tensors allocated once; copy in, run_binding, copy out")
            .with("crate", format!("ort {}", ort_support::CRATE_VERSION))
            .with("intra_op_threads", self.shared.threads)
    }
}

impl TakesCallers for OrtBoundModel {
    type Caller<'a> = OrtBoundModel;

    fn caller(&self) -> Result<OrtBoundModel> {
        bound(self.shared.clone(), self.batch)
    }

    fn holding(&self) -> Holding {
        let how = format!("{}; an IoBinding per session", ort_support::PER_CALLER_HOW);
        Holding { holds: Holds::PerCaller, how }
    }
}

/// A session of the model with its tensors allocated and bound, checked: one run with
/// the bound tensors answers each output's dtype and shape.
fn bound(shared: OrtShared, batch: usize) -> Result<OrtBoundModel> {
    let session = shared.session()?;
    let path = &shared.path;
    let signature = ort_support::signature(&session, path)?;
    let allocator = session.allocator();
    let tensor = |t: &callbench_kit::Tensor| {
        DynTensor::new(allocator, element_type(t.dtype), batch_shape(t, batch)).data_err(path)
    };
    let inputs = signature.inputs.iter().map(tensor).collect::<Result<Vec<_>>>()?;
    let mut outputs = signature.outputs.iter().map(tensor).collect::<Result<Vec<_>>>()?;
    let mut binding = session.create_binding().data_err(path)?;
    for (outlet, value) in session.inputs().iter().zip(&inputs) {
        binding.bind_input(outlet.name(), value).data_err_while(path, "bind_input")?;
    }
    for (outlet, value) in session.outputs().iter().zip(outputs.iter_mut()) {
        binding.bind_output(outlet.name(), value).data_err_while(path, "bind_output")?;
    }
    let mut model = OrtBoundModel { shared, session, binding, inputs, outputs, signature, batch };
    let results = model.session.run_binding(&model.binding).data_err(&model.shared.path)?;
    ort_support::check_outputs(&model.shared.path, &results, &model.signature, batch)?;
    drop(results);
    Ok(model)
}

fn load(options: &Options) -> Result<OrtBoundModel> {
    bound(OrtShared::open(options)?, options.batch as usize)
}

fn main() -> ExitCode {
    callbench_kit::driver_main_callers(env!("CARGO_BIN_NAME"), load)
}
