//! rust-ort: ONNX Runtime through the `ort` crate, called the plain way. The
//! session is made once; each call wraps each input's samples in a
//! `TensorRef` (no copy), `Session::run` returns fresh outputs, which are
//! copied out. Its callers (contract 4) each hold a session of their own
//! (`Session::run` takes `&mut self`), one `PrepackedWeights` shared by them.

use std::path::Path;
use std::process::ExitCode;

use callbench_drivers::ort_support::{self, OrtShared, batch_shape, input_over, output_bytes};
use callbench_kit::tensors::Bytes;
use callbench_kit::{
    Error, Holding, Holds, Notes, Options, Result, ResultExt, Signature, TakesCallers, TensorModel,
};
use ort::session::{Session, SessionOutputs};

struct OrtModel {
    shared: OrtShared,
    session: Session,
    signature: Signature,
    batch: usize,
    /// Each input's `[batch, *shape]`.
    input_shapes: Vec<Vec<usize>>,
}

/// One run of `session` over each input's bytes wrapped as the signature says.
fn run<'s>(
    session: &'s mut Session,
    path: &Path,
    signature: &Signature,
    input_shapes: &[Vec<usize>],
    inputs: &[&[u8]],
) -> Result<SessionOutputs<'s>> {
    let values = inputs
        .iter()
        .zip(&signature.inputs)
        .zip(input_shapes)
        .map(|((bytes, tensor), shape)| input_over(path, tensor.dtype, shape, bytes))
        .collect::<Result<Vec<_>>>()?;
    session.run(&values[..]).data_err_while(path, "run")
}

impl TensorModel for OrtModel {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn call(&mut self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<()> {
        let Self { shared, session, signature, input_shapes, .. } = self;
        let path = &shared.path;
        let results = run(session, path, signature, input_shapes, inputs)?;
        for (k, (out, tensor)) in outputs.iter_mut().zip(&signature.outputs).enumerate() {
            let (_, bytes) = output_bytes(path, &results[k], tensor.dtype)?;
            if bytes.len() != out.len() {
                return Err(Error::data(
                    path,
                    format!("'{}' changed size to {} bytes", tensor.name, bytes.len()),
                ));
            }
            out.copy_from_slice(bytes);
        }
        Ok(())
    }

    fn runtime_version(&self) -> String {
        self.shared.version.clone()
    }

    fn notes(&self) -> Notes {
        Notes::new()
            .with("call", "TensorRef over the samples + Session::run each call")
            .with("crate", format!("ort {}", ort_support::CRATE_VERSION))
            .with("intra_op_threads", self.shared.threads)
    }
}

impl TakesCallers for OrtModel {
    type Caller<'a> = OrtModel;

    fn caller(&self) -> Result<OrtModel> {
        model(self.shared.clone(), self.batch)
    }

    fn holding(&self) -> Holding {
        Holding { holds: Holds::PerCaller, how: ort_support::PER_CALLER_HOW.into() }
    }
}

/// A session of the model, checked: one run on zeros answers each output's dtype and
/// `[batch, *shape]`.
fn model(shared: OrtShared, batch: usize) -> Result<OrtModel> {
    let session = shared.session()?;
    let signature = ort_support::signature(&session, &shared.path)?;
    let input_shapes = signature.inputs.iter().map(|t| batch_shape(t, batch)).collect();
    let mut model = OrtModel { shared, session, signature, batch, input_shapes };
    let OrtModel { shared, session, signature, input_shapes, .. } = &mut model;
    let zeros: Vec<_> =
        signature.inputs.iter().map(|t| Bytes::zeroed(batch * t.sample_bytes())).collect();
    let views: Vec<&[u8]> = zeros.iter().map(|b| &b[..]).collect();
    let results = run(session, &shared.path, signature, input_shapes, &views)?;
    ort_support::check_outputs(&shared.path, &results, signature, batch)?;
    drop(results);
    Ok(model)
}

fn load(options: &Options) -> Result<OrtModel> {
    model(OrtShared::open(options)?, options.batch as usize)
}

fn main() -> ExitCode {
    callbench_kit::driver_main_callers(env!("CARGO_BIN_NAME"), load)
}
