//! What several Rust drivers of one runtime share: opening the runtime and
//! loading the model. Each driver (src/bin/) is its load function and its call.

#[cfg(feature = "candle")]
pub mod candle_support;
#[cfg(feature = "ort")]
pub mod ort_support;
#[cfg(feature = "tch")]
pub mod tch_support;
#[cfg(feature = "tract")]
pub mod tract_support;
