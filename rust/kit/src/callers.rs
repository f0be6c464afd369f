//! Contract 4's callers: N callers calling one loaded [`TakesCallers`] model at
//! once, each a thread of `std::thread::scope` with its own call state
//! (`model.caller()`), its own inputs and its own outputs. The threads start
//! after the load, warm up together and wait for their next order between
//! rounds; a round hands each caller its buffers, a barrier releases them
//! together, each makes its K calls back to back through the model's own loop
//! (`run_calls`, as one caller does), and the round runs from the first
//! caller's start to the last caller's end. Caller c's call i takes the samples
//! of call (c*K + i) mod S (S: the calls the inputs hold), copied into its own
//! inputs before the release, outside the timing.
//!
//! A caller whose call fails (or panics) ends the process at once with the
//! contract's one line, `<id>: error: caller C: <problem>` ([`end_after_failed_caller`]):
//! the other callers may be inside a call, so nothing of theirs is joined. A run
//! without a failure ends when the [`Callers`] go: each caller's orders end, its
//! thread returns and the scope joins it.

use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Barrier};
use std::thread::Scope;
use std::time::Instant;

use crate::calls::Buffers;
use crate::errors::{Error, Result};
use crate::model::{Notes, TakesCallers, TensorModel};
use crate::options::Options;
use crate::paced::{Paced, Pacing};
use crate::rounds::{
    Round, Runner, Warmup, check_calls, monotonic_ns, thread_cpu_ns, time_each_call, warm_up_calls,
};
use crate::tensors::{Bytes, Dtype, Samples};

/// What one caller calls over: its inputs and outputs, handed to it with each
/// order and back with its report (so the entry fills and reads them in between).
struct Work {
    /// Its max_calls * B samples of each input.
    inputs: Vec<Samples>,
    /// Its max_calls * B samples of each output; a round's in the first K * B.
    outputs: Vec<Bytes>,
}

#[derive(Clone)]
enum Task {
    WarmUp,
    Round(usize),
    Latencies(usize),
    /// Contract 6: the round every caller serves, each taking the next arrival.
    Paced(Arc<Pacing>),
}

/// What a caller did with a task.
#[derive(Default)]
struct Report {
    start: Option<Instant>,
    end: Option<Instant>,
    start_ns: u64,
    cpu_ns: u64,
    warmup_calls: u64,
    latencies: Vec<i64>,
}

struct Done {
    caller: usize,
    work: Work,
    outcome: Result<Report>,
}

/// The bytes one call takes of each input and output, and the warm-up asked for:
/// the same for every caller.
#[derive(Clone)]
struct Plan {
    input_steps: Vec<usize>,
    output_steps: Vec<usize>,
    max_calls: usize,
    warmup: u64,
    warmup_time: f64,
}

/// N callers of one model, serving the rounds (a [`Runner`]).
pub struct Callers<'a, M: TakesCallers> {
    id: &'a str,
    debug: bool,
    model: &'a M,
    /// Each input's samples, all the file holds: S calls at this batch.
    every: &'a [Samples],
    held: usize,
    plan: Plan,
    dtypes: Vec<Dtype>,
    orders: Vec<Sender<(Task, Work)>>,
    done: Receiver<Done>,
    /// Each caller's buffers while it waits.
    work: Vec<Option<Work>>,
    last_calls: usize,
    /// After a paced round: the caller that served each slot's last arrival (empty
    /// after any other round).
    slot_callers: Vec<usize>,
    /// `last_outputs`' copies: each output's, caller after caller.
    joined: Vec<Vec<u8>>,
}

