//! Contract version 3: a model's named inputs and outputs (dtype, shape per
//! sample), the raw file that holds each one's samples by the naming rule
//! (`inputs.f32`, `inputs1.i64`, `reference.f32`, `reference1.i64`, ...), and
//! reading those files. The same words as Python's kit: a [`Tensor`], a
//! [`Signature`] of inputs and outputs, a sample shape, a [`Dtype`].

use std::ops::{Deref, DerefMut};
use std::path::Path;

use crate::errors::{Error, Result};
use crate::inputs::require_file;

/// The element types the contract has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dtype {
    Float32,
    Float16,
    Float64,
    Int64,
    Int32,
    Int8,
    Uint8,
    Bool,
}

impl Dtype {
    /// Every dtype of the contract.
    pub const ALL: [Dtype; 8] = [
        Dtype::Float32,
        Dtype::Float16,
        Dtype::Float64,
        Dtype::Int64,
        Dtype::Int32,
        Dtype::Int8,
        Dtype::Uint8,
        Dtype::Bool,
    ];

    /// The dtype whose contract name is `name` (`float32`, ..., `bool`).
    pub fn named(name: &str) -> Option<Dtype> {
        Self::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Bytes per value.
    pub fn bytes(self) -> usize {
        match self {
            Dtype::Float64 | Dtype::Int64 => 8,
            Dtype::Float32 | Dtype::Int32 => 4,
            Dtype::Float16 => 2,
            Dtype::Int8 | Dtype::Uint8 | Dtype::Bool => 1,
        }
    }

    /// The contract's name: `float32`, ..., `bool`.
    pub fn name(self) -> &'static str {
        match self {
            Dtype::Float32 => "float32",
            Dtype::Float16 => "float16",
            Dtype::Float64 => "float64",
            Dtype::Int64 => "int64",
            Dtype::Int32 => "int32",
            Dtype::Int8 => "int8",
            Dtype::Uint8 => "uint8",
            Dtype::Bool => "bool",
        }
    }

    /// The file extension: `f32`, ..., `bool`.
    pub fn extension(self) -> &'static str {
        match self {
            Dtype::Float32 => "f32",
            Dtype::Float16 => "f16",
            Dtype::Float64 => "f64",
            Dtype::Int64 => "i64",
            Dtype::Int32 => "i32",
            Dtype::Int8 => "i8",
            Dtype::Uint8 => "u8",
            Dtype::Bool => "bool",
        }
    }

    /// Fills `bytes` with what no call gives: NaN for floats, an integer's
    /// smallest value; bool has no such value and is left as it is.
    pub fn poison(self, bytes: &mut [u8]) {
        let fill = |bytes: &mut [u8], value: &[u8]| {
            bytes.chunks_exact_mut(value.len()).for_each(|c| c.copy_from_slice(value))
        };
        match self {
            Dtype::Float32 => fill(bytes, &f32::NAN.to_le_bytes()),
            Dtype::Float64 => fill(bytes, &f64::NAN.to_le_bytes()),
            Dtype::Float16 => fill(bytes, &0x7E00_u16.to_le_bytes()),
            Dtype::Int64 => fill(bytes, &i64::MIN.to_le_bytes()),
            Dtype::Int32 => fill(bytes, &i32::MIN.to_le_bytes()),
            Dtype::Int8 => fill(bytes, &i8::MIN.to_le_bytes()),
            Dtype::Uint8 => bytes.fill(0),
            Dtype::Bool => {}
        }
    }

    /// Whether one value (`bytes()` long) is a value a sample may hold: a
    /// finite float, a bool of 0 or 1 (Rust's `bool` has no other), any integer.
    fn allows(self, value: &[u8]) -> bool {
        match self {
            Dtype::Float32 => f32::from_le_bytes(value.try_into().unwrap()).is_finite(),
            Dtype::Float64 => f64::from_le_bytes(value.try_into().unwrap()).is_finite(),
            Dtype::Float16 => u16::from_le_bytes(value.try_into().unwrap()) & 0x7C00 != 0x7C00,
            Dtype::Bool => value[0] <= 1,
            _ => true,
        }
    }
}

/// One named input or output of a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tensor {
    pub name: String,
    pub dtype: Dtype,
    /// Per sample, without the batch dimension.
    pub shape: Vec<usize>,
}

impl Tensor {
    /// Values per sample.
    pub fn sample_size(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn sample_bytes(&self) -> usize {
        self.sample_size() * self.dtype.bytes()
    }

    /// `'x' float32 [3, 32, 32]`
    pub fn describe(&self) -> String {
        format!("'{}' {} {:?}", self.name, self.dtype.name(), self.shape)
    }
}

/// Every input and output, in the model's order (as its runtime reads them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Signature {
    pub inputs: Vec<Tensor>,
    pub outputs: Vec<Tensor>,
}

pub const INPUTS_STEM: &str = "inputs";
pub const REFERENCE_STEM: &str = "reference";

