//! ONNX Runtime through the `ort` crate, loading the onnxruntime wheel's
//! library at run time (`load-dynamic`; no download feature is enabled).

use std::path::{Path, PathBuf};

use callbench_kit::inputs::require_file;
use callbench_kit::{Error, Options, Result, ResultExt, SampleWidths, check_sample_widths};
use ort::environment::Environment;
use ort::session::Session;
use ort::session::builder::{GraphOptimizationLevel, SessionBuilder};

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

/// A session set up like the C++ drivers': `threads` intra-op threads, one
/// inter-op thread, sequential execution, all graph optimisations.
pub fn session(env: &Environment, path: &Path, threads: u64) -> Result<Session> {
    require_file(path)?;
    let threads = usize::try_from(threads).map_err(|_| Error::usage("--threads is too large"))?;
    let configure = || -> ort::Result<SessionBuilder> {
        Ok(Session::builder(env)?
            .with_intra_threads(threads)?
            .with_inter_threads(1)?
            .with_parallel_execution(false)?
            .with_optimization_level(GraphOptimizationLevel::All)?)
    };
    configure()
        .data_err_while(path, "cannot configure the session")?
        .commit_from_file(path)
        .data_err_while(path, "does not load as ONNX")
}

/// The model's one float input `[batch, F]` and one float output `[batch, ...]`,
/// as the session reads them (ours: 2 and 1; a user's model, `--onnx`, its own).
pub struct Signature {
    pub widths: SampleWidths,
    /// The output's dimensions after the batch one.
    pub output_shape: Vec<usize>,
}

/// The dimensions after the batch one, each fixed, or a data error naming `what`.
fn per_sample(path: &Path, outlet: &ort::value::Outlet, what: &str) -> Result<Vec<usize>> {
    let dtype = outlet.dtype();
    let (Some(ort::value::TensorElementType::Float32), Some(shape)) =
        (dtype.tensor_type(), dtype.tensor_shape())
    else {
        return Err(Error::data(
            path,
            format!("{what} {:?} is not a float32 tensor", outlet.name()),
        ));
    };
    let dims: Vec<i64> = shape.iter().copied().collect();
    if dims.is_empty() || dims[1..].iter().any(|&d| d < 1) {
        return Err(Error::data(
            path,
            format!("{what} {:?} is {dims:?}: only the batch size may be symbolic", outlet.name()),
        ));
    }
    Ok(dims[1..].iter().map(|&d| d as usize).collect())
}

/// The session's one input and one output, their sizes per sample.
pub fn signature(session: &Session, path: &Path) -> Result<Signature> {
    let (inputs, outputs) = (session.inputs(), session.outputs());
    if inputs.len() != 1 || outputs.len() != 1 {
        return Err(Error::data(
            path,
            format!("has {} inputs and {} outputs, expected 1 and 1", inputs.len(), outputs.len()),
        ));
    }
    let features = per_sample(path, &inputs[0], "input")?;
    if features.len() != 1 {
        return Err(Error::data(path, format!("input is [batch, {features:?}], not [batch, F]")));
    }
    let output_shape = per_sample(path, &outputs[0], "output")?;
    let widths = SampleWidths { input: features[0], output: output_shape.iter().product() };
    check_sample_widths(path, path.parent().unwrap_or(Path::new(".")), widths)?;
    Ok(Signature { widths, output_shape })
}

/// The `ort` crate's version, for the notes.
pub const CRATE_VERSION: &str = env!("CALLBENCH_VERSION_ORT");