impl<'a, M: TakesCallers> Callers<'a, M> {
    /// `options.callers` callers in `scope`, each with its call state (made here, one
    /// after another in caller order: a runtime's load need not be safe to run at
    /// once), warmed up together; the fewest warm-up calls any caller made.
    pub fn start<'scope>(
        scope: &'scope Scope<'scope, 'a>,
        id: &'a str,
        model: &'a M,
        every: &'a [Samples],
        options: &Options,
    ) -> Result<(Self, Warmup)>
    where
        M::Caller<'a>: 'scope,
    {
        let (max_calls, batch) = (options.calls as usize, options.batch as usize);
        let signature = model.signature();
        let steps = |tensors: &[crate::tensors::Tensor]| -> Vec<usize> {
            tensors.iter().map(|t| batch * t.sample_bytes()).collect()
        };
        let plan = Plan {
            input_steps: steps(&signature.inputs),
            output_steps: steps(&signature.outputs),
            max_calls,
            warmup: options.warmup,
            warmup_time: options.warmup_time,
        };
        let n = options.callers as usize;
        let (report, done) = channel();
        let barrier = Arc::new(Barrier::new(n));
        let mut orders = Vec::with_capacity(n);
        let mut work = Vec::with_capacity(n);
        for c in 0..n {
            let state: M::Caller<'a> = M::caller(model).map_err(|e| caller_error(c, &e))?;
            let (order, orders_of_c) = channel();
            let (to, meet, its) = (report.clone(), Arc::clone(&barrier), plan.clone());
            scope.spawn(move || serve(c, state, &orders_of_c, &to, &meet, &its));
            orders.push(order);
            work.push(Some(Work {
                inputs: plan
                    .input_steps
                    .iter()
                    .map(|&step| Samples {
                        bytes: Bytes::zeroed(max_calls * step),
                        count: max_calls * batch,
                    })
                    .collect(),
                outputs: plan
                    .output_steps
                    .iter()
                    .map(|&step| Bytes::zeroed(max_calls * step))
                    .collect(),
            }));
        }
        let mut callers = Self {
            id,
            debug: options.debug,
            model,
            every,
            held: every[0].count / batch,
            plan,
            dtypes: signature.outputs.iter().map(|t| t.dtype).collect(),
            orders,
            done,
            work,
            last_calls: 0,
            slot_callers: Vec::new(),
            joined: Vec::new(),
        };
        callers.fill_inputs(max_calls, false);
        let begin = Instant::now();
        let reports = callers.run_all(Task::WarmUp);
        let calls = reports.iter().map(|r| r.warmup_calls).min().unwrap_or(0);
        let ns = u64::try_from(begin.elapsed().as_nanos()).unwrap_or(u64::MAX);
        Ok((callers, Warmup { calls, ns }))
    }

    /// Caller c's call i <- the samples of call (c*calls + i) mod S, for each input; for a
    /// paced round's arrivals, every caller's call i <- those of call i mod S.
    fn fill_inputs(&mut self, calls: usize, arrivals: bool) {
        for (c, work) in self.work.iter_mut().enumerate() {
            let first = if arrivals { 0 } else { c * calls };
            let work = work.as_mut().expect("every caller's buffers are back");
            for ((mine, every), &step) in
                work.inputs.iter_mut().zip(self.every).zip(&self.plan.input_steps)
            {
                for i in 0..calls {
                    let from = (first + i) % self.held;
                    mine.bytes[i * step..(i + 1) * step]
                        .copy_from_slice(&every.bytes[from * step..(from + 1) * step]);
                }
            }
        }
    }

    /// Hands every caller `task` with its buffers and waits for all of them (a failure
    /// ends the process here); their reports in caller order.
    fn run_all(&mut self, task: Task) -> Vec<Report> {
        self.slot_callers.clear();
        for (order, work) in self.orders.iter().zip(&mut self.work) {
            let work = work.take().expect("every caller's buffers are back");
            if order.send((task.clone(), work)).is_err() {
                unreachable!("a caller's thread ends only when its orders do");
            }
        }
        let mut reports: Vec<Option<Report>> = self.orders.iter().map(|_| None).collect();
        for _ in 0..self.orders.len() {
            let Ok(Done { caller, work, outcome }) = self.done.recv() else {
                unreachable!("every caller reports before its thread ends");
            };
            match outcome {
                Ok(report) => reports[caller] = Some(report),
                Err(error) => {
                    end_after_failed_caller(self.id, self.debug, &caller_error(caller, &error))
                }
            }
            self.work[caller] = Some(work);
        }
        reports.into_iter().map(|r| r.expect("one report a caller")).collect()
    }
}

