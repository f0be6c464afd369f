//! tract (pure Rust) on mlp.onnx: every input typed for the run's batch and
//! the model optimised into a plan once; tensors to and from raw bytes.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use callbench_kit::inputs::require_file;
use callbench_kit::tensors::{Bytes, check_references};
use callbench_kit::{Dtype, Error, Options, Result, ResultExt, Signature, Tensor, TensorModel};
use tract_onnx::prelude::{Tensor as TractTensor, *};
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

fn dtype_of(datum: DatumType) -> Option<Dtype> {
    Some(match datum {
        DatumType::F32 => Dtype::Float32,
        DatumType::F16 => Dtype::Float16,
        DatumType::F64 => Dtype::Float64,
        DatumType::I64 => Dtype::Int64,
        DatumType::I32 => Dtype::Int32,
        DatumType::I8 => Dtype::Int8,
        DatumType::U8 => Dtype::Uint8,
        DatumType::Bool => Dtype::Bool,
        _ => return None,
    })
}

/// tract's name for `dtype`.
pub fn datum_type(dtype: Dtype) -> DatumType {
    match dtype {
        Dtype::Float32 => DatumType::F32,
        Dtype::Float16 => DatumType::F16,
        Dtype::Float64 => DatumType::F64,
        Dtype::Int64 => DatumType::I64,
        Dtype::Int32 => DatumType::I32,
        Dtype::Int8 => DatumType::I8,
        Dtype::Uint8 => DatumType::U8,
        Dtype::Bool => DatumType::Bool,
    }
}

/// Input `k` as the file declares it: a contract dtype, a batch dimension
/// (symbolic or not), every other dimension a number.
fn input_tensor_of(path: &Path, model: &InferenceModel, k: usize) -> Result<Tensor> {
    let outlet = model.input_outlets().data_err(path)?[k];
    let name = model.node(outlet.node).name.clone();
    let fact = model.input_fact(k).data_err(path)?;
    let dtype = fact.datum_type.concretize().and_then(dtype_of);
    let Some(dtype) = dtype else {
        return Err(Error::data(
            path,
            format!("input '{name}' is not of a dtype the contract feeds"),
        ));
    };
    let dims: Vec<_> = fact.shape.dims().collect();
    let fixed: Option<Vec<usize>> =
        dims.iter().skip(1).map(|d| d.concretize().and_then(|d| d.to_usize().ok())).collect();
    match fixed {
        Some(shape) if !fact.shape.is_open() && !dims.is_empty() => {
            Ok(Tensor { name, dtype, shape })
        }
        _ => Err(Error::data(
            path,
            format!("input '{name}' is not [batch, ...] with fixed sizes after the batch"),
        )),
    }
}

/// The file at `path` with every input fixed to `[batch, *shape]`, optimised
/// and made runnable; and its signature (contract 3), the outputs' as the
/// plan types them.
pub fn load_plan(path: &Path, batch: usize) -> Result<(Arc<TypedSimplePlan>, Signature)> {
    require_file(path)?;
    // The file annotates the output and intermediate values with its symbol
    // `batch`; tract infers them from the fixed inputs instead.
    let mut model = tract_onnx::onnx()
        .with_ignore_output_shapes(true)
        .with_ignore_value_info(true)
        .model_for_path(path)
        .data_err_while(path, "does not load as ONNX")?;
    let count = model.input_outlets().data_err(path)?.len();
    let inputs =
        (0..count).map(|k| input_tensor_of(path, &model, k)).collect::<Result<Vec<_>>>()?;
    if inputs.is_empty() {
        return Err(Error::data(path, "has no inputs"));
    }
    for (k, tensor) in inputs.iter().enumerate() {
        let shape: Vec<usize> =
            std::iter::once(batch).chain(tensor.shape.iter().copied()).collect();
        let fact = InferenceFact::dt_shape(datum_type(tensor.dtype), shape);
        model.set_input_fact(k, fact).data_err(path)?;
    }
    let plan = model
        .into_optimized()
        .and_then(|model| model.into_runnable())
        .data_err_while(path, "cannot make a plan")?;
    let typed = plan.model();
    let mut outputs = Vec::new();
    for (k, outlet) in typed.output_outlets().data_err(path)?.iter().enumerate() {
        let name = typed.outlet_label(*outlet).unwrap_or(&typed.node(outlet.node).name).to_string();
        let fact = typed.output_fact(k).data_err(path)?;
        let Some(dtype) = dtype_of(fact.datum_type) else {
            return Err(Error::data(
                path,
                format!("output '{name}' is not of a dtype the contract has"),
            ));
        };
        let Some(shape) = fact.shape.as_concrete().filter(|s| s.first() == Some(&batch)) else {
            return Err(Error::data(
                path,
                format!("output '{name}' is not [batch, ...] once the batch is fixed"),
            ));
        };
        outputs.push(Tensor { name, dtype, shape: shape[1..].to_vec() });
    }
    let signature = Signature { inputs, outputs };
    check_references(path, path.parent().unwrap_or(Path::new(".")), &signature)?;
    Ok((plan, signature))
}

