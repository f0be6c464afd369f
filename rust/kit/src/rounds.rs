//! The calls the contract times: the warm-up, one timed round, the latency
//! pass. The monotonic clock (`Instant`) and the thread's CPU clock live here.
//!
//! Generic over the model, so each driver's call is inlined into these loops:
//! the loop itself must cost nothing next to a call of a few nanoseconds.

use std::hint::black_box;
use std::time::Instant;

use serde::Serialize;

use crate::errors::{Error, Result};
use crate::inputs::{INPUT_WIDTH, OUTPUT_WIDTH};
use crate::model::{Model, Notes};

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

/// What the serve dialogue asks of a loaded model's rounds, a [`Model`]'s
/// ([`Rounds`]) or a `TensorModel`'s (`TensorRounds`).
pub trait Runner {
    /// Times calls `0 .. calls-1` as one block.
    fn round(&mut self, calls: u64) -> Result<Round>;
    /// Times calls `0 .. calls-1` one at a time; each call's nanoseconds.
    fn latencies(&mut self, calls: u64) -> Result<Vec<i64>>;
    /// The last round's outputs: each output's K * B samples as little-endian
    /// bytes, in the model's order (none before the first round).
    fn last_outputs(&self) -> Vec<&[u8]>;
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

/// One timed round, as the result line lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Round {
    pub calls: u64,
    pub ns: u64,
    pub cpu_ns: u64,
}

/// Nanoseconds of CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`).
pub fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime only writes the timespec we own.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return 0;
    }
    (ts.tv_sec as u64) * 1_000_000_000 + ts.tv_nsec as u64
}

fn nanos_since(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// Runs the model over the inputs: call `i` takes samples `[i*B, (i+1)*B)`.
pub struct Rounds<'a, M: Model> {
    model: &'a mut M,
    inputs: &'a [f32],
    max_calls: usize,
    /// Floats a call reads and writes: B samples of 2 in and 1 out.
    step_in: usize,
    step_out: usize,
    /// max_calls * B floats; holds the last round's outputs in its first K * B.
    outputs: Vec<f32>,
    last_round_calls: usize,
}

impl<'a, M: Model> Rounds<'a, M> {
    /// `inputs` must hold `max_calls * batch` samples (checked by `Inputs::require`).
    pub fn new(model: &'a mut M, inputs: &'a [f32], max_calls: u64, batch: u64) -> Self {
        let (max_calls, batch) = (max_calls as usize, batch as usize);
        let (step_in, step_out) = (batch * INPUT_WIDTH, batch * OUTPUT_WIDTH);
        assert!(inputs.len() >= max_calls * step_in, "inputs checked before");
        Self {
            model,
            inputs,
            max_calls,
            step_in,
            step_out,
            outputs: vec![f32::NAN; max_calls * step_out],
            last_round_calls: 0,
        }
    }

    pub fn max_calls(&self) -> u64 {
        self.max_calls as u64
    }

    pub fn model(&self) -> &M {
        self.model
    }

