//! ONNX Runtime through the `ort` crate, loading the onnxruntime wheel's
//! library at run time (`load-dynamic`; no download feature is enabled).

use std::path::{Path, PathBuf};

use callbench_kit::inputs::require_file;
use callbench_kit::tensors::check_references;
use callbench_kit::{Dtype, Error, Options, Result, ResultExt, Signature, Tensor};
use ort::environment::Environment;
use ort::session::builder::{GraphOptimizationLevel, PrepackedWeights, SessionBuilder};
use ort::session::{Session, SessionInputValue};
use ort::value::{DynValue, TensorElementType, TensorRef};

/// The variable naming the library to load: the wheel's
/// `onnxruntime/capi/libonnxruntime.so.<version>`.
pub const LIBRARY_VAR: &str = "CALLBENCH_ONNXRUNTIME_LIB";

/// The model file every ONNX Runtime driver reads.
pub fn model_path(options: &Options) -> PathBuf {
    options.models.join("mlp.onnx")
}

/// ONNX Runtime loaded from the wheel's library, and that library's version.
pub struct OrtRuntime {
    pub env: Environment,
    pub version: String,
}

/// Loads the library named by [`LIBRARY_VAR`] and creates the environment.
pub fn open() -> Result<OrtRuntime> {
    let Some(library) = std::env::var_os(LIBRARY_VAR).map(PathBuf::from) else {
        return Err(Error::failure(format!(
            "{LIBRARY_VAR} is not set: point it at the onnxruntime wheel's \
             onnxruntime/capi/libonnxruntime.so.<version> (ONNX Runtime >= 1.31)"
        )));
    };
    require_file(&library)
        .map_err(|_| Error::data(&library, format!("missing (from {LIBRARY_VAR})")))?;
    let env = ort::init_from(&library)
        .data_err_while(&library, "cannot load ONNX Runtime")?
        .with_name("callbench")
        .build()
        .data_err_while(&library, "cannot create the ONNX Runtime environment")?;
    let version = library_version(&library)?;
    Ok(OrtRuntime { env, version })
}

/// `OrtGetApiBase()->GetVersionString()` of the library (already loaded by
/// `ort`, so this only takes another reference to it).
fn library_version(library: &Path) -> Result<String> {
    type GetApiBase = unsafe extern "C" fn() -> *const ort::sys::OrtApiBase;
    // SAFETY: the library is ONNX Runtime, which `ort` has just loaded and
    // checked; OrtGetApiBase has this signature and never returns null, and
    // GetVersionString returns a static NUL-terminated string.
    unsafe {
        let lib = libloading::Library::new(library).data_err(library)?;
        let get_api_base: libloading::Symbol<GetApiBase> =
            lib.get(b"OrtGetApiBase\0").data_err(library)?;
        let base = get_api_base();
        let version = std::ffi::CStr::from_ptr(((*base).GetVersionString)());
        Ok(version.to_string_lossy().into_owned())
    }
}

/// What every session of one model shares, so that each caller (contract 4) can
/// make its own: ONNX Runtime's environment, the model file, the options, and one
/// `PrepackedWeights` container (ort's answer for N sessions' memory: the weights
/// each session's kernels prepack are kept once, for all of them).
#[derive(Clone)]
pub struct OrtShared {
    pub env: Environment,
    pub prepacked: PrepackedWeights,
    pub path: PathBuf,
    pub threads: u64,
    pub version: String,
}

/// How the ort drivers' callers hold the model: `Session::run` takes `&mut self`
/// (since ort 2.0's release candidates), so a caller holds a session of its own.
pub const PER_CALLER_HOW: &str =
    "a Session per caller (Session::run takes &mut self), one PrepackedWeights shared by them";

impl OrtShared {
    /// ONNX Runtime opened ([`open`]) for `options`' model.
    pub fn open(options: &Options) -> Result<Self> {
        let runtime = open()?;
        let (env, version) = (runtime.env, runtime.version);
        let (path, threads, prepacked) =
            (model_path(options), options.threads, PrepackedWeights::new());
        Ok(Self { env, prepacked, path, threads, version })
    }

