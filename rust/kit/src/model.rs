//! The model: what a driver writes. One call of B samples, the runtime's
//! version, and notes on how the runtime is called: a [`TensorModel`] of any
//! inputs and outputs (contract 3: a user's ONNX model), or a [`Model`] of one
//! float32 input and output (our MLP), which the kit calls through its
//! `FloatModel` adapter, a `TensorModel` too.

use std::path::Path;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use crate::calls::{Buffers, call_each};
use crate::errors::{Error, Result};
use crate::inputs::OUTPUT_WIDTH;
use crate::tensors::Signature;

/// A loaded model, ready to be called.
pub trait Model {
    /// One call: `input` holds B samples (2 floats each), `output` receives B
    /// values. Store every output value: that is how the result is consumed.
    /// An error here is the runtime failing during a round (exit 1).
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()>;

    /// The runtime's version as the result line reports it.
    fn runtime_version(&self) -> String;

    /// How the runtime is called, thread counts read back, ...
    fn notes(&self) -> Notes {
        Notes::default()
    }
}

/// A loaded model of any inputs and outputs (contract 3), ready to be called.
pub trait TensorModel {
    /// The inputs and outputs, as the runtime read them from the model.
    fn signature(&self) -> &Signature;

    /// One call: `inputs[k]` holds input k's B samples, raw little-endian
    /// bytes of its dtype, aligned to it (a bool input holds 0 or 1 only,
    /// checked when read); store every byte of each `outputs[k]`, output k's B
    /// samples.
    fn call(&mut self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<()>;

    /// The runtime's version as the result line reports it.
    fn runtime_version(&self) -> String;

    /// How the runtime is called, thread counts read back, ...
    fn notes(&self) -> Notes {
        Notes::default()
    }

    /// Contract 7's `--gathered`: whether [`TensorModel::call_gathered`] makes a call of
    /// fewer than B samples (the runtime takes a changing batch without reloading).
    const TAKES_GATHERED: bool = false;

    /// One call of the first `samples` samples of each `inputs[k]` (1 <= samples <= B),
    /// storing the first `samples` of each `outputs[k]`: a batcher's call at the size it
    /// gathered. Only a model with [`TensorModel::TAKES_GATHERED`] is asked.
    fn call_gathered(
        &mut self,
        inputs: &[&[u8]],
        outputs: &mut [&mut [u8]],
        samples: usize,
    ) -> Result<()> {
        let _ = (inputs, outputs, samples);
        Err(Error::usage(crate::batcher::FIXED_BATCH))
    }

    /// The timed loop: calls `first .. first + calls` over `buffers`. The
    /// kit's ([`call_each`]) serves any model; `FloatModel` keeps our MLP's
    /// cheaper one. A driver leaves it alone.
    fn run_calls(&mut self, buffers: Buffers<'_>, first: usize, calls: usize) -> Result<()> {
        call_each(buffers, first, calls, |inputs, outputs| self.call(inputs, outputs))
    }
}

/// How a driver's callers hold the model (contract 4), as its runtime documents:
/// the words `registry.callers` and the result's `callers_hold` use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holds {
    /// One handle called from every caller: concurrent calls documented safe.
    Shared,
    /// Each caller its own: the runtime's handle takes `&mut self`, or is not `Sync`.
    PerCaller,
}

impl Holds {
    pub fn word(self) -> &'static str {
        match self {
            Holds::Shared => "shared",
            Holds::PerCaller => "per caller",
        }
    }
}

/// How the callers hold the model and, in a line, what each caller gets (`callers_how`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holding {
    pub holds: Holds,
    pub how: String,
}

/// A loaded model that takes callers (contract 4): loaded once, each caller's
/// call state made from it by [`TakesCallers::caller`] (in the entry's thread,
/// caller after caller) and then called from that caller's thread only (`Send`).
/// A caller of a shared model may borrow it (`Caller<'a>` lives no longer than
/// the load; the model must then be `Sync`); a caller of a model held per caller
/// owns its own. At one caller the loaded model itself is called, as before
/// contract 4.
pub trait TakesCallers: TensorModel {
    type Caller<'a>: TensorModel + Send
    where
        Self: 'a;

    /// One caller's call state: its bound tensors, scratch, own session...
    fn caller(&self) -> Result<Self::Caller<'_>>;

    /// Which way its callers hold the model, and how.
    fn holding(&self) -> Holding;
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
}
