//! The calls the contract times: the warm-up, one timed round, the latency
//! pass, of a [`TensorModel`] (contract 3; our MLP's float `Model` through its
//! `FloatModel` adapter). Call `i` takes samples `[i*B, (i+1)*B)` of every
//! input and stores each output's batch at its place in that output's buffer;
//! before each round every output is filled with what no call gives (NaN, an
//! integer's smallest value). The monotonic clock (`Instant`) and the
//! thread's CPU clock live here.
//!
//! Generic over the model, so each driver's call is inlined into these loops:
//! the loop itself must cost nothing next to a call of a few nanoseconds.

use std::hint::black_box;
use std::time::Instant;

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::calls::Buffers;
use crate::errors::{Error, Result};
use crate::model::{Notes, TensorModel};
use crate::paced::{Paced, Pacing};
use crate::tensors::{Bytes, Dtype, Samples};

/// What the warm-up did: the ready line says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Warmup {
    pub calls: u64,
    pub ns: u64,
}

/// The calls a time-limited warm-up makes at least (fewer only when `--warmup` asks fewer).
pub const MIN_WARMUP_CALLS: u64 = 5;

/// The contract's warm-up: `call(i)` for warm-up calls `j = 0, 1, ...` with `i = j mod n`,
/// until `calls` of them, or until at least [`MIN_WARMUP_CALLS`] and `seconds` (> 0) have
/// passed. The clock is read after each call: the warm-up is not timed.
pub fn warm_up_calls(
    calls: u64,
    seconds: f64,
    n: usize,
    mut call: impl FnMut(usize) -> Result<()>,
) -> Result<Warmup> {
    let start = Instant::now();
    let least = calls.min(MIN_WARMUP_CALLS);
    let mut done = 0;
    while done < calls {
        call((done % n as u64) as usize)?;
        done += 1;
        if seconds > 0.0 && done >= least && start.elapsed().as_secs_f64() >= seconds {
            break;
        }
    }
    Ok(Warmup { calls: done, ns: nanos_since(start) })
}

/// What the serve dialogue asks of a loaded model's [`Rounds`].
pub trait Runner {
    /// Times calls `0 .. calls-1` as one block.
    fn round(&mut self, calls: u64) -> Result<Round>;
    /// Times calls `0 .. calls-1` one at a time; each call's nanoseconds.
    fn latencies(&mut self, calls: u64) -> Result<Vec<i64>>;
    /// Contract 6: serves the arrivals of `offsets` from `start_ns` (paced.rs), arrival j
    /// in slot j mod M (M: the calls the buffers hold).
    fn paced(&mut self, offsets: Vec<i64>, start_ns: Option<i64>) -> Result<Paced>;
    /// The last round's outputs: each output's K * B samples as little-endian
    /// bytes, in the model's order (none before the first round); at N callers
    /// every caller's, caller after caller.
    fn last_outputs(&mut self) -> Vec<&[u8]>;
    fn runtime_version(&self) -> String;
    fn notes(&self) -> Notes;
}

/// `calls` as the number of calls of a round, or a usage error unless 1 <= calls <= max_calls.
pub fn check_calls(calls: u64, max_calls: usize) -> Result<usize> {
    if calls == 0 || calls > max_calls as u64 {
        return Err(Error::usage(format!(
            "{calls} calls is out of range 1..={max_calls} (--calls)"
        )));
    }
    Ok(calls as usize)
}

/// One timed round, as the result line lists it. `start_ns` is its start on the
/// machine's monotonic clock (`monotonic_ns`), so the harness can put N processes'
/// rounds on one line (contract 4's processes). At N callers (contract 4) `ns`
/// runs from the first caller's start to the last caller's end, `cpu_ns` is every
/// caller's thread together and `caller_ns` each caller's own span (empty at one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    pub calls: u64,
    pub ns: u64,
    pub cpu_ns: u64,
    pub start_ns: u64,
    pub caller_ns: Vec<u64>,
}

/// As the result line lists it: at N callers with `"callers": N` and `caller_ns`.
impl Serialize for Round {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let many = !self.caller_ns.is_empty();
        let mut map = serializer.serialize_map(Some(if many { 6 } else { 4 }))?;
        map.serialize_entry("calls", &self.calls)?;
        map.serialize_entry("ns", &self.ns)?;
        map.serialize_entry("cpu_ns", &self.cpu_ns)?;
        map.serialize_entry("start_ns", &self.start_ns)?;
        if many {
            map.serialize_entry("callers", &self.caller_ns.len())?;
            map.serialize_entry("caller_ns", &self.caller_ns)?;
        }
        map.end()
    }
}