    /// A new session of the model ([`session`]), its prepacked weights in the shared container.
    pub fn session(&self) -> Result<Session> {
        session(&self.env, &self.path, self.threads, &self.prepacked)
    }
}

/// A session set up like the C++ drivers': `threads` intra-op threads, one
/// inter-op thread, sequential execution, all graph optimisations; the weights its
/// kernels prepack go into `prepacked`, shared with the model's other sessions.
pub fn session(
    env: &Environment,
    path: &Path,
    threads: u64,
    prepacked: &PrepackedWeights,
) -> Result<Session> {
    require_file(path)?;
    let threads = usize::try_from(threads).map_err(|_| Error::usage("--threads is too large"))?;
    let configure = || -> ort::Result<SessionBuilder> {
        Ok(Session::builder(env)?
            .with_intra_threads(threads)?
            .with_inter_threads(1)?
            .with_parallel_execution(false)?
            .with_optimization_level(GraphOptimizationLevel::All)?
            .with_prepacked_weights(prepacked)?)
    };
    configure()
        .data_err_while(path, "cannot configure the session")?
        .commit_from_file(path)
        .data_err_while(path, "does not load as ONNX")
}

/// Runs `$body` with `$T` the Rust type of `$dtype`: the one place a dtype
/// becomes a type, so that no driver has a path per dtype.
macro_rules! with_type {
    ($dtype:expr, $T:ident => $body:expr) => {
        match $dtype {
            Dtype::Float32 => {
                type $T = f32;
                $body
            }
            Dtype::Float16 => {
                type $T = half::f16;
                $body
            }
            Dtype::Float64 => {
                type $T = f64;
                $body
            }
            Dtype::Int64 => {
                type $T = i64;
                $body
            }
            Dtype::Int32 => {
                type $T = i32;
                $body
            }
            Dtype::Int8 => {
                type $T = i8;
                $body
            }
            Dtype::Uint8 => {
                type $T = u8;
                $body
            }
            Dtype::Bool => {
                type $T = bool;
                $body
            }
        }
    };
}

fn dtype_of(element: TensorElementType) -> Option<Dtype> {
    Some(match element {
        TensorElementType::Float32 => Dtype::Float32,
        TensorElementType::Float16 => Dtype::Float16,
        TensorElementType::Float64 => Dtype::Float64,
        TensorElementType::Int64 => Dtype::Int64,
        TensorElementType::Int32 => Dtype::Int32,
        TensorElementType::Int8 => Dtype::Int8,
        TensorElementType::Uint8 => Dtype::Uint8,
        TensorElementType::Bool => Dtype::Bool,
        _ => return None,
    })
}

/// The element type ONNX Runtime calls `dtype`.
pub fn element_type(dtype: Dtype) -> TensorElementType {
    with_type!(dtype, T => <T as ort::value::IntoTensorElementType>::into_tensor_element_type())
}

/// One input or output as the session declares it: a tensor of a dtype the
/// contract has, with a batch dimension and every other dimension fixed.
fn tensor_of(path: &Path, outlet: &ort::value::Outlet, role: &str) -> Result<Tensor> {
    let name = outlet.name();
    let dtype = outlet.dtype();
    let (Some(element), Some(shape)) = (dtype.tensor_type(), dtype.tensor_shape()) else {
        return Err(Error::data(path, format!("{role} '{name}' is not a tensor")));
    };
    let Some(dtype) = dtype_of(element) else {
        return Err(Error::data(
            path,
            format!("{role} '{name}' is {element}, which the contract does not feed"),
        ));
    };
    let dims: Vec<i64> = shape.iter().copied().collect();
    if dims.is_empty() {
        return Err(Error::data(path, format!("{role} '{name}' has no batch dimension")));
    }
    if dims[1..].iter().any(|&d| d < 1) {
        return Err(Error::data(
            path,
            format!("{role} '{name}' is {dims:?}: only the batch size may be symbolic"),
        ));
    }
    let shape = dims[1..].iter().map(|&d| d as usize).collect();
    Ok(Tensor { name: name.to_string(), dtype, shape })
}

