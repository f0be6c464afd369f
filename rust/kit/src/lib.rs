//! callbench's Rust driver kit: everything the driver contract
//! (docs/contract.md, version 4) asks of every driver, written once. A driver
//! is then its load function and its [`TensorModel::call`] (any model), or
//! for our MLP its [`Model::call`] (one float32 input and output) through the
//! [`FloatModel`] adapter:
//!
//! ```no_run
//! use callbench_kit::{FloatModel, Model, Options, Result};
//! struct Zero;
//! impl Model for Zero {
//!     fn call(&mut self, _input: &[f32], output: &mut [f32]) -> Result<()> {
//!         output.fill(0.0);
//!         Ok(())
//!     }
//!     fn runtime_version(&self) -> String { "none".into() }
//! }
//! fn load(_options: &Options) -> Result<Zero> { Ok(Zero) }
//! fn main() -> std::process::ExitCode {
//!     // In a driver binary: env!("CARGO_BIN_NAME"), the driver id.
//!     callbench_kit::driver_main("rust-zero", |options| load(options).map(FloatModel))
//! }
//! ```
//!
//! A driver whose model takes callers (contract 4) implements
//! [`TakesCallers`] (or [`FloatCallers`]) too and calls [`driver_main_callers`].
//!
//! The parts carry the contract's names: options, inputs, model, calls,
//! rounds, callers, paced, batcher, serve, outputs, result, errors; tensors for contract 3,
//! float_model for our MLP.

pub mod batcher;
pub mod callers;
pub mod calls;
pub mod errors;
pub mod float_model;
pub mod inputs;
pub mod model;
pub mod options;
pub mod outputs;
pub mod paced;
#[cfg(feature = "rayon")]
pub mod rayon_pool;
pub mod result;
pub mod rounds;
pub mod serve;
pub mod tensors;
#[cfg(test)]
mod testing;

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

pub use errors::{Error, Result, ResultExt};
pub use float_model::{FloatCallers, FloatModel};
pub use inputs::MlpWeights;
pub use model::{Holding, Holds, Model, Notes, TakesCallers, TensorModel, check_output_shape};
pub use options::Options;
pub use tensors::{Dtype, Signature, Tensor};

use batcher::Batcher;
use callers::Callers;
use options::Parsed;
use rounds::{Rounds, Runner, Warmup};
use serve::Session;
use tensors::Samples;

/// Says which stage a driver is in, on stderr (the harness shows it while it waits).
pub fn progress(stage: &str) {
    eprintln!("progress: {stage}");
}

/// `main` of every Rust driver: parses the options, loads the model (timed
/// as `load_ns`), reads and checks each input's samples from its file by the
/// naming rule once the model has said its signature, warms up, then serves
/// commands from stdin (`--serve`) or runs the standalone script. Errors and
/// panics end as the contract's one line on stderr and exit status. Our MLP's
/// drivers load a [`FloatModel`]. Such a driver runs one caller: `--callers N`
/// > 1 is refused before anything loads.
pub fn driver_main<M: TensorModel>(id: &str, load: impl FnOnce(&Options) -> Result<M>) -> ExitCode {
    guarded_run(id, std::env::args_os().skip(1).collect(), |options| {
        if options.callers > 1 {
            return Err(Error::usage(options::ONE_CALLER));
        }
        refuse_fixed_batch::<M>(options)?;
        let (mut model, load_ns) = timed_load(options, load)?;
        let samples = checked_inputs(options, model.signature())?;
        progress("warm-up");
        measure_one_caller(id, options, &mut model, &samples, load_ns)
    })
}

/// `main` of a driver whose model takes callers (contract 4): as [`driver_main`] at
/// one caller (the loaded model called from the entry's thread); at N > 1 callers,
/// N threads of one `std::thread::scope`, each calling its own
/// [`TakesCallers::caller`] of the one loaded model ([`callers`]).
pub fn driver_main_callers<M: TakesCallers>(
    id: &str,
    load: impl FnOnce(&Options) -> Result<M>,
) -> ExitCode {
    driver_main_callers_over(id, std::env::args_os().skip(1).collect(), load)
}

