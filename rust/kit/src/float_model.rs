//! Our MLP's float [`Model`] seen as a [`TensorModel`] of one float32 input
//! `x` [2] and one float32 output `y` [1], so that the kit has one model
//! path: one rounds type, one input reader, one output writer.

use std::hint::black_box;
use std::sync::OnceLock;

use crate::calls::Buffers;
use crate::errors::Result;
use crate::inputs::{INPUT_WIDTH, OUTPUT_WIDTH};
use crate::model::{Holding, Model, Notes, TakesCallers, TensorModel};
use crate::tensors::{Dtype, Signature, Tensor, f32s, f32s_mut};

/// The MLP's signature, as its artifacts name it (inputs.f32 holds x, reference.f32 y).
pub fn mlp_signature() -> &'static Signature {
    static SIGNATURE: OnceLock<Signature> = OnceLock::new();
    SIGNATURE.get_or_init(|| {
        let tensor = |name: &str, width| Tensor {
            name: name.into(),
            dtype: Dtype::Float32,
            shape: vec![width],
        };
        Signature {
            inputs: vec![tensor("x", INPUT_WIDTH)],
            outputs: vec![tensor("y", OUTPUT_WIDTH)],
        }
    })
}

/// A float [`Model`] as a [`TensorModel`]: `driver_main(id, |o| load(o).map(FloatModel))`.
pub struct FloatModel<M: Model>(pub M);

impl<M: Model> TensorModel for FloatModel<M> {
    fn signature(&self) -> &Signature {
        mlp_signature()
    }

    fn call(&mut self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<()> {
        self.0.call(f32s(inputs[0]), f32s_mut(outputs[0]))
    }

    fn runtime_version(&self) -> String {
        self.0.runtime_version()
    }

    fn notes(&self) -> Notes {
        self.0.notes()
    }

    /// Our MLP keeps its cheapest timed loop: one float slice each way, cut
    /// into calls, no views built per call (its rows count as they did on the
    /// float path).
    fn run_calls(&mut self, buffers: Buffers<'_>, first: usize, calls: usize) -> Result<()> {
        let step_in = buffers.input_steps[0] / 4;
        let step_out = buffers.output_steps[0] / 4;
        let inputs = &f32s(&buffers.inputs[0].bytes)[first * step_in..(first + calls) * step_in];
        let outputs =
            &mut f32s_mut(&mut buffers.outputs[0])[first * step_out..(first + calls) * step_out];
        for (input, output) in inputs.chunks_exact(step_in).zip(outputs.chunks_exact_mut(step_out))
        {
            self.0.call(input, output)?;
            // The stores of this call must happen before the next one starts:
            // no merging or vectorising across calls, no dropped work.
            black_box(output);
        }
        Ok(())
    }
}

/// A float [`Model`] that takes callers (contract 4): [`TakesCallers`] in our
/// MLP's terms, each caller a float `Model` of its own; `FloatModel` passes it on.
pub trait FloatCallers: Model {
    type Caller<'a>: Model + Send
    where
        Self: 'a;

    /// One caller's call state (see [`TakesCallers::caller`]).
    fn caller(&self) -> Result<Self::Caller<'_>>;

    /// Which way its callers hold the model, and how.
    fn holding(&self) -> Holding;
}

impl<M: FloatCallers> TakesCallers for FloatModel<M> {
    type Caller<'a>
        = FloatModel<M::Caller<'a>>
    where
        Self: 'a;

    fn caller(&self) -> Result<Self::Caller<'_>> {
        self.0.caller().map(FloatModel)
    }

    fn holding(&self) -> Holding {
        self.0.holding()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::Kind;
    use crate::rounds::{Rounds, Runner};
    use crate::testing::{Sum, float_samples};

    fn floats_of(bytes: &[u8]) -> Vec<f32> {
        bytes.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect()
    }

    #[test]
    fn the_adapter_reads_and_writes_the_mlps_one_tensor_each() {
        let signature = FloatModel(Sum { calls: 0 }).signature().clone();
        assert_eq!(signature.inputs.len(), 1);
        assert_eq!(signature.outputs.len(), 1);
        assert_eq!(signature.inputs[0].describe(), "'x' float32 [2]");
        assert_eq!(signature.outputs[0].describe(), "'y' float32 [1]");
    }

    #[test]
    fn rounds_of_a_float_model_store_every_output() {
        let inputs = float_samples(&(0..12).map(|i| i as f32).collect::<Vec<_>>()); // 6 samples
        let mut model = FloatModel(Sum { calls: 0 });
        let mut rounds = Rounds::new(&mut model, &inputs, 3, 2);
        assert_eq!(rounds.warm_up(5, 0.0).unwrap().calls, 5);
        assert!(rounds.last_outputs().is_empty());
        assert_eq!(rounds.round(2).unwrap().calls, 2);
        assert_eq!(floats_of(rounds.last_outputs()[0]), [1.0, 5.0, 9.0, 13.0]);
        assert_eq!(rounds.latencies(3).unwrap().len(), 3);
        assert_eq!(floats_of(rounds.last_outputs()[0]), [1.0, 5.0, 9.0, 13.0]);
        for k in [0, 4] {
            assert_eq!(rounds.round(k).unwrap_err().kind, Kind::Usage);
        }
        assert_eq!(model.0.calls, 5 + 2 + 3);
    }
}
