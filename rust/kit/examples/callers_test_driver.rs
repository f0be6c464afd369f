//! callbench-callers-test: a driver of the Rust kit that takes callers
//! (contract 4) and misbehaves in one chosen caller on request, for the
//! conformance test:
//!
//!   callbench-callers-test MODE DRIVER_ID <contract options>
//!
//! Each caller reads its own copy of mlp_weights.f32 and runs the MLP's forward
//! pass as plain loops, so its outputs are the model's and only MODE can fail it:
//! "ok"; "fail-in-caller-C" (caller C fails in its first round); "hang-in-caller-C"
//! (caller C sleeps ten minutes in its first round); "stall-at-call-J" (after its
//! warm-up, the first call over the samples of call J, whichever caller makes it,
//! sleeps 50 ms first: contract 6's paced test, the calls queued behind it carry
//! the wait).

use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use callbench_kit::inputs::{INPUT_WIDTH, read_finite_floats};
use callbench_kit::{
    Error, FloatCallers, FloatModel, Holding, Holds, MlpWeights, Model, Options, Result,
};

/// What MODE asks: how the chosen caller misbehaves, and which one it is; or the call
/// whose samples stall.
#[derive(Clone, Default)]
struct Mode {
    how: String,
    caller: Option<usize>,
    stall_at: Option<usize>,
}

impl Mode {
    fn parse(text: &str) -> Mode {
        match text.rsplit_once('-') {
            Some((how, c)) if how.ends_with("-in-caller") => {
                Mode { how: how.to_string(), caller: c.parse().ok(), stall_at: None }
            }
            Some(("stall-at-call", j)) => Mode { stall_at: j.parse().ok(), ..Mode::default() },
            _ => Mode::default(),
        }
    }
}

/// The one stall of stall-at-call-J, in the whole process.
static STALLED: AtomicBool = AtomicBool::new(false);

/// One caller's forward pass over its own weights.
struct Forward {
    w: MlpWeights,
    misbehaves: Option<String>,
    warmup: u64,
    calls: u64,
    /// stall-at-call-J: call J's samples.
    stall_over: Vec<f32>,
}

impl Model for Forward {
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        self.calls += 1;
        if !self.stall_over.is_empty()
            && self.calls > self.warmup
            && input == self.stall_over.as_slice()
            && !STALLED.swap(true, Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(50));
        }
        if let Some(how) = &self.misbehaves
            && self.calls > self.warmup
        {
            // The warm-up goes as it should.
            if how == "fail-in-caller" {
                return Err(Error::failure("failed on purpose"));
            }
            std::thread::sleep(Duration::from_secs(600));
        }
        let (w, h) = (&self.w, self.w.hidden);
        for (x, y) in input.chunks_exact(INPUT_WIDTH).zip(output.iter_mut()) {
            let h1: Vec<f32> = (0..h)
                .map(|j| {
                    (w.a_weight[2 * j] * x[0] + w.a_weight[2 * j + 1] * x[1] + w.a_bias[j]).max(0.0)
                })
                .collect();
            *y = (0..h).fold(w.c_bias[0], |out, j| {
                let row = &w.b_weight[j * h..(j + 1) * h];
                let v = row.iter().zip(&h1).fold(w.b_bias[j], |v, (&b, &hk)| v + b * hk);
                out + w.c_weight[j] * v.max(0.0)
            });
        }
        Ok(())
    }

    fn runtime_version(&self) -> String {
        "0".into()
    }
}

/// The loaded model: what each caller reads its weights from, and the mode.
struct CallersTest {
    one: Forward,
    options: Options,
    mode: Mode,
    made: AtomicUsize,
}

impl Model for CallersTest {
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
        self.one.call(input, output)
    }

    fn runtime_version(&self) -> String {
        self.one.runtime_version()
    }
}

impl FloatCallers for CallersTest {
    type Caller<'a> = Forward;

    fn caller(&self) -> Result<Forward> {
        let c = self.made.fetch_add(1, Ordering::Relaxed);
        let misbehaves = (self.mode.caller == Some(c)).then(|| self.mode.how.clone());
        Ok(Forward { misbehaves, ..forward(&self.options, &self.mode)? })
    }

    fn holding(&self) -> Holding {
        Holding { holds: Holds::PerCaller, how: "its own weights read by each caller".into() }
    }
}

fn forward(options: &Options, mode: &Mode) -> Result<Forward> {
    let w = MlpWeights::read(&MlpWeights::path(options))?;
    let stall_over = match mode.stall_at {
        Some(j) => {
            let all =
                read_finite_floats(&options.models.join("inputs.f32"), INPUT_WIDTH, "sample")?;
            let step = INPUT_WIDTH * options.batch as usize;
            all[j * step..(j + 1) * step].to_vec()
        }
        None => Vec::new(),
    };
    Ok(Forward { w, misbehaves: None, warmup: options.warmup, calls: 0, stall_over })
}

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let mode = Mode::parse(&args.next().unwrap_or_default().to_string_lossy());
    let id = args.next().map(|a| a.to_string_lossy().into_owned()).unwrap_or_default();
    let rest: Vec<OsString> = args.collect();
    callbench_kit::driver_main_callers_over(&id, rest, |options| {
        let one = forward(options, &mode)?;
        let made = AtomicUsize::new(0);
        Ok(FloatModel(CallersTest { one, options: options.clone(), mode, made }))
    })
}
