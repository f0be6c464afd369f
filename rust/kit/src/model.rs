//! The model: what a driver writes. One call of B samples, the runtime's
//! version, and notes on how the runtime is called.

use std::path::Path;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use crate::errors::{Error, Result};
use crate::inputs::{INPUT_WIDTH, OUTPUT_WIDTH};

/// Floats per sample: in (inputs.f32) and out (the outputs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SampleWidths {
    pub input: usize,
    pub output: usize,
}

impl Default for SampleWidths {
    /// Our MLP's: 2 in, 1 out.
    fn default() -> Self {
        Self { input: INPUT_WIDTH, output: OUTPUT_WIDTH }
    }
}

/// A loaded model, ready to be called.
pub trait Model {
    /// One call: `input` holds B samples (`sample_widths().input` floats each),
    /// `output` receives B times `sample_widths().output` values. Store every
    /// output value: that is how the result is consumed.
    /// An error here is the runtime failing during a round (exit 1).
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()>;

    /// The runtime's version as the result line reports it.
    fn runtime_version(&self) -> String;

    /// How the runtime is called, thread counts read back, ...
    fn notes(&self) -> Notes {
        Notes::default()
    }

    /// Floats per sample in and out, where the model says its own (a user's
    /// ONNX model, `--onnx`); our MLP's 2 and 1 otherwise.
    fn sample_widths(&self) -> SampleWidths {
        SampleWidths::default()
    }
}

/// The result line's `notes`: an object of strings and numbers, in the order given.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Notes(Vec<(String, Value)>);

impl Notes {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one note; `value` is a string or a number.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.0.push((key.to_string(), value.into()));
        self
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Notes {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// A data error about `model` unless the runtime answered one call with
/// `shape` == `[batch, 1]` (checked once, at load).
pub fn check_output_shape(model: &Path, shape: &[usize], batch: u64) -> Result<()> {
    let expected = [batch as usize, OUTPUT_WIDTH];
    if shape == expected {
        return Ok(());
    }
    Err(Error::data(model, format!("gives output shape {shape:?}, expected {expected:?}")))
}

/// A data error about `model` unless the artifact set in `models` fits its
/// sample widths: reference.f32 (when there) `widths.output` floats for each
/// of the samples of `widths.input` floats in inputs.f32. A driver of a model
/// that says its own sizes calls it once loaded.
pub fn check_sample_widths(model: &Path, models: &Path, widths: SampleWidths) -> Result<()> {
    let size = |name: &str| std::fs::metadata(models.join(name)).ok().map(|m| m.len() as usize);
    let Some(inputs) = size("inputs.f32") else { return Ok(()) };
    // Not a whole number of samples: reading inputs.f32 names that file.
    let sample = 4 * widths.input;
    if sample == 0 || inputs % sample != 0 {
        return Ok(());
    }
    let samples = inputs / sample;
    match size("reference.f32") {
        Some(reference) if samples > 0 && reference != samples * 4 * widths.output => {
            Err(Error::data(
                model,
                format!(
                    "takes {} floats a sample and answers {}; {} ({reference} bytes) does not \
                     hold {} for each of the {samples} samples of inputs.f32",
                    widths.input,
                    widths.output,
                    models.join("reference.f32").display(),
                    widths.output
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// A data error about `model` unless the runtime answered one call with
/// `batch` rows of `width` floats (`[batch, ...]`, checked once, at load).
pub fn check_output_size(model: &Path, shape: &[usize], batch: u64, width: usize) -> Result<()> {
    if shape.first() == Some(&(batch as usize)) && shape[1..].iter().product::<usize>() == width {
        return Ok(());
    }
    Err(Error::data(
        model,
        format!("gives output shape {shape:?}, expected {batch} rows of {width} floats"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_keep_their_order() {
        let notes = Notes::new().with("call", "run").with("threads", 1).with("a", 0.5);
        let text = serde_json::to_string(&notes).unwrap();
        assert_eq!(text, r#"{"call":"run","threads":1,"a":0.5}"#);
    }

    #[test]
    fn output_shape() {
        assert!(check_output_shape(Path::new("m"), &[4, 1], 4).is_ok());
        let e = check_output_shape(Path::new("m"), &[1, 4], 4).unwrap_err();
        assert_eq!(e.message, "m: gives output shape [1, 4], expected [4, 1]");
    }

    #[test]
    fn sample_widths_against_the_artifact_set() {
        let dir = std::env::temp_dir().join(format!("callbench-widths-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("inputs.f32"), [0u8; 48]).unwrap(); // 3 samples of 4
        std::fs::write(dir.join("reference.f32"), [0u8; 24]).unwrap(); // 3 of 2
        let model = dir.join("m.onnx");
        assert!(check_sample_widths(&model, &dir, SampleWidths { input: 4, output: 2 }).is_ok());
        let e =
            check_sample_widths(&model, &dir, SampleWidths { input: 4, output: 1 }).unwrap_err();
        let want = format!("{}: takes 4 floats a sample and answers 1", model.display());
        assert!(e.message.starts_with(&want), "{}", e.message);
        let e =
            check_sample_widths(&model, &dir, SampleWidths { input: 2, output: 2 }).unwrap_err();
        assert!(e.message.contains("for each of the 6 samples"), "{}", e.message);
        // Not a whole number of 5-float samples: left to reading inputs.f32, which names it.
        assert!(check_sample_widths(&model, &dir, SampleWidths { input: 5, output: 2 }).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn output_size() {
        assert!(check_output_size(Path::new("m"), &[4, 3], 4, 3).is_ok());
        assert!(check_output_size(Path::new("m"), &[4, 1, 3], 4, 3).is_ok());
        let e = check_output_size(Path::new("m"), &[4, 2], 4, 3).unwrap_err();
        assert_eq!(e.message, "m: gives output shape [4, 2], expected 4 rows of 3 floats");
    }
}