/// The file of tensor `index` of a stem by the naming rule: (`inputs`, 0,
/// float32) -> `inputs.f32`, (`reference`, 1, int64) -> `reference1.i64`.
pub fn tensor_file(stem: &str, index: usize, dtype: Dtype) -> String {
    let place = if index == 0 { String::new() } else { index.to_string() };
    format!("{stem}{place}.{}", dtype.extension())
}

/// A cache line: [`Bytes`] is made of them so that it starts on one.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u8; 64]);

/// Bytes starting on a 64-byte boundary: a runtime may take a buffer without
/// copying only when it is aligned, and a typed view of any dtype needs it
/// aligned to its element.
#[derive(Clone)]
pub struct Bytes {
    lines: Vec<Line>,
    len: usize,
}

impl Bytes {
    pub fn zeroed(len: usize) -> Self {
        Self { lines: vec![Line([0; 64]); len.div_ceil(64)], len }
    }
}

impl Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: `lines` holds at least `len` initialised bytes, contiguously.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr().cast::<u8>(), self.len) }
    }
}

impl DerefMut for Bytes {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as for deref, and we hold the only borrow of `lines`.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr().cast::<u8>(), self.len) }
    }
}

/// Bytes as the float32s they hold (the kit's buffers start on 64-byte boundaries).
pub fn f32s(bytes: &[u8]) -> &[f32] {
    // SAFETY: any 4 bytes are an f32; align_to puts only whole, aligned f32s in the middle.
    let (head, values, _) = unsafe { bytes.align_to::<f32>() };
    assert!(head.is_empty(), "float32 samples start on a float's boundary");
    values
}

pub fn f32s_mut(bytes: &mut [u8]) -> &mut [f32] {
    // SAFETY: as for f32s.
    let (head, values, _) = unsafe { bytes.align_to_mut::<f32>() };
    assert!(head.is_empty(), "float32 outputs start on a float's boundary");
    values
}

/// One input's samples, as raw little-endian bytes.
pub struct Samples {
    pub bytes: Bytes,
    pub count: usize,
}

/// `tensor`'s file, checked: a whole, non-zero number of samples, every value allowed.
fn read_samples(path: &Path, tensor: &Tensor) -> Result<Samples> {
    require_file(path)?;
    let read = std::fs::read(path).map_err(|e| Error::data(path, format!("cannot read: {e}")))?;
    let sample = tensor.sample_bytes();
    if read.is_empty() || read.len() % sample != 0 {
        return Err(Error::data(
            path,
            format!(
                "size {} bytes is not a whole number of samples of '{}' ({sample} bytes each)",
                read.len(),
                tensor.name
            ),
        ));
    }
    let width = tensor.dtype.bytes();
    if let Some(bad) = read.chunks_exact(width).position(|v| !tensor.dtype.allows(v)) {
        let what = if tensor.dtype == Dtype::Bool { "neither 0 nor 1" } else { "NaN or Inf" };
        let sample = bad / tensor.sample_size().max(1);
        return Err(Error::data(path, format!("sample {sample} of '{}' is {what}", tensor.name)));
    }
    let mut bytes = Bytes::zeroed(read.len());
    bytes.copy_from_slice(&read);
    Ok(Samples { bytes, count: read.len() / sample })
}

/// Each input's file in `models` by the naming rule, checked: a whole,
/// non-zero number of samples, every float finite, the same sample count in
/// every file. Data errors name the file.
pub fn read_inputs(models: &Path, signature: &Signature) -> Result<Vec<Samples>> {
    let mut all: Vec<Samples> = Vec::new();
    for (k, tensor) in signature.inputs.iter().enumerate() {
        let path = models.join(tensor_file(INPUTS_STEM, k, tensor.dtype));
        let samples = read_samples(&path, tensor)?;
        if let Some(first) = all.first()
            && first.count != samples.count
        {
            return Err(Error::data(
                &path,
                format!(
                    "holds {} samples, {} holds {} (every input file holds the same samples)",
                    samples.count,
                    tensor_file(INPUTS_STEM, 0, signature.inputs[0].dtype),
                    first.count
                ),
            ));
        }
        all.push(samples);
    }
    Ok(all)
}

