//! Where a round's calls read and write ([`Buffers`]) and the kit's loop over
//! them ([`call_each`]): the part of a round that knows nothing of the model
//! but its call, so that the model (model.rs) and the rounds (rounds.rs,
//! callers.rs) both build on it and neither on the other's loop.

use std::hint::black_box;

use crate::errors::Result;
use crate::tensors::{Bytes, Samples};

/// Where the calls of a round read and write: each input's samples and each
/// output's buffer, with the bytes one call takes of each.
pub struct Buffers<'a> {
    pub inputs: &'a [Samples],
    pub input_steps: &'a [usize],
    pub outputs: &'a mut [Bytes],
    pub output_steps: &'a [usize],
}

/// The kit's loop for any model: calls `first .. first + calls` of `call`, each
/// with a view of its samples of every input and of its place in every output,
/// each call's stores kept (`black_box`) before the next starts. Generic over
/// the call, so a model's call is inlined into it.
pub fn call_each(
    buffers: Buffers<'_>,
    first: usize,
    calls: usize,
    mut call: impl FnMut(&[&[u8]], &mut [&mut [u8]]) -> Result<()>,
) -> Result<()> {
    let mut input_views: Vec<&[u8]> = Vec::with_capacity(buffers.inputs.len());
    let mut chunks: Vec<_> = buffers
        .outputs
        .iter_mut()
        .zip(buffers.output_steps)
        .map(|(out, &step)| out[first * step..(first + calls) * step].chunks_exact_mut(step))
        .collect();
    let mut output_views: Vec<&mut [u8]> = Vec::with_capacity(chunks.len());
    for i in first..first + calls {
        input_views.clear();
        for (samples, &step) in buffers.inputs.iter().zip(buffers.input_steps) {
            input_views.push(&samples.bytes[i * step..(i + 1) * step]);
        }
        output_views.clear();
        output_views.extend(chunks.iter_mut().map(|c| c.next().expect("one chunk a call")));
        call(&input_views, &mut output_views)?;
        // The stores of this call must happen before the next one starts.
        black_box(&mut output_views);
    }
    Ok(())
}
