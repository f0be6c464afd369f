//! LibTorch through the `tch` crate (torch-sys), built against the LibTorch of
//! a torch wheel (see scripts/build_rust.py and rust/README.md).

use std::path::Path;

use callbench_kit::inputs::INPUT_WIDTH;
use callbench_kit::{Error, Notes, Options, Result, check_output_shape};
use tch::Tensor;

/// The LibTorch version the build used (CALLBENCH_LIBTORCH_VERSION at build time).
pub const LIBTORCH_VERSION: &str = env!("CALLBENCH_LIBTORCH_VERSION");
/// The `tch` crate's version, for the notes.
pub const CRATE_VERSION: &str = env!("CALLBENCH_VERSION_TCH");

/// Gives LibTorch `--threads` intra-op threads and one inter-op thread.
pub fn set_threads(options: &Options) -> Result<()> {
    let threads =
        i32::try_from(options.threads).map_err(|_| Error::usage("--threads is too large"))?;
    tch::set_num_interop_threads(1);
    tch::set_num_threads(threads);
    Ok(())
}

/// The input tensor of one call: a copy of the samples, shaped `[B, 2]`.
#[inline]
pub fn input_tensor(input: &[f32], batch: i64) -> Tensor {
    Tensor::from_slice(input).view([batch, INPUT_WIDTH as i64])
}

/// Copies `y` into `output` (checked to be `[B, 1]` at load).
#[inline]
pub fn store_output(y: &Tensor, output: &mut [f32]) {
    y.copy_data(output, output.len());
}

/// A data error about `model` unless `y` is a `[batch, 1]` float tensor.
pub fn check_output(model: &Path, y: &Tensor, batch: u64) -> Result<()> {
    if y.kind() != tch::Kind::Float {
        return Err(Error::data(model, format!("gives {:?} outputs, expected float", y.kind())));
    }
    let shape: Vec<usize> = y.size().iter().map(|&d| d as usize).collect();
    check_output_shape(model, &shape, batch)
}

/// The notes every tch driver gives.
pub fn notes(call: &str) -> Notes {
    Notes::new()
        .with("call", call)
        .with("crate", format!("tch {CRATE_VERSION}"))
        .with("intra_op_threads", i64::from(tch::get_num_threads()))
}
