//! Flex computes on rayon's global pool, and only above its size thresholds
//! (a 192³ matmul): below them every op runs on the calling thread. `--threads`
//! sizes that pool, built before burn first asks for it.

use callbench_kit::{Error, Options, Result};

/// Builds rayon's global pool with `--threads` threads. Must run before any
/// tensor work, while this is the only thread.
pub fn set_threads(options: &Options) -> Result<()> {
    let threads =
        usize::try_from(options.threads).map_err(|_| Error::usage("--threads is too large"))?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| Error::failure(format!("rayon: cannot build the thread pool: {e}")))
}

/// The pool's size as rayon reports it.
pub fn threads() -> usize {
    rayon::current_num_threads()
}
