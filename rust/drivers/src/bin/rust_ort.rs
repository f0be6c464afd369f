//! rust-ort: ONNX Runtime through the `ort` crate, called the plain way. The
//! session is made once; each call wraps its samples in a `TensorRef` (no
//! copy), `Session::run` returns a fresh output, which is copied out.

use std::path::PathBuf;
use std::process::ExitCode;

use callbench_drivers::ort_support;
use callbench_kit::{Model, Notes, Options, Result, ResultExt, SampleWidths, check_output_size};
use ort::session::Session;
use ort::value::TensorRef;

struct OrtModel {
    session: Session,
    path: PathBuf,
    batch: usize,
    widths: SampleWidths,
    threads: u64,
    version: String,
}

impl OrtModel {
    /// One run; returns the output's shape after copying it into `output`.
    fn run(&mut self, input: &[f32], output: &mut [f32]) -> Result<Vec<usize>> {
        let x = TensorRef::from_array_view(([self.batch, self.widths.input], input))
            .data_err(&self.path)?;
        let outputs = self.session.run(ort::inputs![x]).data_err_while(&self.path, "run")?;
        let (shape, y) = outputs[0].try_extract_tensor::<f32>().data_err(&self.path)?;
        if y.len() == output.len() {
            output.copy_from_slice(y);
        }
        Ok(shape.iter().map(|&d| d as usize).collect())
    }
}

impl Model for OrtModel {
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        self.run(input, output).map(drop)
    }

    fn sample_widths(&self) -> SampleWidths {
        self.widths
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
    let widths = ort_support::signature(&session, &path)?.widths;
    let batch = options.batch as usize;
    let (threads, version) = (options.threads, runtime.version);
    let mut model = OrtModel { session, path, batch, widths, threads, version };
    let shape =
        model.run(&vec![0.0; widths.input * batch], &mut vec![0.0; widths.output * batch])?;
    check_output_size(&model.path, &shape, options.batch, widths.output)?;
    Ok(model)
}

fn main() -> ExitCode {
    callbench_kit::run(env!("CARGO_BIN_NAME"), load)
}