    /// The input samples of call `i`.
    #[inline(always)]
    fn input(&self, i: usize) -> &'a [f32] {
        let step = self.step_in;
        &self.inputs[i * step..(i + 1) * step]
    }

    /// The warm-up ([`warm_up_calls`]): at most `warmup` untimed calls, `seconds` once a
    /// few are made.
    pub fn warm_up(&mut self, warmup: u64, seconds: f64) -> Result<Warmup> {
        let (step_in, step_out, inputs) = (self.step_in, self.step_out, self.inputs);
        let (model, outputs) = (&mut *self.model, &mut self.outputs);
        warm_up_calls(warmup, seconds, self.max_calls, |i| {
            let output = &mut outputs[i * step_out..(i + 1) * step_out];
            model.call(&inputs[i * step_in..(i + 1) * step_in], output)?;
            black_box(output);
            Ok(())
        })
    }

    /// Times calls `0 .. calls-1` as one block. The outputs are filled with
    /// NaN first (outside the timing), so a call that stores nothing shows.
    pub fn round(&mut self, calls: u64) -> Result<Round> {
        let k = self.check_calls(calls)?;
        self.outputs.fill(f32::NAN);
        let (step_in, step_out) = (self.step_in, self.step_out);
        let inputs = &self.inputs[..k * step_in];
        let outputs = &mut self.outputs[..k * step_out];
        let model = &mut *self.model;

        let cpu_start = thread_cpu_ns();
        let start = Instant::now();
        for (input, output) in inputs.chunks_exact(step_in).zip(outputs.chunks_exact_mut(step_out))
        {
            model.call(input, output)?;
            // The stores of this call must happen before the next one starts:
            // no merging or vectorising across calls, no dropped work.
            black_box(output);
        }
        let ns = nanos_since(start);
        let cpu_ns = thread_cpu_ns().saturating_sub(cpu_start);

        self.last_round_calls = k;
        Ok(Round { calls, ns, cpu_ns })
    }

    /// Times calls `0 .. calls-1` one at a time into a scratch buffer (the
    /// outputs keep the last round); returns each call's nanoseconds.
    pub fn latencies(&mut self, calls: u64) -> Result<Vec<i64>> {
        let k = self.check_calls(calls)?;
        let mut scratch = vec![f32::NAN; self.step_out];
        let mut durations = vec![0_i64; k];
        for (i, duration) in durations.iter_mut().enumerate() {
            let input = self.input(i);
            let start = Instant::now();
            self.model.call(input, &mut scratch)?;
            black_box(&mut scratch);
            *duration = i64::try_from(nanos_since(start)).unwrap_or(i64::MAX);
        }
        Ok(durations)
    }

    /// The last round's outputs: K * B floats (none before the first round).
    pub fn last_outputs(&self) -> &[f32] {
        &self.outputs[..self.last_round_calls * self.step_out]
    }

    fn check_calls(&self, calls: u64) -> Result<usize> {
        check_calls(calls, self.max_calls)
    }
}

#[cfg(target_endian = "little")]
impl<M: Model> Runner for Rounds<'_, M> {
    fn round(&mut self, calls: u64) -> Result<Round> {
        Rounds::round(self, calls)
    }

    fn latencies(&mut self, calls: u64) -> Result<Vec<i64>> {
        Rounds::latencies(self, calls)
    }

    fn last_outputs(&self) -> Vec<&[u8]> {
        let floats = Rounds::last_outputs(self);
        if floats.is_empty() {
            return Vec::new();
        }
        // SAFETY: any f32 is 4 initialised bytes; the host is little-endian (cfg above).
        vec![unsafe { std::slice::from_raw_parts(floats.as_ptr().cast::<u8>(), 4 * floats.len()) }]
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

    /// y = x0 + x1 per sample; counts its calls.
    struct Sum {
        calls: usize,
    }

    impl Model for Sum {
        fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
            self.calls += 1;
            for (y, x) in output.iter_mut().zip(input.chunks_exact(2)) {
                *y = x[0] + x[1];
            }
            Ok(())
        }
        fn runtime_version(&self) -> String {
            "test".into()
        }
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
    fn rounds_store_every_output() {
        let inputs: Vec<f32> = (0..12).map(|i| i as f32).collect(); // 6 samples
        let mut model = Sum { calls: 0 };
        let mut rounds = Rounds::new(&mut model, &inputs, 3, 2);
        assert_eq!(rounds.warm_up(5, 0.0).unwrap().calls, 5);
        let timing = rounds.round(2).unwrap();
        assert_eq!(timing.calls, 2);
        assert_eq!(rounds.last_outputs(), &[1.0, 5.0, 9.0, 13.0]);
        let latencies = rounds.latencies(3).unwrap();
        assert_eq!(latencies.len(), 3);
        assert_eq!(rounds.last_outputs(), &[1.0, 5.0, 9.0, 13.0]);
        assert_eq!(model.calls, 5 + 2 + 3);
    }

    #[test]
    fn out_of_range_calls_are_usage_errors() {
        let inputs = vec![0.0; 4];
        let mut model = Sum { calls: 0 };
        let mut rounds = Rounds::new(&mut model, &inputs, 2, 1);
        for k in [0, 3] {
            assert_eq!(rounds.round(k).unwrap_err().kind, Kind::Usage);
            assert_eq!(rounds.latencies(k).unwrap_err().kind, Kind::Usage);
        }
        assert!(rounds.last_outputs().is_empty());
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