/// Every input and output of the session (contract 3), in the model's order,
/// checked against the reference files beside the model.
pub fn signature(session: &Session, path: &Path) -> Result<Signature> {
    let read = |outlets: &[ort::value::Outlet], role| {
        outlets.iter().map(|o| tensor_of(path, o, role)).collect::<Result<Vec<_>>>()
    };
    let signature = Signature {
        inputs: read(session.inputs(), "input")?,
        outputs: read(session.outputs(), "output")?,
    };
    if signature.inputs.is_empty() {
        return Err(Error::data(path, "has no inputs"));
    }
    check_references(path, path.parent().unwrap_or(Path::new(".")), &signature)?;
    Ok(signature)
}

/// `[batch, *shape]`
pub fn batch_shape(tensor: &Tensor, batch: usize) -> Vec<usize> {
    std::iter::once(batch).chain(tensor.shape.iter().copied()).collect()
}

/// `bytes` as values of `T` (the kit's buffers are aligned to any dtype).
fn typed<'a, T>(path: &Path, bytes: &'a [u8]) -> Result<&'a [T]> {
    // SAFETY: T is one of the contract's types: every bit pattern is a value
    // of the numeric ones, and the kit gives bool inputs of 0 or 1 only
    // (checked when it reads them; TensorModel::call).
    let (head, values, tail) = unsafe { bytes.align_to::<T>() };
    if !head.is_empty() || !tail.is_empty() {
        return Err(Error::failure(format!(
            "{}: a buffer not aligned to its {}-byte values",
            path.display(),
            size_of::<T>()
        )));
    }
    Ok(values)
}

/// A tensor of `dtype` and `shape` over `bytes` (no copy), as a session input.
#[inline]
pub fn input_over<'a>(
    path: &Path,
    dtype: Dtype,
    shape: &'a [usize],
    bytes: &'a [u8],
) -> Result<SessionInputValue<'a>> {
    with_type!(dtype, T => {
        let values: &'a [T] = typed(path, bytes)?;
        TensorRef::from_array_view((shape, values)).map(SessionInputValue::from).data_err(path)
    })
}

/// An output of a run, of `dtype`: its shape and its values as bytes.
#[inline]
pub fn output_bytes<'v>(
    path: &Path,
    value: &'v DynValue,
    dtype: Dtype,
) -> Result<(&'v ort::value::Shape, &'v [u8])> {
    with_type!(dtype, T => {
        let (shape, values) = value.try_extract_tensor::<T>().data_err(path)?;
        // SAFETY: the values are initialised plain data; viewed as their bytes.
        let bytes = unsafe {
            std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), size_of_val(values))
        };
        Ok((shape, bytes))
    })
}

/// A data error about `path` unless each output of one call is of its dtype and `[batch, *shape]`.
pub fn check_outputs(
    path: &Path,
    outputs: &ort::session::SessionOutputs,
    signature: &Signature,
    batch: usize,
) -> Result<()> {
    for (k, tensor) in signature.outputs.iter().enumerate() {
        let expected = batch_shape(tensor, batch);
        let found = output_bytes(path, &outputs[k], tensor.dtype)
            .map(|(shape, _)| shape.iter().map(|&d| d as usize).collect::<Vec<_>>());
        match found {
            Ok(shape) if shape == expected => {}
            Ok(shape) => {
                return Err(Error::data(
                    path,
                    format!(
                        "model answers '{}' with {shape:?}, expected {expected:?}",
                        tensor.name
                    ),
                ));
            }
            Err(e) => {
                return Err(Error::data(
                    path,
                    format!(
                        "model answers '{}' not as {}: {}",
                        tensor.name,
                        tensor.dtype.name(),
                        e.message
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The `ort` crate's version, for the notes.
pub const CRATE_VERSION: &str = env!("CALLBENCH_VERSION_ORT");
