//! candle (pure Rust) on the CPU: its thread count comes from
//! RAYON_NUM_THREADS, read on every matmul, so `--threads` goes there.

use callbench_kit::{Options, Result, rayon_pool};

/// The `candle-core` crate's version: candle is the runtime.
pub const VERSION: &str = env!("CALLBENCH_VERSION_CANDLE_CORE");

/// Sets RAYON_NUM_THREADS to `--threads` and builds rayon's global pool with
/// that many threads. Must run before candle does anything (it reads the
/// variable) and while this is the only thread.
pub fn set_threads(options: &Options) -> Result<()> {
    // SAFETY: called from `load`, before any other thread of this process exists.
    unsafe { std::env::set_var("RAYON_NUM_THREADS", options.threads.to_string()) };
    rayon_pool::build_global(options)
}

/// The thread count candle reads back.
pub fn threads() -> usize {
    candle_core::utils::get_num_threads()
}
