//! rust-ort: ONNX Runtime through the `ort` crate, called the plain way. The
//! session is made once; each call wraps each input's samples in a
//! `TensorRef` (no copy), `Session::run` returns fresh outputs, which are
//! copied out.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use callbench_drivers::ort_support::{self, batch_shape, input_over, output_bytes};
use callbench_kit::tensors::Bytes;
use callbench_kit::{Error, Notes, Options, Result, ResultExt, Signature, TensorModel};
use ort::session::{Session, SessionOutputs};

struct OrtModel {
    session: Session,
    path: PathBuf,
    signature: Signature,
    /// Each input's `[batch, *shape]`.
    input_shapes: Vec<Vec<usize>>,
    threads: u64,
    version: String,
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
        let Self { session, path, signature, input_shapes, .. } = self;
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
        self.version.clone()
    }

    fn notes(&self) -> Notes {
        Notes::new()
            .with("call", "TensorRef over the samples + Session::run each call")
            .with("crate", format!("ort {}", ort_support::CRATE_VERSION))
            .with("intra_op_threads", self.threads)
    }
}

fn load(options: &Options) -> Result<OrtModel> {
    let runtime = ort_support::open()?;
    let path = ort_support::model_path(options);
    let session = ort_support::session(&runtime.env, &path, options.threads)?;
    let signature = ort_support::signature(&session, &path)?;
    let batch = options.batch as usize;
    let input_shapes = signature.inputs.iter().map(|t| batch_shape(t, batch)).collect();
    let (threads, version) = (options.threads, runtime.version);
    let mut model = OrtModel { session, path, signature, input_shapes, threads, version };
    // One run on zeros checks that the model answers each output's dtype and [batch, *shape].
    let OrtModel { session, path, signature, input_shapes, .. } = &mut model;
    let zeros: Vec<_> =
        signature.inputs.iter().map(|t| Bytes::zeroed(batch * t.sample_bytes())).collect();
    let views: Vec<&[u8]> = zeros.iter().map(|b| &b[..]).collect();
    let results = run(session, path, signature, input_shapes, &views)?;
    ort_support::check_outputs(path, &results, signature, batch)?;
    drop(results);
    Ok(model)
}

fn main() -> ExitCode {
    callbench_kit::driver_main(env!("CARGO_BIN_NAME"), load)
}
