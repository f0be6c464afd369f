//! Contract 7's dynamic batcher. A paced round's arrivals ([`crate::paced`]) are
//! gathered into calls of up to B (`--batch`) as a service's batcher gathers them
//! (Triton's `dynamic_batching`, TorchServe's `batch_size` and `max_batch_delay`):
//! it takes every arrival already due, up to B; with fewer than B it waits until B
//! have arrived or the oldest it holds has waited D (`--max-delay`), then calls
//! once. It knows the schedule, not the future: it waits for an arrival only while
//! the oldest may still wait, and waits out D when the next comes later, as a
//! batcher that cannot see it does. Arrival j takes sample j mod S (S: the samples
//! the run's inputs hold for its calls, `--calls` x B) and its outputs go to sample
//! slot j mod S; the call runs at B over buffers of its own, the places no arrival
//! took padded with the samples they last held (a fixed-shape runtime pays for
//! padding, as in a service). Each arrival keeps contract 6's three times: taken
//! (when the batcher turned to it, negative when it was waiting for it), started
//! (its call's start, the copying of its samples in included) and ended (the
//! call's end, its outputs copied out included).

use std::hint::black_box;
use std::sync::atomic::Ordering::Relaxed;

use crate::errors::Result;
use crate::model::{Notes, TensorModel};
use crate::paced::{Paced, Pacing, now_ns, wait_until};
use crate::rounds::{Round, Rounds, Runner};
use crate::tensors::{Bytes, Dtype, Samples};

/// What `--max-delay` refuses beside `--callers N` > 1: one gatherer, over its own schedule.
pub const ONE_GATHERER: &str = "--max-delay takes one caller: the batcher gathers for one";
/// What `--gathered` answers without `--max-delay`, and from a driver whose model's call
/// takes a fixed batch ([`TensorModel::TAKES_GATHERED`] false).
pub const GATHERED_ALONE: &str = "--gathered takes --max-delay: it sizes the batcher's calls";
pub const FIXED_BATCH: &str = "--gathered is not supported: this driver's call takes a fixed batch";

/// The one caller's rounds ([`Rounds`]), its paced rounds served by the batcher.
pub struct Batcher<'a, M: TensorModel> {
    rounds: Rounds<'a, M>,
    inputs: &'a [Samples],
    batch: usize,
    /// S: the samples the run's inputs hold for its calls.
    slots: usize,
    max_delay_ns: i64,
    /// Each tensor's bytes a sample.
    input_sample: Vec<usize>,
    output_sample: Vec<usize>,
    dtypes: Vec<Dtype>,
    /// The call's B places of each tensor.
    call_in: Vec<Bytes>,
    call_out: Vec<Bytes>,
    /// Each output's S sample slots.
    served: Vec<Bytes>,
    /// The sample slots the last paced round filled (0: a round's outputs are the last).
    paced_slots: usize,
    /// `--gathered`: each call at the size it gathered ([`TensorModel::call_gathered`]).
    gathered: bool,
}

impl<'a, M: TensorModel> Batcher<'a, M> {
    /// `rounds` are the one caller's over `inputs`, loaded at `batch` for `max_calls` calls.
    pub fn new(
        mut rounds: Rounds<'a, M>,
        inputs: &'a [Samples],
        max_calls: u64,
        batch: u64,
        max_delay_us: u64,
        gathered: bool,
    ) -> Self {
        let batch = batch as usize;
        let slots = max_calls as usize * batch;
        let signature = rounds.model().signature();
        let input_sample: Vec<usize> = signature.inputs.iter().map(|t| t.sample_bytes()).collect();
        let output_sample: Vec<usize> =
            signature.outputs.iter().map(|t| t.sample_bytes()).collect();
        let dtypes = signature.outputs.iter().map(|t| t.dtype).collect();
        // The call's places start as the first B samples: padding is always a sample.
        let call_in = inputs
            .iter()
            .zip(&input_sample)
            .map(|(samples, &size)| {
                let mut place = Bytes::zeroed(batch * size);
                place.copy_from_slice(&samples.bytes[..batch * size]);
                place
            })
            .collect();
        let call_out = output_sample.iter().map(|&size| Bytes::zeroed(batch * size)).collect();
        let served = output_sample.iter().map(|&size| Bytes::zeroed(slots * size)).collect();
        Self {
            rounds,
            inputs,
            batch,
            slots,
            max_delay_ns: i64::try_from(max_delay_us.saturating_mul(1000)).unwrap_or(i64::MAX),
            input_sample,
            output_sample,
            dtypes,
            call_in,
            call_out,
            served,
            paced_slots: 0,
            gathered,
        }
    }