impl<M: TakesCallers> Runner for Callers<'_, M> {
    fn round(&mut self, calls: u64) -> Result<Round> {
        let k = check_calls(calls, self.plan.max_calls)?;
        self.fill_inputs(k, false);
        self.poison(k);
        let reports = self.run_all(Task::Round(k));
        let span = |r: &Report| (r.start.expect("a round starts"), r.end.expect("and ends"));
        let (mut first, mut last) = span(&reports[0]);
        let mut start_ns = reports[0].start_ns;
        let mut round = Round { calls, ns: 0, cpu_ns: 0, start_ns: 0, caller_ns: Vec::new() };
        for report in &reports {
            let (start, end) = span(report);
            if start < first {
                (first, start_ns) = (start, report.start_ns);
            }
            last = last.max(end);
            round.cpu_ns += report.cpu_ns;
            round.caller_ns.push(nanos(end - start));
        }
        round.ns = nanos(last - first);
        round.start_ns = start_ns;
        Ok(round)
    }

    /// Every caller's calls timed one by one, all callers at once: caller after caller.
    fn latencies(&mut self, calls: u64) -> Result<Vec<i64>> {
        let k = check_calls(calls, self.plan.max_calls)?;
        self.fill_inputs(k, false);
        let reports = self.run_all(Task::Latencies(k));
        Ok(reports.into_iter().flat_map(|r| r.latencies).collect())
    }

    /// Every caller serving the arrivals of `offsets`, each taking the next, arrival j in
    /// slot j mod M of the caller that takes it.
    fn paced(&mut self, offsets: Vec<i64>, start_ns: Option<i64>) -> Result<Paced> {
        let mut pacing = Pacing::new(offsets, self.orders.len(), self.plan.max_calls);
        let k = pacing.filled();
        self.fill_inputs(k, true);
        self.poison(k);
        pacing.begin(start_ns);
        let pacing = Arc::new(pacing);
        self.run_all(Task::Paced(Arc::clone(&pacing)));
        self.slot_callers = pacing.slot_callers();
        Ok(pacing.result())
    }

    /// Each output's last round, caller after caller; after a paced round, each slot's
    /// from the caller that served its last arrival, in slot order.
    fn last_outputs(&mut self) -> Vec<&[u8]> {
        if self.last_calls == 0 {
            return Vec::new();
        }
        let k = self.last_calls;
        let work: Vec<&Work> = self.work.iter().flatten().collect();
        self.joined = (0..self.plan.output_steps.len())
            .map(|o| {
                let step = self.plan.output_steps[o];
                if self.slot_callers.is_empty() {
                    work.iter().flat_map(|w| w.outputs[o][..k * step].iter().copied()).collect()
                } else {
                    (self.slot_callers.iter().enumerate())
                        .flat_map(|(slot, &c)| work[c].outputs[o][slot * step..][..step].to_vec())
                        .collect()
                }
            })
            .collect();
        self.joined.iter().map(Vec::as_slice).collect()
    }

    fn runtime_version(&self) -> String {
        self.model.runtime_version()
    }

    fn notes(&self) -> Notes {
        let holding = self.model.holding();
        self.model
            .notes()
            .with("callers", self.orders.len() as u64)
            .with("callers_hold", holding.holds.word())
            .with("callers_how", holding.how)
    }
}

impl<M: TakesCallers> Callers<'_, M> {
    /// Fills each caller's outputs' first `k` calls with what no call gives.
    fn poison(&mut self, k: usize) {
        for work in self.work.iter_mut().flatten() {
            for ((out, &step), dtype) in
                work.outputs.iter_mut().zip(&self.plan.output_steps).zip(&self.dtypes)
            {
                dtype.poison(&mut out[..k * step]);
            }
        }
        self.last_calls = k;
    }
}

fn nanos(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

/// "caller C: <problem>", a data error (exit 1).
fn caller_error(caller: usize, error: &Error) -> Error {
    let mut said = Error::failure(format!("caller {caller}: {}", error.message));
    said.detail = error.detail.clone();
    said
}

/// The contract's line for a failed caller, then the process's end: no caller is
/// joined, none of what they may be using mid-call is dropped under them.
fn end_after_failed_caller(id: &str, debug: bool, error: &Error) -> ! {
    if let (true, Some(detail)) = (debug, &error.detail) {
        eprintln!("{detail}");
    }
    eprintln!("{}", error.line(id));
    std::process::exit(i32::from(error.exit_code()))
}

/// Caller c's thread: one task an order until the orders end, each reported.
fn serve<C: TensorModel>(
    c: usize,
    mut state: C,
    orders: &Receiver<(Task, Work)>,
    report: &Sender<Done>,
    barrier: &Barrier,
    plan: &Plan,
) {
    for (task, mut work) in orders {
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            run(c, task, &mut state, &mut work, barrier, plan)
        }))
        .unwrap_or_else(|payload| {
            let said = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(Error::failure(format!("internal: panic: {said}")))
        });
        if report.send(Done { caller: c, work, outcome }).is_err() {
            return;
        }
    }
}

/// Calls `first .. first + calls` of `state` over the caller's own buffers.
fn calls_of<C: TensorModel>(
    state: &mut C,
    work: &mut Work,
    plan: &Plan,
    first: usize,
    calls: usize,
) -> Result<()> {
    let buffers = Buffers {
        inputs: &work.inputs,
        input_steps: &plan.input_steps,
        outputs: &mut work.outputs,
        output_steps: &plan.output_steps,
    };
    state.run_calls(buffers, first, calls)
}

