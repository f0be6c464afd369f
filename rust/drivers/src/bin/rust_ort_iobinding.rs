//! rust-ort-iobinding: ONNX Runtime through the `ort` crate with an
//! `IoBinding`: input and output tensors allocated once and bound once; each
//! call copies its samples into the bound input, runs the binding and copies
//! the bound output out.

use std::path::PathBuf;
use std::process::ExitCode;

use callbench_drivers::ort_support;
use callbench_kit::{Model, Notes, Options, Result, ResultExt, SampleWidths, check_output_size};
use ort::session::{IoBinding, Session};
use ort::value::Tensor;

struct OrtBoundModel {
    session: Session,
    binding: IoBinding,
    x: Tensor<f32>,
    y: Tensor<f32>,
    path: PathBuf,
    widths: SampleWidths,
    threads: u64,
    version: String,
}

impl Model for OrtBoundModel {
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        // The binding holds the same OrtValue as `x`: writing its data is
        // binding the new samples (ONNX Runtime does not copy CPU inputs).
        self.x.extract_tensor_mut().1.copy_from_slice(input);
        self.session.run_binding(&self.binding).data_err_while(&self.path, "run_binding")?;
        output.copy_from_slice(self.y.extract_tensor().1);
        Ok(())
    }

    fn sample_widths(&self) -> SampleWidths {
        self.widths
    }

    fn runtime_version(&self) -> String {
        self.version.clone()
    }

    fn notes(&self) -> Notes {
        Notes::new()
            .with("call", "IoBinding to tensors allocated once; copy in, run_binding, copy out")
            .with("crate", format!("ort {}", ort_support::CRATE_VERSION))
            .with("intra_op_threads", self.threads)
    }
}

fn load(options: &Options) -> Result<OrtBoundModel> {
    let runtime = ort_support::open()?;
    let path = ort_support::model_path(options);
    let session = ort_support::session(&runtime.env, &path, options.threads)?;
    let signature = ort_support::signature(&session, &path)?;
    let widths = signature.widths;
    let batch = options.batch as usize;
    let allocator = session.allocator();
    let x = Tensor::<f32>::new(allocator, [batch, widths.input]).data_err(&path)?;
    let y_shape: Vec<usize> = std::iter::once(batch).chain(signature.output_shape).collect();
    let mut y = Tensor::<f32>::new(allocator, y_shape).data_err(&path)?;
    let mut binding = session.create_binding().data_err(&path)?;
    binding.bind_input(session.inputs()[0].name(), &x).data_err_while(&path, "bind_input")?;
    binding
        .bind_output(session.outputs()[0].name(), &mut y)
        .data_err_while(&path, "bind_output")?;
    let mut model = OrtBoundModel {
        session,
        binding,
        x,
        y,
        path,
        widths,
        threads: options.threads,
        version: runtime.version,
    };

    // One run with the bound tensors checks that the model answers [B, ...] of the right size.
    let outputs = model.session.run_binding(&model.binding).data_err(&model.path)?;
    let (shape, _) = outputs[0].try_extract_tensor::<f32>().data_err(&model.path)?;
    let shape: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    drop(outputs);
    check_output_size(&model.path, &shape, options.batch, widths.output)?;
    Ok(model)
}

fn main() -> ExitCode {
    callbench_kit::run(env!("CARGO_BIN_NAME"), load)
}
