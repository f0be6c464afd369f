//! rust-ort-iobinding: ONNX Runtime through the `ort` crate with an
//! `IoBinding`: every input and output tensor allocated once and bound once;
//! each call copies its samples into the bound inputs, runs the binding and
//! copies the bound outputs out. Its callers (contract 4) each hold a session
//! and binding of their own (`Session::run_binding` takes `&mut self`), one
//! `PrepackedWeights` shared by the sessions. With `--gathered` (contract 7) the
//! batcher's calls run at the size they gathered, through bindings of each size
//! made at load (ONNX Runtime takes a changing batch dimension without reloading).

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
    /// The binding of B samples, and with `--gathered` one of each size 1..B.
    at_batch: Bound,
    sized: Vec<Bound>,
    signature: Signature,
    batch: usize,
}

/// Tensors allocated once and bound once to an `IoBinding` of their own.
struct Bound {
    binding: IoBinding,
    inputs: Vec<DynTensor>,
    outputs: Vec<DynTensor>,
}

/// A CPU tensor's data as bytes: `len` is its byte size (the tensor was
/// allocated for exactly its signature's `[batch, *shape]`).
fn bytes_of(tensor: &mut DynTensor, len: usize) -> &mut [u8] {
    // SAFETY: the tensor is on the CPU allocator, holds `len` initialised
    // bytes (zeroed when made), and we hold the only borrow of it.
    unsafe { std::slice::from_raw_parts_mut(tensor.data_ptr_mut().cast::<u8>(), len) }
}

impl Bound {
    /// `samples` samples of each tensor of `signature`, bound to a new binding of `session`.
    fn new(
        session: &Session,
        signature: &Signature,
        samples: usize,
        path: &std::path::Path,
    ) -> Result<Self> {
        let allocator = session.allocator();
        let tensor = |t: &callbench_kit::Tensor| {
            DynTensor::new(allocator, element_type(t.dtype), batch_shape(t, samples)).data_err(path)
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
        Ok(Self { binding, inputs, outputs })
    }

    /// Copies `samples` samples of each input in, runs the binding, copies them out.
    fn call(
        &mut self,
        session: &mut Session,
        inputs: &[&[u8]],
        outputs: &mut [&mut [u8]],
        samples: usize,
        batch: usize,
        path: &std::path::Path,
    ) -> Result<()> {
        // The binding holds the same OrtValues as `self.inputs`: writing their
        // data is binding the new samples (ONNX Runtime does not copy CPU inputs).
        for (tensor, bytes) in self.inputs.iter_mut().zip(inputs) {
            let len = bytes.len() / batch * samples;
            bytes_of(tensor, len).copy_from_slice(&bytes[..len]);
        }
        session.run_binding(&self.binding).data_err_while(path, "run_binding")?;
        for (tensor, out) in self.outputs.iter_mut().zip(outputs.iter_mut()) {
            let len = out.len() / batch * samples;
            out[..len].copy_from_slice(bytes_of(tensor, len));
        }
        Ok(())
    }
}

impl TensorModel for OrtBoundModel {
    const TAKES_GATHERED: bool = true;

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn call(&mut self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<()> {
        let (batch, path) = (self.batch, &self.shared.path);
        self.at_batch.call(&mut self.session, inputs, outputs, batch, batch, path)
    }

    /// Contract 7's call of the first `samples` samples: the binding of that size, made at
    /// load with `--gathered` (ONNX Runtime takes a changing batch dimension).
    fn call_gathered(
        &mut self,
        inputs: &[&[u8]],
        outputs: &mut [&mut [u8]],
        samples: usize,
    ) -> Result<()> {
        let (batch, path) = (self.batch, &self.shared.path);
        self.sized[samples - 1].call(&mut self.session, inputs, outputs, samples, batch, path)
    }

    fn runtime_version(&self) -> String {
        self.shared.version.clone()
    }

    fn notes(&self) -> Notes {
        let notes = Notes::new()
            .with("call", "IoBinding to tensors allocated once; copy in, run_binding, copy out")
            .with("crate", format!("ort {}", ort_support::CRATE_VERSION))
            .with("intra_op_threads", self.shared.threads);
        if self.sized.is_empty() {
            return notes;
        }
        notes.with(
            "gathered_call",
            "run_binding of tensors of the n gathered, bound at load for each n",
        )
    }
}

impl TakesCallers for OrtBoundModel {
    type Caller<'a> = OrtBoundModel;

    fn caller(&self) -> Result<OrtBoundModel> {
        bound(self.shared.clone(), self.batch, false)
    }

    fn holding(&self) -> Holding {
        let how = format!("{}; an IoBinding per session", ort_support::PER_CALLER_HOW);
        Holding { holds: Holds::PerCaller, how }
    }
}

/// A session of the model with its tensors allocated and bound, checked: one run with
/// the bound tensors answers each output's dtype and shape; with `gathered`, the bindings
/// of each size 1..B too, each run once (a graph that fixes its batch fails here).
fn bound(shared: OrtShared, batch: usize, gathered: bool) -> Result<OrtBoundModel> {
    let mut session = shared.session()?;
    let path = shared.path.clone();
    let signature = ort_support::signature(&session, &path)?;
    let at_batch = Bound::new(&session, &signature, batch, &path)?;
    let results = session.run_binding(&at_batch.binding).data_err(&path)?;
    ort_support::check_outputs(&path, &results, &signature, batch)?;
    drop(results);
    let mut sized = Vec::new();
    for samples in (1..=batch).filter(|_| gathered) {
        let one = Bound::new(&session, &signature, samples, &path)?;
        let results = session.run_binding(&one.binding).data_err_while(&path, "a gathered call")?;
        ort_support::check_outputs(&path, &results, &signature, samples)?;
        drop(results);
        sized.push(one);
    }
    Ok(OrtBoundModel { shared, session, at_batch, sized, signature, batch })
}

fn load(options: &Options) -> Result<OrtBoundModel> {
    bound(OrtShared::open(options)?, options.batch as usize, options.gathered)
}

fn main() -> ExitCode {
    callbench_kit::driver_main_callers(env!("CARGO_BIN_NAME"), load)
}
