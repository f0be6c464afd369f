//! LibTorch through the `tch` crate (torch-sys), built against the LibTorch of
//! a torch wheel (see scripts/build_rust.py and rust/README.md).

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use callbench_kit::inputs::INPUT_WIDTH;
use callbench_kit::tensors::{Dtype, Signature, Tensor};
use callbench_kit::{Error, Notes, Options, Result, check_output_shape};

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
pub fn input_tensor(input: &[f32], batch: i64) -> tch::Tensor {
    tch::Tensor::from_slice(input).view([batch, INPUT_WIDTH as i64])
}

/// Copies `y` into `output` (checked to be `[B, 1]` at load).
#[inline]
pub fn store_output(y: &tch::Tensor, output: &mut [f32]) {
    y.copy_data(output, output.len());
}

/// A data error about `model` unless `y` is a `[batch, 1]` float tensor.
pub fn check_output(model: &Path, y: &tch::Tensor, batch: u64) -> Result<()> {
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

/// The extra file in which callbench's trace of a user's program stores its signature.
pub const SIGNATURE_FILE: &str = "callbench_signature.txt";

/// The signature a TorchScript file carries in its extra file [`SIGNATURE_FILE`]
/// (`callbench.input.0 board float32 8 8 8`, one line per tensor); our MLP's file
/// carries none and is the contract's `x float32 [2] -> y float32 [1]`.
/// The TorchScript file a row loads at its `--batch`: `artifact` (`mlp_torchscript.pt`,
/// a trace of every batch), else `mlp_torchscript_batch<B>.pt`, the trace made at this
/// batch alone (the contract's "A trace per batch"). Where the folder holds another
/// batch's trace only, the usage line naming the file looked for.
pub fn trace_for(options: &Options, artifact: &str) -> Result<PathBuf> {
    let every = options.models.join(artifact);
    let (stem, suffix) = artifact.rsplit_once('.').unwrap_or((artifact, ""));
    let prefix = format!("{stem}_batch");
    let own = options.models.join(format!("{prefix}{}.{suffix}", options.batch));
    if every.is_file() {
        return Ok(every);
    }
    if own.is_file() {
        return Ok(own);
    }
    let per_batch = std::fs::read_dir(&options.models).into_iter().flatten().flatten().any(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        name.starts_with(&prefix) && name.ends_with(&format!(".{suffix}"))
    });
    if per_batch {
        return Err(Error::usage(format!(
            "--batch {}: no trace at this batch ({} missing; the program's trace bakes its batch in)",
            options.batch,
            own.display()
        )));
    }
    Ok(every) // missing: the loader's missing-file line names it
}

pub fn torchscript_signature(path: &Path) -> Result<Signature> {
    let Some(text) = extra_file(path, SIGNATURE_FILE)? else {
        let tensor = |name: &str, width| Tensor {
            name: name.into(),
            dtype: Dtype::Float32,
            shape: vec![width],
        };
        return Ok(Signature {
            inputs: vec![tensor("x", INPUT_WIDTH)],
            outputs: vec![tensor("y", 1)],
        });
    };
    let entries: HashMap<&str, &str> =
        text.lines().filter_map(|line| line.split_once(' ')).collect();
    let signature = Signature {
        inputs: tensors_of(path, &entries, "input")?,
        outputs: tensors_of(path, &entries, "output")?,
    };
    if signature.inputs.is_empty() || signature.outputs.is_empty() {
        return Err(Error::data(path, format!("{SIGNATURE_FILE} names no input or no output")));
    }
    Ok(signature)
}

/// The text of extra file `name` of a TorchScript archive (`<archive>/extra/<name>`), if any.
fn extra_file(path: &Path, name: &str) -> Result<Option<String>> {
    let not_an_archive = |e: &dyn std::fmt::Display| {
        Error::data(path, format!("is not a TorchScript archive ({e})"))
    };
    let file = std::fs::File::open(path).map_err(|e| not_an_archive(&e))?;
    let mut archive = zip::ZipArchive::new(file).map_err(|e| not_an_archive(&e))?;
    let suffix = format!("/extra/{name}");
    let Some(entry) = archive.file_names().find(|n| n.ends_with(&suffix)).map(str::to_string)
    else {
        return Ok(None);
    };
    let mut text = String::new();
    archive
        .by_name(&entry)
        .map_err(|e| not_an_archive(&e))?
        .read_to_string(&mut text)
        .map_err(|e| not_an_archive(&e))?;
    Ok(Some(text))
}

fn tensors_of(path: &Path, entries: &HashMap<&str, &str>, role: &str) -> Result<Vec<Tensor>> {
    let mut found = Vec::new();
    for k in 0.. {
        let key = format!("callbench.{role}.{k}");
        let Some(entry) = entries.get(key.as_str()) else { break };
        let mut words = entry.split_whitespace();
        let (Some(name), Some(dtype)) = (words.next(), words.next().and_then(Dtype::named)) else {
            return Err(Error::data(
                path,
                format!("{key} is '{entry}', not '<name> <dtype> <size>...'"),
            ));
        };
        let shape = words
            .map(|size| {
                size.parse::<usize>()
                    .map_err(|_| Error::data(path, format!("{key} has size '{size}'")))
            })
            .collect::<Result<Vec<_>>>()?;
        found.push(Tensor { name: name.to_string(), dtype, shape });
    }
    Ok(found)
}

/// tch's kind for a contract dtype.
pub fn kind_of(dtype: Dtype) -> tch::Kind {
    match dtype {
        Dtype::Float32 => tch::Kind::Float,
        Dtype::Float16 => tch::Kind::Half,
        Dtype::Float64 => tch::Kind::Double,
        Dtype::Int64 => tch::Kind::Int64,
        Dtype::Int32 => tch::Kind::Int,
        Dtype::Int8 => tch::Kind::Int8,
        Dtype::Uint8 => tch::Kind::Uint8,
        Dtype::Bool => tch::Kind::Bool,
    }
}

/// `[batch, *shape]` of one call's tensor.
pub fn batch_shape(tensor: &Tensor, batch: usize) -> Vec<i64> {
    std::iter::once(batch).chain(tensor.shape.iter().copied()).map(|d| d as i64).collect()
}

/// Autograd off on the thread that calls, from its first call on: LibTorch's grad
/// mode is per thread, and a caller's state (contract 4) is made on the entry's
/// thread but called from its own. Dropped with the caller, on that thread.
#[derive(Default)]
pub struct NoGradOnCaller(Option<tch::NoGradGuard>);

impl NoGradOnCaller {
    #[inline(always)]
    pub fn enter(&mut self) {
        if self.0.is_none() {
            self.0 = Some(tch::no_grad_guard());
        }
    }
}
