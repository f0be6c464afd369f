//! The MLP as burn modules over the exported weights, for the rust-burn driver.
//! Flex runs an op on rayon's pool only above its size thresholds (a 192³
//! matmul), so the MLP computes on the calling thread; `--threads` sizes that
//! pool (the kit's `rayon_pool`), built before burn first asks for it.

pub mod mlp;

/// The burn crate's version as Cargo.lock pins it: burn is the runtime.
pub const VERSION: &str = env!("CALLBENCH_VERSION_BURN");
