//! tract (pure Rust) on mlp.onnx: the model typed for the run's batch and
//! optimised into a plan once.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use callbench_kit::inputs::require_file;
use callbench_kit::{Error, Options, Result, ResultExt, SampleWidths, check_sample_widths};
use tract_onnx::prelude::*;
use tract_onnx::tract_hir::infer::Factoid;
use tract_onnx::tract_hir::internal::DimLike;

/// The `tract-onnx` crate's version: tract is the runtime.
pub const VERSION: &str = env!("CALLBENCH_VERSION_TRACT_ONNX");

/// What the tract drivers' notes say about threads.
pub const THREADS_NOTE: &str = "tract runs every call on the calling thread (its default \
                                single-thread executor); --threads is not used";

pub fn model_path(options: &Options) -> PathBuf {
    options.models.join("mlp.onnx")
}

/// mlp.onnx with its input fixed to `[batch, F]` f32 (F as the model declares it),
/// optimised and made runnable; and the floats per sample in and out.
pub fn load_plan(path: &Path, batch: usize) -> Result<(Arc<TypedSimplePlan>, SampleWidths)> {
    require_file(path)?;
    // The file annotates the output and intermediate values with its symbol
    // `batch`; tract infers them from the fixed input instead.
    let model = tract_onnx::onnx()
        .with_ignore_output_shapes(true)
        .with_ignore_value_info(true)
        .model_for_path(path)
        .data_err_while(path, "does not load as ONNX")?;
    // [batch, F]: the batch may be symbolic or left unnamed, F must be a number.
    let features = model.input_fact(0).ok().and_then(|fact| {
        let dims: Vec<_> = fact.shape.dims().collect();
        match (fact.shape.is_open(), dims.as_slice()) {
            (false, [_, features]) => features.concretize().and_then(|d| d.to_usize().ok()),
            _ => None,
        }
    });
    let Some(features) = features else {
        return Err(Error::data(path, "its input is not [batch, F] with a fixed F"));
    };
    let models = path.parent().unwrap_or(Path::new("."));
    let plan = model
        .with_input_fact(0, f32::fact([batch, features]).into())
        .and_then(|model| model.into_optimized())
        .and_then(|model| model.into_runnable())
        .data_err_while(path, "cannot make a plan")?;
    let output = plan.model().output_fact(0).ok().and_then(|fact| fact.shape.as_concrete());
    let Some(output) = output.filter(|shape| !shape.is_empty()) else {
        return Err(Error::data(path, "its output's shape is not fixed once the batch is"));
    };
    let widths = SampleWidths { input: features, output: output[1..].iter().product() };
    check_sample_widths(path, models, widths)?;
    Ok((plan, widths))
}

/// The input tensor of one call (tract copies the samples into it).
#[inline]
pub fn input_tensor(path: &Path, input: &[f32], batch: usize) -> Result<TValue> {
    Tensor::from_shape(&[batch, input.len() / batch], input).map(TValue::from).data_err(path)
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