    /// One call of the arrivals whose sample slots are `slots` (1 to B of them).
    fn call(&mut self, slots: &[usize]) -> Result<()> {
        for ((place, samples), &size) in
            self.call_in.iter_mut().zip(self.inputs).zip(&self.input_sample)
        {
            for (i, &slot) in slots.iter().enumerate() {
                place[i * size..(i + 1) * size]
                    .copy_from_slice(&samples.bytes[slot * size..(slot + 1) * size]);
            }
        }
        let inputs: Vec<&[u8]> = self.call_in.iter().map(|b| &b[..]).collect();
        let mut outputs: Vec<&mut [u8]> = self.call_out.iter_mut().map(|b| &mut b[..]).collect();
        if self.gathered {
            self.rounds.model().call_gathered(&inputs, &mut outputs, slots.len())?;
        } else {
            self.rounds.model().call(&inputs, &mut outputs)?;
        }
        black_box(&mut outputs);
        for ((into, out), &size) in
            self.served.iter_mut().zip(&self.call_out).zip(&self.output_sample)
        {
            for (i, &slot) in slots.iter().enumerate() {
                into[slot * size..(slot + 1) * size]
                    .copy_from_slice(&out[i * size..(i + 1) * size]);
            }
        }
        Ok(())
    }
}

impl<M: TensorModel> Runner for Batcher<'_, M> {
    fn round(&mut self, calls: u64) -> Result<Round> {
        self.paced_slots = 0;
        self.rounds.round(calls)
    }

    fn latencies(&mut self, calls: u64) -> Result<Vec<i64>> {
        self.rounds.latencies(calls)
    }

    fn paced(&mut self, offsets: Vec<i64>, start_ns: Option<i64>) -> Result<Paced> {
        let mut pacing = Pacing::new(offsets, 1, self.slots);
        for (served, dtype) in self.served.iter_mut().zip(&self.dtypes) {
            dtype.poison(served);
        }
        self.paced_slots = pacing.filled();
        pacing.begin(start_ns);
        let (batch, max_delay_ns) = (self.batch, self.max_delay_ns);
        let sizes = gather(&pacing, batch, max_delay_ns, |slots| self.call(slots))?;
        Ok(Paced { batch_sizes: sizes, ..pacing.result() })
    }

    fn last_outputs(&mut self) -> Vec<&[u8]> {
        if self.paced_slots == 0 {
            return self.rounds.last_outputs();
        }
        let filled = self.paced_slots;
        self.served.iter().zip(&self.output_sample).map(|(s, &size)| &s[..filled * size]).collect()
    }

    fn runtime_version(&self) -> String {
        self.rounds.runtime_version()
    }

    fn notes(&self) -> Notes {
        self.rounds.notes()
    }
}

