//! tract (pure Rust) on mlp.onnx: the model typed for the run's batch and
//! optimised into a plan once.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use callbench_kit::inputs::require_file;
use callbench_kit::{Error, Options, Result, ResultExt};
use tract_onnx::prelude::*;

/// The `tract-onnx` crate's version: tract is the runtime.
pub const VERSION: &str = env!("CALLBENCH_VERSION_TRACT_ONNX");

/// What the tract drivers' notes say about threads.
pub const THREADS_NOTE: &str = "tract runs every call on the calling thread (its default \
                                single-thread executor); --threads is not used";

pub fn model_path(options: &Options) -> PathBuf {
    options.models.join("mlp.onnx")
}

/// mlp.onnx with its input fixed to `[batch, 2]` f32, optimised and made runnable.
pub fn load_plan(path: &Path, batch: usize) -> Result<Arc<TypedSimplePlan>> {
    require_file(path)?;
    // The file annotates the output and intermediate values with its symbol
    // `batch`; tract infers them from the fixed input instead.
    tract_onnx::onnx()
        .with_ignore_output_shapes(true)
        .with_ignore_value_info(true)
        .model_for_path(path)
        .data_err_while(path, "does not load as ONNX")?
        .with_input_fact(0, f32::fact([batch, 2]).into())
        .and_then(|model| model.into_optimized())
        .and_then(|model| model.into_runnable())
        .data_err_while(path, "cannot make a plan")
}

/// The input tensor of one call (tract copies the samples into it).
#[inline]
pub fn input_tensor(path: &Path, input: &[f32], batch: usize) -> Result<TValue> {
    Tensor::from_shape(&[batch, 2], input).map(TValue::from).data_err(path)
}

/// Copies a run's single output into `output`; returns its shape.
#[inline]
pub fn store_output(path: &Path, outputs: &TVec<TValue>, output: &mut [f32]) -> Result<Vec<usize>> {
    let Some(y) = outputs.first() else {
        return Err(Error::data(path, "the plan gave no output"));
    };
    let values = y.try_as_plain_ram().and_then(|v| v.as_slice::<f32>()).data_err(path)?;
    if values.len() == output.len() {
        output.copy_from_slice(values);
    }
    Ok(y.shape().to_vec())
}