fn run<C: TensorModel>(
    c: usize,
    task: Task,
    state: &mut C,
    work: &mut Work,
    barrier: &Barrier,
    plan: &Plan,
) -> Result<Report> {
    let mut report = Report::default();
    match task {
        Task::WarmUp => {
            let (warmup, seconds, n) = (plan.warmup, plan.warmup_time, plan.max_calls);
            let done = warm_up_calls(warmup, seconds, n, |i| calls_of(state, work, plan, i, 1))?;
            report.warmup_calls = done.calls;
        }
        Task::Round(k) => {
            barrier.wait();
            let cpu_start = thread_cpu_ns();
            report.start_ns = monotonic_ns();
            let start = Instant::now();
            calls_of(state, work, plan, 0, k)?;
            report.end = Some(Instant::now());
            report.start = Some(start);
            report.cpu_ns = thread_cpu_ns().saturating_sub(cpu_start);
        }
        Task::Latencies(k) => {
            barrier.wait();
            let (inputs, steps) = (&work.inputs, &plan.input_steps);
            report.latencies = time_each_call(state, inputs, steps, &plan.output_steps, k)?;
        }
        Task::Paced(pacing) => {
            pacing.serve(c, |slot| calls_of(state, work, plan, slot, 1))?;
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float_model::{FloatCallers, FloatModel};
    use crate::model::{Holding, Holds, Model};
    use crate::options::Parsed;
    use crate::testing::float_samples;

    /// y = x0 + x1 per sample; its callers share nothing but the answer's rule.
    struct Sum;

    impl Model for Sum {
        fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
            for (y, x) in output.iter_mut().zip(input.chunks_exact(2)) {
                *y = x[0] + x[1];
            }
            Ok(())
        }
        fn runtime_version(&self) -> String {
            "test".into()
        }
    }

    impl FloatCallers for Sum {
        type Caller<'a> = Sum;
        fn caller(&self) -> Result<Sum> {
            Ok(Sum)
        }
        fn holding(&self) -> Holding {
            Holding { holds: Holds::PerCaller, how: "a Sum each".into() }
        }
    }

    fn options(args: &[&str]) -> Options {
        match Options::parse_args("rust-test", args.iter().copied()).unwrap() {
            Parsed::Run(o) => o,
            Parsed::Help(_) => unreachable!(),
        }
    }

    fn floats_of(bytes: &[u8]) -> Vec<f32> {
        bytes.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect()
    }

    #[test]
    fn each_caller_takes_its_own_samples_and_every_callers_outputs_are_kept() {
        // 5 samples (x0 = i, x1 = 0), 3 callers of 2 calls: caller c's call i is (2c + i) mod 5.
        let inputs = float_samples(&[0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 4.0, 0.0]);
        let options = options(&["--calls=4", "--callers=3", "--warmup=7"]);
        let model = FloatModel(Sum);
        std::thread::scope(|scope| {
            let (mut callers, warmup) =
                Callers::start(scope, "rust-test", &model, &inputs, &options).unwrap();
            assert_eq!(warmup.calls, 7);
            assert!(callers.last_outputs().is_empty());
            let round = callers.round(2).unwrap();
            assert_eq!(round.caller_ns.len(), 3);
            assert!(round.caller_ns.iter().all(|&ns| ns <= round.ns), "{round:?}");
            assert_eq!(floats_of(callers.last_outputs()[0]), [0.0, 1.0, 2.0, 3.0, 4.0, 0.0]);
            assert_eq!(callers.latencies(4).unwrap().len(), 3 * 4);
            assert_eq!(callers.last_outputs()[0].len(), 6 * 4); // the round's, not the latencies'
            assert!(callers.round(5).is_err()); // more than --calls
            let notes = serde_json::to_value(callers.notes()).unwrap();
            assert_eq!(notes["callers"], 3);
            assert_eq!(notes["callers_hold"], "per caller");
        });
    }

    #[test]
    fn paced_callers_put_each_slots_last_arrival_in_the_outputs() {
        // 5 samples, --calls 4, 3 callers serving 7 arrivals at once: arrival j in slot
        // j mod 4 with the samples of call j mod 5; the outputs are the 4 slots in order.
        let inputs = float_samples(&[0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 4.0, 0.0]);
        let options = options(&["--calls=4", "--callers=3", "--warmup=2"]);
        let model = FloatModel(Sum);
        std::thread::scope(|scope| {
            let (mut callers, _) =
                Callers::start(scope, "rust-test", &model, &inputs, &options).unwrap();
            let paced = callers.paced(vec![0; 7], None).unwrap();
            assert_eq!((paced.calls, paced.slots, paced.callers), (7, 4, 3));
            assert_eq!(paced.caller_calls.iter().sum::<i64>(), 7);
            assert_eq!(floats_of(callers.last_outputs()[0]), [0.0, 1.0, 2.0, 3.0]);
            callers.round(2).unwrap(); // a round after it: caller after caller again
            assert_eq!(callers.last_outputs()[0].len(), 3 * 2 * 4);
        });
    }
}
