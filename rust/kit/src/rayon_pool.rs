//! Runtimes that compute on rayon's global pool (candle, burn's Flex
//! backend): `--threads` sizes that pool. Behind the kit's `rayon` feature.

use crate::{Error, Options, Result};

/// Builds rayon's global pool with `--threads` threads. Must run before the
/// runtime first asks for the pool, while this is the only thread.
pub fn build_global(options: &Options) -> Result<()> {
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
