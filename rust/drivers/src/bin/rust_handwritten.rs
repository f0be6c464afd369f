//! rust-handwritten: the forward pass as plain loops over mlp_weights.f32, no
//! library at all. Rust's floor, beside cpp-handwritten.

use std::process::ExitCode;

use callbench_kit::inputs::{HIDDEN, INPUT_WIDTH};
use callbench_kit::{MlpWeights, Model, Notes, Options, Result};

struct Handwritten {
    w: MlpWeights,
}

/// max(v, 0), branch-free: `f32::max` is LLVM's `maxnum` (maxss plus a NaN
/// mask). A compare-and-select (`if v > 0.0`) was turned into per-lane
/// branches, which mispredict about half the time on random inputs.
#[inline(always)]
fn relu(v: f32) -> f32 {
    v.max(0.0)
}

impl Model for Handwritten {
    #[inline(always)]
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        let w = &self.w;
        for (x, y) in input.chunks_exact(INPUT_WIDTH).zip(output.iter_mut()) {
            let h1: [f32; HIDDEN] = std::array::from_fn(|j| {
                relu(w.a_weight[2 * j] * x[0] + w.a_weight[2 * j + 1] * x[1] + w.a_bias[j])
            });
            let rows = w.b_weight.chunks_exact(HIDDEN).zip(&w.b_bias).zip(&w.c_weight);
            *y = rows.fold(w.c_bias[0], |out, ((row, &bias), &c)| {
                let v = row.iter().zip(&h1).fold(bias, |v, (&b, &h)| v + b * h);
                out + c * relu(v)
            });
        }
        Ok(())
    }

    fn runtime_version(&self) -> String {
        env!("CALLBENCH_RUSTC_VERSION").to_string()
    }

    fn notes(&self) -> Notes {
        Notes::new()
            .with("call", "plain loops, release profile (opt-level 3), black_box after each call")
            .with("threads", "always the calling thread; --threads is not used")
    }
}

fn load(options: &Options) -> Result<Handwritten> {
    Ok(Handwritten { w: MlpWeights::read(&MlpWeights::path(options))? })
}

fn main() -> ExitCode {
    callbench_kit::run(env!("CARGO_BIN_NAME"), load)
}