impl Round {
    /// The round's end on the same clock.
    pub fn end_ns(&self) -> u64 {
        self.start_ns + self.ns
    }
}

/// Nanoseconds on `CLOCK_MONOTONIC`, the clock every process of the machine reads
/// (`Instant` reads it too, but will not say its value).
pub fn monotonic_ns() -> u64 {
    clock_ns(libc::CLOCK_MONOTONIC)
}

/// Nanoseconds of CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`).
pub fn thread_cpu_ns() -> u64 {
    clock_ns(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// A clock's reading in ns; 0 if it cannot be read (Linux has both clocks read here).
fn clock_ns(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime only writes the timespec we own.
    let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
    if rc != 0 {
        return 0;
    }
    (ts.tv_sec as u64) * 1_000_000_000 + ts.tv_nsec as u64
}

pub(crate) fn nanos_since(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// Calls `0 .. calls` of `model` one at a time over `inputs`, its outputs into one
/// call's scratch: each call's nanoseconds (the latency pass).
pub(crate) fn time_each_call<M: TensorModel + ?Sized>(
    model: &mut M,
    inputs: &[Samples],
    input_steps: &[usize],
    output_steps: &[usize],
    calls: usize,
) -> Result<Vec<i64>> {
    let mut scratch: Vec<Bytes> = output_steps.iter().map(|&step| Bytes::zeroed(step)).collect();
    let mut durations = vec![0_i64; calls];
    let mut input_views: Vec<&[u8]> = Vec::with_capacity(inputs.len());
    for (i, duration) in durations.iter_mut().enumerate() {
        input_views.clear();
        for (samples, &step) in inputs.iter().zip(input_steps) {
            input_views.push(&samples.bytes[i * step..(i + 1) * step]);
        }
        let mut output_views: Vec<&mut [u8]> = scratch.iter_mut().map(|b| &mut b[..]).collect();
        let start = Instant::now();
        model.call(&input_views, &mut output_views)?;
        black_box(&mut output_views);
        *duration = i64::try_from(nanos_since(start)).unwrap_or(i64::MAX);
    }
    Ok(durations)
}

/// Runs the model over every input: call `i` takes samples `[i*B, (i+1)*B)` of each.
pub struct Rounds<'a, M: TensorModel> {
    model: &'a mut M,
    inputs: &'a [Samples],
    max_calls: usize,
    /// Bytes one call reads of each input and writes of each output.
    input_steps: Vec<usize>,
    output_steps: Vec<usize>,
    dtypes: Vec<Dtype>,
    /// Each output's max_calls * B samples; the last round's in the first K * B.
    outputs: Vec<Bytes>,
    last_round_calls: usize,
}

impl<'a, M: TensorModel> Rounds<'a, M> {
    /// `inputs` must hold `max_calls * batch` samples each, in the signature's order.
    pub fn new(model: &'a mut M, inputs: &'a [Samples], max_calls: u64, batch: u64) -> Self {
        let (max_calls, batch) = (max_calls as usize, batch as usize);
        let signature = model.signature();
        let input_steps: Vec<usize> =
            signature.inputs.iter().map(|t| batch * t.sample_bytes()).collect();
        let output_steps: Vec<usize> =
            signature.outputs.iter().map(|t| batch * t.sample_bytes()).collect();
        let dtypes = signature.outputs.iter().map(|t| t.dtype).collect();
        for (samples, step) in inputs.iter().zip(&input_steps) {
            assert!(samples.bytes.len() >= max_calls * step, "inputs checked before");
        }
        let outputs = output_steps.iter().map(|step| Bytes::zeroed(max_calls * step)).collect();
        Self {
            model,
            inputs,
            max_calls,
            input_steps,
            output_steps,
            dtypes,
            outputs,
            last_round_calls: 0,
        }
    }

    /// Calls `first .. first + calls` into the outputs' places, each stored before the next:
    /// the model's own loop ([`TensorModel::run_calls`]).
    fn run_calls(&mut self, first: usize, calls: usize) -> Result<()> {
        let buffers = Buffers {
            inputs: self.inputs,
            input_steps: &self.input_steps,
            outputs: &mut self.outputs,
            output_steps: &self.output_steps,
        };
        self.model.run_calls(buffers, first, calls)
    }

    /// The warm-up ([`warm_up_calls`]): at most `warmup` untimed calls, `seconds` once a
    /// few are made.
    pub fn warm_up(&mut self, warmup: u64, seconds: f64) -> Result<Warmup> {
        let n = self.max_calls;
        warm_up_calls(warmup, seconds, n, |i| self.run_calls(i, 1))
    }
}

impl<M: TensorModel> Rounds<'_, M> {
    /// The model the rounds call: the batcher's calls (batcher.rs) are its too.
    pub(crate) fn model(&mut self) -> &mut M {
        self.model
    }

    /// Fills each output's first `k` calls with what no call gives: the outputs the
    /// next round leaves.
    fn poison(&mut self, k: usize) {
        for ((out, &step), dtype) in
            self.outputs.iter_mut().zip(&self.output_steps).zip(&self.dtypes)
        {
            dtype.poison(&mut out[..k * step]);
        }
        self.last_round_calls = k;
    }
}

impl<M: TensorModel> Runner for Rounds<'_, M> {
    fn round(&mut self, calls: u64) -> Result<Round> {
        let k = check_calls(calls, self.max_calls)?;
        self.poison(k);
        let cpu_start = thread_cpu_ns();
        let start_ns = monotonic_ns();
        let start = Instant::now();
        self.run_calls(0, k)?;
        let ns = nanos_since(start);
        let cpu_ns = thread_cpu_ns().saturating_sub(cpu_start);
        Ok(Round { calls, ns, cpu_ns, start_ns, caller_ns: Vec::new() })
    }

    fn latencies(&mut self, calls: u64) -> Result<Vec<i64>> {
        let k = check_calls(calls, self.max_calls)?;
        time_each_call(self.model, self.inputs, &self.input_steps, &self.output_steps, k)
    }

    /// One caller serves every arrival, arrival j in slot j mod M of the run's buffers.
    fn paced(&mut self, offsets: Vec<i64>, start_ns: Option<i64>) -> Result<Paced> {
        let mut pacing = Pacing::new(offsets, 1, self.max_calls);
        self.poison(pacing.filled());
        pacing.begin(start_ns);
        pacing.serve(0, |slot| self.run_calls(slot, 1))?;
        Ok(pacing.result())
    }

    fn last_outputs(&mut self) -> Vec<&[u8]> {
        if self.last_round_calls == 0 {
            return Vec::new();
        }
        let k = self.last_round_calls;
        self.outputs.iter().zip(&self.output_steps).map(|(out, &step)| &out[..k * step]).collect()
    }

    fn runtime_version(&self) -> String {
        self.model.runtime_version()
    }

    fn notes(&self) -> Notes {
        self.model.notes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::Kind;
    use crate::tensors::{Signature, Tensor};
    use std::hint::black_box;

    /// Two inputs (an int64 pair, an int64 bias), two outputs (their sum as an
    /// int64 label and, halved, as a float32 score); records each call's first id.
    struct Pair {
        signature: Signature,
        store: bool,
        first_ids: Vec<i64>,
    }

    impl Pair {
        fn new() -> Self {
            let tensor = |name: &str, dtype, shape: &[usize]| Tensor {
                name: name.into(),
                dtype,
                shape: shape.to_vec(),
            };
            let signature = Signature {
                inputs: vec![tensor("ids", Dtype::Int64, &[2]), tensor("bias", Dtype::Int64, &[])],
                outputs: vec![
                    tensor("label", Dtype::Int64, &[]),
                    tensor("score", Dtype::Float32, &[]),
                ],
            };
            Self { signature, store: true, first_ids: Vec::new() }
        }
    }

    fn int(bytes: &[u8]) -> i64 {
        i64::from_le_bytes(bytes.try_into().unwrap())
    }

    impl TensorModel for Pair {
        fn signature(&self) -> &Signature {
            &self.signature
        }
        fn call(&mut self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<()> {
            self.first_ids.push(int(&inputs[0][..8]));
            if !self.store {
                return Ok(());
            }
            let samples = inputs[1].len() / 8;
            for s in 0..samples {
                let pair = &inputs[0][16 * s..16 * s + 16];
                let label = int(&pair[..8]) + int(&pair[8..]) + int(&inputs[1][8 * s..8 * s + 8]);
                outputs[0][8 * s..8 * s + 8].copy_from_slice(&label.to_le_bytes());
                outputs[1][4 * s..4 * s + 4].copy_from_slice(&(label as f32 / 2.0).to_le_bytes());
            }
            Ok(())
        }
        fn runtime_version(&self) -> String {
            "test".into()
        }
    }

    /// `samples` samples: ids (2s, 2s + 1), bias 100.
    fn inputs(samples: usize) -> Vec<Samples> {
        let to_bytes = |values: Vec<i64>| {
            let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
            let mut bytes = Bytes::zeroed(raw.len());
            bytes.copy_from_slice(&raw);
            Samples { bytes, count: samples }
        };
        vec![to_bytes((0..2 * samples as i64).collect()), to_bytes(vec![100; samples])]
    }

    #[test]
    fn each_call_takes_its_samples_of_every_input_and_stores_every_output() {
        let inputs = inputs(6);
        let mut model = Pair::new();
        let mut rounds = Rounds::new(&mut model, &inputs, 3, 2);
        assert_eq!(rounds.warm_up(4, 0.0).unwrap().calls, 4); // calls 0, 1, 2, 0
        assert!(rounds.last_outputs().is_empty());
        rounds.round(2).unwrap();
        let outputs = rounds.last_outputs();
        let labels: Vec<i64> = outputs[0].chunks_exact(8).map(int).collect();
        assert_eq!(labels, [101, 105, 109, 113]);
        let scores: Vec<f32> =
            outputs[1].chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
        assert_eq!(scores, [50.5, 52.5, 54.5, 56.5]);
        assert_eq!(rounds.latencies(3).unwrap().len(), 3);
        assert_eq!(rounds.last_outputs()[0].len(), 32); // the round's, not the latencies'
        assert_eq!(model.first_ids, [0, 4, 8, 0, 0, 4, 0, 4, 8]);
    }

    #[test]
    fn a_rounds_start_is_on_the_monotonic_clock_every_process_reads() {
        let inputs = inputs(3);
        let mut model = Pair::new();
        let mut rounds = Rounds::new(&mut model, &inputs, 3, 1);
        let before = monotonic_ns();
        let round = rounds.round(3).unwrap();
        let after = monotonic_ns();
        assert!(before <= round.start_ns && round.end_ns() <= after, "{before} {round:?} {after}");
    }

    #[test]
    fn outputs_are_filled_with_what_no_call_gives_before_each_round() {
        let inputs = inputs(3);
        let mut model = Pair::new();
        let mut rounds = Rounds::new(&mut model, &inputs, 3, 1);
        rounds.round(3).unwrap();
        rounds.model.store = false;
        rounds.round(3).unwrap();
        let outputs = rounds.last_outputs();
        assert!(outputs[0].chunks_exact(8).all(|b| int(b) == i64::MIN));
        assert!(
            outputs[1].chunks_exact(4).all(|b| f32::from_le_bytes(b.try_into().unwrap()).is_nan())
        );
        assert_eq!(rounds.round(4).unwrap_err().kind, Kind::Usage);
    }

    #[test]
    fn a_warm_up_by_time_makes_a_few_calls_then_stops_at_its_budget() {
        // A budget of 1 ns is spent by the first call: the few calls, then the end.
        let mut seen = Vec::new();
        let warmup = warm_up_calls(10_000, 1e-9, 3, |i| {
            seen.push(i);
            Ok(())
        })
        .unwrap();
        assert_eq!(warmup.calls, MIN_WARMUP_CALLS);
        assert_eq!(seen, [0, 1, 2, 0, 1]); // call j mod N
        let none = |_| Ok(());
        assert_eq!(warm_up_calls(2, 1e-9, 3, none).unwrap().calls, 2); // fewer asked: the cap
        assert_eq!(warm_up_calls(1000, 0.0, 3, none).unwrap().calls, 1000); // no time limit
        assert_eq!(warm_up_calls(1000, 1000.0, 3, none).unwrap().calls, 1000); // a budget far off
    }

    #[test]
    fn thread_cpu_clock_advances() {
        let start = thread_cpu_ns();
        let mut x = 0_u64;
        for i in 0..1_000_000 {
            x = black_box(x.wrapping_add(i));
        }
        assert!(thread_cpu_ns() > start);
    }
}
