//! callbench's Rust driver kit: everything the driver contract
//! (docs/contract.md, version 2) asks of every driver, written once. A driver
//! is then its load function and its [`Model::call`]:
//!
//! ```no_run
//! use callbench_kit::{Model, Options, Result};
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
//!     callbench_kit::run("rust-zero", load)
//! }
//! ```
//!
//! The parts carry the contract's names: options, inputs, model, rounds,
//! serve, outputs, result, errors.

pub mod errors;
pub mod inputs;
pub mod model;
pub mod options;
pub mod outputs;
#[cfg(feature = "rayon")]
pub mod rayon_pool;
pub mod result;
pub mod rounds;
pub mod serve;
#[cfg(test)]
mod testing;

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

pub use errors::{Error, Result, ResultExt};
pub use inputs::{Inputs, MlpWeights};
pub use model::{
    Model, Notes, SampleWidths, check_output_shape, check_output_size, check_sample_widths,
};
pub use options::Options;

use options::Parsed;
use rounds::Rounds;
use serve::Session;

/// Says which stage a driver is in, on stderr (the harness shows it while it waits).
pub fn progress(stage: &str) {
    eprintln!("progress: {stage}");
}

/// `main` of every Rust driver: parses the options, reads and checks the
/// inputs, loads the model (timed as `load_ns`), warms up, then serves
/// commands from stdin (`--serve`) or runs the standalone script. Errors and
/// panics end as the contract's one line on stderr and exit status.
pub fn run<M: Model>(id: &str, load: impl FnOnce(&Options) -> Result<M>) -> ExitCode {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let debug = Options::debug_requested(&args);
    errors::guarded(id, debug, || {
        let options = match Options::parse_args(id, args)? {
            Parsed::Run(options) => options,
            Parsed::Help(text) => {
                print!("{text}");
                return std::io::stdout()
                    .flush()
                    .map_err(|e| Error::failure(format!("stdout: {e}")));
            }
        };
        inputs::require_file(&Inputs::path(&options))?;

        progress("loading");
        let start = Instant::now();
        let mut model = load(&options)?;
        let load_ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        // Read after loading: how many floats make a sample is the model's to say.
        let inputs = Inputs::for_run(&options, model.sample_widths().input)?;

        progress("warm-up");
        let mut rounds = Rounds::new(&mut model, &inputs.values, options.calls, options.batch);
        rounds.warm_up(options.warmup)?;

        let session = Session::start(id, &options, rounds, load_ns, std::io::stdout().lock())?;
        if options.serve { session.serve(std::io::stdin().lock()) } else { session.script() }
    })
}