/// Each input tensor of one call, made from its samples' bytes (tract copies them).
#[inline]
pub fn input_tensors(
    path: &Path,
    inputs: &[&[u8]],
    types: &[(DatumType, Vec<usize>)],
) -> Result<TVec<TValue>> {
    inputs
        .iter()
        .zip(types)
        .map(|(bytes, (datum, shape))| {
            // SAFETY: the bytes are `shape` values of `datum` (the kit sized them
            // from the signature; bool inputs hold 0 or 1 only).
            unsafe { TractTensor::from_raw_dt(*datum, shape, bytes) }
                .map(TValue::from)
                .data_err(path)
        })
        .collect()
}

/// Each input's dtype as tract names it and its `[batch, *shape]`.
pub fn input_types(signature: &Signature, batch: usize) -> Vec<(DatumType, Vec<usize>)> {
    signature
        .inputs
        .iter()
        .map(|t| {
            (datum_type(t.dtype), std::iter::once(batch).chain(t.shape.iter().copied()).collect())
        })
        .collect()
}

/// Copies each output of a run into its place; a data error unless each is as many bytes.
#[inline]
pub fn store_outputs(path: &Path, results: &TVec<TValue>, outputs: &mut [&mut [u8]]) -> Result<()> {
    if results.len() != outputs.len() {
        return Err(Error::data(
            path,
            format!("the plan gave {} outputs, expected {}", results.len(), outputs.len()),
        ));
    }
    for (k, (value, out)) in results.iter().zip(outputs.iter_mut()).enumerate() {
        let bytes = value.try_as_plain_ram().data_err(path)?.as_bytes();
        if bytes.len() != out.len() {
            return Err(Error::data(
                path,
                format!("output {k} is {} bytes, expected {}", bytes.len(), out.len()),
            ));
        }
        out.copy_from_slice(bytes);
    }
    Ok(())
}

/// One call on zeros: a data error unless the model answers each output's
/// bytes (its dtype and `[batch, *shape]`, as the plan typed them).
pub fn check_answers(model: &mut impl TensorModel, batch: usize) -> Result<()> {
    let signature = model.signature().clone();
    let zeros: Vec<Bytes> =
        signature.inputs.iter().map(|t| Bytes::zeroed(batch * t.sample_bytes())).collect();
    let mut answers: Vec<Bytes> =
        signature.outputs.iter().map(|t| Bytes::zeroed(batch * t.sample_bytes())).collect();
    let inputs: Vec<&[u8]> = zeros.iter().map(|b| &b[..]).collect();
    let mut outputs: Vec<&mut [u8]> = answers.iter_mut().map(|b| &mut b[..]).collect();
    model.call(&inputs, &mut outputs)
}
