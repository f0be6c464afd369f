//! rust-handwritten: the forward pass as plain loops over mlp_weights.f32, no
//! library at all. Rust's floor, beside cpp-handwritten. The hidden width comes
//! from the weights' size; the reference's 8 has a fixed-size path.

use std::process::ExitCode;

use callbench_kit::inputs::{INPUT_WIDTH, REFERENCE_HIDDEN};
use callbench_kit::{FloatModel, MlpWeights, Model, Notes, Options, Result};

const H: usize = REFERENCE_HIDDEN;

/// The reference model's weights as fixed-size arrays: every loop has a
/// trip count the compiler knows, and unrolls.
struct Reference {
    a_weight: [f32; 2 * H],
    a_bias: [f32; H],
    b_weight: [f32; H * H],
    b_bias: [f32; H],
    c_weight: [f32; H],
    c_bias: f32,
}

/// Any other width: b.weight transposed, so the second layer adds column k,
/// scaled by h1[k], to every hidden unit (a contiguous loop that vectorises
/// without reordering a unit's sum: bias first, then k = 0, 1, ...).
struct AnyWidth {
    w: MlpWeights,
    b_transposed: Vec<f32>,
    h1: Vec<f32>,
    h2: Vec<f32>,
}

enum Handwritten {
    Reference(Reference),
    AnyWidth(AnyWidth),
}

/// max(v, 0), branch-free: `f32::max` is LLVM's `maxnum` (maxss plus a NaN
/// mask). A compare-and-select (`if v > 0.0`) was turned into per-lane
/// branches, which mispredict about half the time on random inputs.
#[inline(always)]
fn relu(v: f32) -> f32 {
    v.max(0.0)
}

/// A weight vector of the reference's width as a fixed-size array.
fn array<const N: usize>(values: &[f32]) -> [f32; N] {
    values.try_into().expect("the weights' width is the reference's")
}

impl Reference {
    fn of(w: &MlpWeights) -> Self {
        Self {
            a_weight: array(&w.a_weight),
            a_bias: array(&w.a_bias),
            b_weight: array(&w.b_weight),
            b_bias: array(&w.b_bias),
            c_weight: array(&w.c_weight),
            c_bias: w.c_bias[0],
        }
    }

    #[inline(always)]
    fn call(&self, input: &[f32], output: &mut [f32]) {
        let w = self;
        for (x, y) in input.chunks_exact(INPUT_WIDTH).zip(output.iter_mut()) {
            let h1: [f32; H] = std::array::from_fn(|j| {
                relu(w.a_weight[2 * j] * x[0] + w.a_weight[2 * j + 1] * x[1] + w.a_bias[j])
            });
            let rows = w.b_weight.chunks_exact(H).zip(&w.b_bias).zip(&w.c_weight);
            *y = rows.fold(w.c_bias, |out, ((row, &bias), &c)| {
                let v = row.iter().zip(&h1).fold(bias, |v, (&b, &h)| v + b * h);
                out + c * relu(v)
            });
        }
    }
}

impl AnyWidth {
    fn of(w: MlpWeights) -> Self {
        let h = w.hidden;
        let mut b_transposed = vec![0.0; h * h];
        for j in 0..h {
            for k in 0..h {
                b_transposed[k * h + j] = w.b_weight[j * h + k];
            }
        }
        Self { w, b_transposed, h1: vec![0.0; h], h2: vec![0.0; h] }
    }

    fn call(&mut self, input: &[f32], output: &mut [f32]) {
        let h = self.w.hidden;
        let w = &self.w;
        for (x, y) in input.chunks_exact(INPUT_WIDTH).zip(output.iter_mut()) {
            for (j, h1) in self.h1.iter_mut().enumerate() {
                *h1 = relu(w.a_weight[2 * j] * x[0] + w.a_weight[2 * j + 1] * x[1] + w.a_bias[j]);
            }
            self.h2.copy_from_slice(&w.b_bias);
            for (column, &hk) in self.b_transposed.chunks_exact(h).zip(&self.h1) {
                for (v, &b) in self.h2.iter_mut().zip(column) {
                    *v += b * hk;
                }
            }
            *y = self
                .h2
                .iter()
                .zip(&w.c_weight)
                .fold(w.c_bias[0], |out, (&v, &c)| out + c * relu(v));
        }
    }
}

impl Model for Handwritten {
    #[inline(always)]
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        match self {
            Handwritten::Reference(reference) => reference.call(input, output),
            Handwritten::AnyWidth(any) => any.call(input, output),
        }
        Ok(())
    }

    fn runtime_version(&self) -> String {
        env!("CALLBENCH_RUSTC_VERSION").to_string()
    }

    fn notes(&self) -> Notes {
        let hidden = match self {
            Handwritten::Reference(_) => H,
            Handwritten::AnyWidth(any) => any.w.hidden,
        };
        Notes::new()
            .with("call", "plain loops, release profile (opt-level 3), black_box after each call")
            .with("threads", "always the calling thread; --threads is not used")
            .with("hidden", hidden as i64)
    }
}

fn load(options: &Options) -> Result<Handwritten> {
    let w = MlpWeights::read(&MlpWeights::path(options))?;
    Ok(if w.hidden == H {
        Handwritten::Reference(Reference::of(&w))
    } else {
        Handwritten::AnyWidth(AnyWidth::of(w))
    })
}

fn main() -> ExitCode {
    callbench_kit::driver_main(env!("CARGO_BIN_NAME"), |options| load(options).map(FloatModel))
}
