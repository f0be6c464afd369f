//! burn's Flex backend for the rust-burn driver: the device, `--threads`, and
//! the MLP as burn modules over the exported weights.

pub mod mlp;
pub mod threads;

/// The burn crate's version as Cargo.lock pins it: burn is the runtime.
pub const VERSION: &str = env!("CALLBENCH_VERSION_BURN");