/// Serves every arrival of `pacing` as the one batcher; `call(slots)` makes one call of
/// the arrivals whose sample slots are `slots`. The calls by the arrivals they took
/// (`sizes[k - 1]`: the calls of k).
fn gather(
    pacing: &Pacing,
    batch: usize,
    max_delay_ns: i64,
    mut call: impl FnMut(&[usize]) -> Result<()>,
) -> Result<Vec<i64>> {
    let (offsets, times, start) = (pacing.offsets(), pacing.times(), pacing.start_ns());
    let count = offsets.len();
    let due = |j: usize| start + offsets[j];
    let mut sizes = vec![0_i64; batch];
    let mut which = Vec::with_capacity(batch);
    let mut end = start;
    let mut j = 0;
    let outcome = loop {
        if j >= count {
            break Ok(());
        }
        let mut now = now_ns();
        let first = due(j);
        times[j].store(now - first, Relaxed);
        if now < first {
            now = wait_until(first);
        }
        let deadline = first.saturating_add(max_delay_ns);
        let mut held = j + 1;
        while held - j < batch {
            if held < count && due(held) <= now {
                // already arrived: taken now
                times[held].store(now - due(held), Relaxed);
            } else if held < count && due(held) <= deadline {
                // wait for it: the oldest may
                times[held].store(now - due(held), Relaxed);
                now = wait_until(due(held));
            } else {
                // none before the oldest has waited D: wait that out, then call
                if now < deadline {
                    wait_until(deadline);
                }
                break;
            }
            held += 1;
        }
        which.clear();
        which.extend((j..held).map(|i| i % pacing.slots()));
        let begin = now_ns();
        if let Err(e) = call(&which) {
            break Err(e);
        }
        end = now_ns();
        for i in j..held {
            times[count + i].store(begin - due(i), Relaxed);
            times[2 * count + i].store(end - due(i), Relaxed);
        }
        sizes[held - j - 1] += 1;
        j = held;
    };
    pacing.served_all(end);
    outcome.map(|()| sizes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float_model::FloatModel;
    use crate::testing::Sum;

    /// `calls` x 2 samples, sample i (i, 1): its sum i + 1 names it.
    fn inputs(calls: usize) -> Vec<Samples> {
        let values: Vec<u8> =
            (0..2 * calls).flat_map(|i| [i as f32, 1.0]).flat_map(f32::to_le_bytes).collect();
        let mut bytes = Bytes::zeroed(values.len());
        bytes.copy_from_slice(&values);
        vec![Samples { bytes, count: 2 * calls }]
    }

    fn floats(bytes: &[u8]) -> Vec<f32> {
        bytes.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect()
    }

    #[test]
    fn a_burst_of_b_is_one_call_and_each_arrival_its_own_sample() {
        // Three bursts of two, 1 ms apart, then one alone: a full call does not wait D (a
        // second); the last, alone, waits it out (it cannot know none follows).
        let inputs = inputs(3);
        let mut model = FloatModel(Sum { calls: 0 });
        let rounds = Rounds::new(&mut model, &inputs, 3, 2);
        let mut batcher = Batcher::new(rounds, &inputs, 3, 2, 1_000_000, false);
        let offsets = vec![0, 0, 1_000_000, 1_000_000, 2_000_000, 2_000_000, 3_000_000];
        let paced = batcher.paced(offsets, None).unwrap();
        assert_eq!((paced.batch_sizes.clone(), paced.slots), (vec![1, 3], 6));
        assert_eq!(paced.caller_calls, [7]);
        let started = &paced.times[7..14];
        assert!(started[0] == started[1] && started[6] >= 1_000_000_000, "{started:?}");
        // Arrival 6 took sample 0 (6 mod 6): its sum 1 is at slot 0.
        assert_eq!(floats(batcher.last_outputs()[0]), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(model.0.calls, 4);
    }

    #[test]
    fn a_round_after_the_paced_one_is_the_models_own() {
        let inputs = inputs(2);
        let mut model = FloatModel(Sum { calls: 0 });
        let rounds = Rounds::new(&mut model, &inputs, 2, 2);
        let mut batcher = Batcher::new(rounds, &inputs, 2, 2, 0, false);
        batcher.paced(vec![0, 5, 10], None).unwrap();
        batcher.round(2).unwrap();
        assert_eq!(floats(batcher.last_outputs()[0]), [1.0, 2.0, 3.0, 4.0]);
    }

    /// Sums over any batch, each gathered call's size kept.
    struct GatheredSum {
        signature: crate::tensors::Signature,
        sizes: Vec<usize>,
    }

    impl TensorModel for GatheredSum {
        const TAKES_GATHERED: bool = true;
        fn signature(&self) -> &crate::tensors::Signature {
            &self.signature
        }
        fn call(&mut self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<()> {
            let samples = outputs[0].len() / 4;
            self.call_gathered(inputs, outputs, samples)
        }
        fn call_gathered(
            &mut self,
            inputs: &[&[u8]],
            outputs: &mut [&mut [u8]],
            samples: usize,
        ) -> Result<()> {
            self.sizes.push(samples);
            let x = floats(&inputs[0][..8 * samples]);
            for s in 0..samples {
                let sum = x[2 * s] + x[2 * s + 1];
                outputs[0][4 * s..4 * s + 4].copy_from_slice(&sum.to_le_bytes());
            }
            Ok(())
        }
        fn runtime_version(&self) -> String {
            "test".into()
        }
    }

    #[test]
    fn a_gathered_call_takes_only_the_arrivals_it_gathered() {
        // A burst of two, then one alone: calls of 2 and 1, not two of B = 2.
        let inputs = inputs(3);
        let mut model = GatheredSum {
            signature: crate::float_model::mlp_signature().clone(),
            sizes: Vec::new(),
        };
        let rounds = Rounds::new(&mut model, &inputs, 3, 2);
        let mut batcher = Batcher::new(rounds, &inputs, 3, 2, 0, true);
        batcher.paced(vec![0, 0, 5_000_000], None).unwrap();
        assert_eq!(floats(batcher.last_outputs()[0]), [1.0, 2.0, 3.0]);
        assert_eq!(model.sizes, [2, 1]);
    }
}