/// [`driver_main_callers`] over `args` (the contract's options) rather than the
/// process's own: for a test driver that takes words of its own before them.
pub fn driver_main_callers_over<M: TakesCallers>(
    id: &str,
    args: Vec<std::ffi::OsString>,
    load: impl FnOnce(&Options) -> Result<M>,
) -> ExitCode {
    guarded_run(id, args, |options| {
        refuse_fixed_batch::<M>(options)?;
        let (mut model, load_ns) = timed_load(options, load)?;
        let samples = checked_inputs(options, model.signature())?;
        progress("warm-up");
        if options.callers == 1 {
            return measure_one_caller(id, options, &mut model, &samples, load_ns);
        }
        std::thread::scope(|scope| {
            let (callers, warmup) = Callers::start(scope, id, &model, &samples, options)?;
            measure(id, options, callers, load_ns, warmup)
        })
    })
}

/// One caller's rounds, warmed up, then measured; with `--max-delay` (contract 7) its
/// paced rounds served by the batcher.
fn measure_one_caller<M: TensorModel>(
    id: &str,
    options: &Options,
    model: &mut M,
    samples: &[Samples],
    load_ns: u64,
) -> Result<()> {
    let mut rounds = Rounds::new(model, samples, options.calls, options.batch);
    let warmup = rounds.warm_up(options.warmup, options.warmup_time)?;
    match options.max_delay {
        Some(max_delay_us) => {
            let batcher = Batcher::new(
                rounds,
                samples,
                options.calls,
                options.batch,
                max_delay_us,
                options.gathered,
            );
            measure(id, options, batcher, load_ns, warmup)
        }
        None => measure(id, options, rounds, load_ns, warmup),
    }
}

/// `--gathered` for a model whose call takes a fixed batch: refused before it loads.
fn refuse_fixed_batch<M: TensorModel>(options: &Options) -> Result<()> {
    if options.gathered && !M::TAKES_GATHERED {
        return Err(Error::usage(batcher::FIXED_BATCH));
    }
    Ok(())
}

/// Each input's samples, read by the naming rule and checked to hold a round's.
fn checked_inputs(options: &Options, signature: &Signature) -> Result<Vec<Samples>> {
    let samples = tensors::read_inputs(&options.models, signature)?;
    let first = options.models.join(tensors::tensor_file(
        tensors::INPUTS_STEM,
        0,
        signature.inputs[0].dtype,
    ));
    inputs::require_samples(&first, samples[0].count, options.calls, options.batch)?;
    Ok(samples)
}

/// The options parsed (or the help printed), then `body`, under the contract's error handling.
fn guarded_run(
    id: &str,
    args: Vec<std::ffi::OsString>,
    body: impl FnOnce(&Options) -> Result<()>,
) -> ExitCode {
    let debug = Options::debug_requested(&args);
    errors::guarded(id, debug, || match Options::parse_args(id, args)? {
        Parsed::Run(options) => body(&options),
        Parsed::Help(text) => {
            print!("{text}");
            std::io::stdout().flush().map_err(|e| Error::failure(format!("stdout: {e}")))
        }
    })
}

fn timed_load<M>(options: &Options, load: impl FnOnce(&Options) -> Result<M>) -> Result<(M, u64)> {
    progress("loading");
    let start = Instant::now();
    let model = load(options)?;
    Ok((model, u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX)))
}

/// The serve dialogue or the standalone script, over the warmed-up rounds.
fn measure(
    id: &str,
    options: &Options,
    rounds: impl Runner,
    load_ns: u64,
    warmup: Warmup,
) -> Result<()> {
    let session = Session::start(id, options, rounds, load_ns, warmup, std::io::stdout().lock())?;
    if options.serve { session.serve(std::io::stdin().lock()) } else { session.run_script() }
}