/// A data error about `model` unless every reference file in `models` (by
/// the naming rule) holds one sample of its output for each sample of the
/// first input's file: a model that answers another shape than the one its
/// reference was made with fails at load, naming the model. A missing or
/// partial file is left to the reading that names it.
pub fn check_references(model: &Path, models: &Path, signature: &Signature) -> Result<()> {
    let size = |name: &str| std::fs::metadata(models.join(name)).ok().map(|m| m.len() as usize);
    let Some(first) = signature.inputs.first() else { return Ok(()) };
    let Some(input_bytes) = size(&tensor_file(INPUTS_STEM, 0, first.dtype)) else {
        return Ok(());
    };
    if first.sample_bytes() == 0 || input_bytes % first.sample_bytes() != 0 {
        return Ok(());
    }
    let samples = input_bytes / first.sample_bytes();
    for (k, tensor) in signature.outputs.iter().enumerate() {
        let file = tensor_file(REFERENCE_STEM, k, tensor.dtype);
        match size(&file) {
            Some(bytes) if bytes != samples * tensor.sample_bytes() => {
                return Err(Error::data(
                    model,
                    format!(
                        "answers {} a sample; {} ({bytes} bytes) does not hold one for each of \
                         the {samples} samples of the inputs",
                        tensor.describe(),
                        models.join(&file).display()
                    ),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::scratch_dir;

    #[test]
    fn every_dtype_is_found_by_its_name() {
        for dtype in Dtype::ALL {
            assert_eq!(Dtype::named(dtype.name()), Some(dtype));
        }
        assert_eq!(Dtype::named("complex64"), None);
    }

    fn tokens() -> Signature {
        let tensor = |name: &str, dtype, shape: &[usize]| Tensor {
            name: name.into(),
            dtype,
            shape: shape.to_vec(),
        };
        Signature {
            inputs: vec![tensor("ids", Dtype::Int64, &[4]), tensor("mask", Dtype::Bool, &[4])],
            outputs: vec![
                tensor("logits", Dtype::Float32, &[2]),
                tensor("label", Dtype::Int64, &[]),
            ],
        }
    }

    #[test]
    fn files_are_named_by_place_and_dtype() {
        assert_eq!(tensor_file(INPUTS_STEM, 0, Dtype::Float32), "inputs.f32");
        assert_eq!(tensor_file(INPUTS_STEM, 1, Dtype::Int64), "inputs1.i64");
        assert_eq!(tensor_file(REFERENCE_STEM, 2, Dtype::Bool), "reference2.bool");
        assert_eq!(tensor_file(REFERENCE_STEM, 0, Dtype::Float16), "reference.f16");
    }

    #[test]
    fn bytes_start_on_a_cache_line() {
        let bytes = Bytes::zeroed(100);
        assert_eq!(bytes.len(), 100);
        assert_eq!(bytes.as_ptr() as usize % 64, 0);
    }

    #[test]
    fn inputs_are_read_and_checked_naming_the_file() {
        let dir = scratch_dir().join("tensors-inputs");
        std::fs::create_dir_all(&dir).unwrap();
        let ids: Vec<u8> = (0..8_i64).flat_map(|v| v.to_le_bytes()).collect();
        std::fs::write(dir.join("inputs.i64"), &ids).unwrap();
        std::fs::write(dir.join("inputs1.bool"), [1u8, 0, 1, 0, 0, 0, 0, 1]).unwrap();
        let read = read_inputs(&dir, &tokens()).unwrap();
        assert_eq!((read[0].count, read[1].count), (2, 2));
        assert_eq!(&read[0].bytes[..], &ids[..]);

        std::fs::write(dir.join("inputs1.bool"), [1u8, 0, 1, 0, 0, 0, 2, 1]).unwrap();
        let e = read_inputs(&dir, &tokens()).err().unwrap();
        let path = dir.join("inputs1.bool");
        assert_eq!(e.message, format!("{}: sample 1 of 'mask' is neither 0 nor 1", path.display()));

        std::fs::write(dir.join("inputs1.bool"), [0u8; 12]).unwrap();
        let e = read_inputs(&dir, &tokens()).err().unwrap();
        let want = format!("{}: holds 3 samples, inputs.i64 holds 2", path.display());
        assert!(e.message.starts_with(&want), "{}", e.message);

        std::fs::write(dir.join("inputs.i64"), [0u8; 12]).unwrap();
        let e = read_inputs(&dir, &tokens()).err().unwrap();
        assert!(e.message.contains("not a whole number of samples of 'ids' (32 bytes each)"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn each_reference_holds_one_sample_of_its_output_per_input_sample() {
        let dir = scratch_dir().join("tensors-references");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("inputs.i64"), [0u8; 96]).unwrap(); // 3 samples of 4
        std::fs::write(dir.join("reference.f32"), [0u8; 24]).unwrap(); // 3 x 2
        let model = dir.join("m.onnx");
        check_references(&model, &dir, &tokens()).unwrap(); // no reference1.i64: the harness's
        std::fs::write(dir.join("reference1.i64"), [0u8; 16]).unwrap();
        let e = check_references(&model, &dir, &tokens()).unwrap_err();
        let want = format!(
            "{}: answers 'label' int64 [] a sample; {} (16 bytes) does not hold one for each of \
             the 3 samples of the inputs",
            model.display(),
            dir.join("reference1.i64").display()
        );
        assert_eq!(e.message, want);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn poison_fills_each_dtype_with_what_no_call_gives() {
        let mut bytes = [0u8; 8];
        Dtype::Float16.poison(&mut bytes);
        assert_eq!(u16::from_le_bytes([bytes[6], bytes[7]]), 0x7E00);
        Dtype::Int32.poison(&mut bytes);
        assert_eq!(i32::from_le_bytes(bytes[4..].try_into().unwrap()), i32::MIN);
        Dtype::Bool.poison(&mut bytes); // left as it is
        assert_eq!(i32::from_le_bytes(bytes[4..].try_into().unwrap()), i32::MIN);
    }
}
