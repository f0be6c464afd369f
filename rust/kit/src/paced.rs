//! Contract 6's paced rounds. The calls arrive on the harness's schedule (K
//! arrival offsets in ns, read by [`read_schedule`]) from START, an absolute
//! time on the machine's monotonic clock (`CLOCK_MONOTONIC`, as Python's
//! `time.monotonic_ns` and C++'s `steady_clock`: [`monotonic_ns`], through the
//! vDSO), or from [`PACED_LEAD_NS`] after the set-up when START is absent; the
//! set-up (slots, poisoned outputs, callers released) is done before it. A free
//! caller takes the next arrival (one atomic counter for all callers), waits for
//! its time if it is early ([`wait_until`]: a sleep to [`SPIN_NS`] before it,
//! then a spin on the clock that yields the core each turn), makes the call and
//! keeps three times of it from its scheduled arrival (due): when it took it
//! (negative: it was waiting), when the call started, when it ended. Wait is
//! start - due, service end - start: a call that queued behind a slow one
//! carries the queue in its wait, not its service (no coordinated omission).
//! Arrival j is served in slot j mod M (M: the calls the run's buffers hold) of
//! the caller that took it, with that slot's samples; the outputs hold each
//! slot's last arrival.

use std::path::Path;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering::Relaxed};
use std::time::Duration;

use serde::Serialize;

use crate::errors::{Error, Result};
use crate::rounds::monotonic_ns;

/// A caller early for its arrival sleeps until this long before it, then spins: a
/// sleep overshoots by tens of µs, a call of our MLP takes a few.
pub const SPIN_NS: i64 = 200_000;
/// A round without START begins this long after the set-up is done, so that
/// releasing the callers is off the clock too.
pub const PACED_LEAD_NS: i64 = 1_000_000;

/// What a paced round gives the dialogue: its answer (`Serialize`, the fields in
/// the contract's order, after `"event": "paced"`) and its times.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Paced {
    pub calls: usize,
    /// From the round's start to the last call's end.
    pub ns: i64,
    /// The round's start on the monotonic clock, and its end.
    pub start_ns: i64,
    pub end_ns: i64,
    /// When the set-up was done.
    pub ready_ns: i64,
    /// The slots the round filled: min(K, M).
    pub slots: usize,
    pub callers: usize,
    /// The arrivals each caller served.
    pub caller_calls: Vec<i64>,
    /// The batcher's (contract 7): `batch_sizes[k - 1]` the calls that took k arrivals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub batch_sizes: Vec<i64>,
    /// K taken, then K started, then K ended, ns from each arrival's due time.
    #[serde(skip)]
    pub times: Vec<i64>,
}

/// `paced FILE`'s arrival offsets: K >= 1 int64 ns, non-negative and
/// non-decreasing (else a data error naming it).
pub fn read_schedule(path: &Path) -> Result<Vec<i64>> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::data(path, format!("cannot read the schedule ({e})")))?;
    if bytes.is_empty() || bytes.len() % 8 != 0 {
        let problem = format!("a schedule is int64 arrival offsets; {} bytes is not", bytes.len());
        return Err(Error::data(path, problem));
    }
    let offsets: Vec<i64> =
        bytes.chunks_exact(8).map(|b| i64::from_le_bytes(b.try_into().expect("8 bytes"))).collect();
    if offsets[0] < 0 || offsets.windows(2).any(|w| w[1] < w[0]) {
        return Err(Error::data(path, "arrival offsets must be non-negative and non-decreasing"));
    }
    Ok(offsets)
}

/// Back on the monotonic clock at `due_ns` or just after (a sleep, then a spin that
/// yields the core each turn: a caller waiting must not hold the core from one
/// calling); the clock's reading then.
pub fn wait_until(due_ns: i64) -> i64 {
    let left = due_ns - now_ns();
    if left > SPIN_NS {
        std::thread::sleep(Duration::from_nanos((left - SPIN_NS) as u64));
    }
    loop {
        let now = now_ns();
        if now >= due_ns {
            return now;
        }
        std::thread::yield_now(); // sched_yield on Linux
    }
}

pub(crate) fn now_ns() -> i64 {
    monotonic_ns() as i64
}

/// One paced round's arrivals and what each caller made of them, shared by the
/// callers. Each arrival's times are written by the one caller that took it, each
/// caller's figures by itself (relaxed stores: the round's end orders them, as the
/// callers report after it).
pub struct Pacing {
    offsets: Vec<i64>,
    slots: usize,
    times: Vec<AtomicI64>,
    served_by: Vec<AtomicUsize>,
    caller_calls: Vec<AtomicI64>,
    ends: Vec<AtomicI64>,
    start_ns: i64,
    ready_ns: i64,
    next: AtomicUsize,
}

impl Pacing {
    /// `slots`: M, the calls the run's buffers hold.
    pub fn new(offsets: Vec<i64>, callers: usize, slots: usize) -> Self {
        let count = offsets.len();
        Self {
            offsets,
            slots,
            times: (0..3 * count).map(|_| AtomicI64::new(0)).collect(),
            served_by: (0..count).map(|_| AtomicUsize::new(0)).collect(),
            caller_calls: (0..callers).map(|_| AtomicI64::new(0)).collect(),
            ends: (0..callers).map(|_| AtomicI64::new(0)).collect(),
            start_ns: 0,
            ready_ns: 0,
            next: AtomicUsize::new(0),
        }
    }

    /// The slots the round fills: min(K, M).
    pub fn filled(&self) -> usize {
        self.offsets.len().min(self.slots)
    }

    /// The set-up is done: the round starts at `start_ns`, or [`PACED_LEAD_NS`] from
    /// now. Called before the callers are released.
    pub fn begin(&mut self, start_ns: Option<i64>) {
        self.ready_ns = now_ns();
        self.start_ns = start_ns.unwrap_or(self.ready_ns + PACED_LEAD_NS);
    }

    /// Caller `caller` serves arrivals until none is left; `call(slot)` makes a call in
    /// that slot. A failing call ends its caller's serving with the error.
    pub fn serve(&self, caller: usize, mut call: impl FnMut(usize) -> Result<()>) -> Result<()> {
        let count = self.offsets.len();
        let (mut served, mut last) = (0, 0);
        let outcome = loop {
            let j = self.next.fetch_add(1, Relaxed);
            if j >= count {
                break Ok(());
            }
            let due = self.start_ns + self.offsets[j];
            let now = now_ns();
            let begin = if now < due { wait_until(due) } else { now };
            if let Err(e) = call(j % self.slots) {
                break Err(e);
            }
            last = now_ns();
            self.times[j].store(now - due, Relaxed);
            self.times[count + j].store(begin - due, Relaxed);
            self.times[2 * count + j].store(last - due, Relaxed);
            self.served_by[j].store(caller, Relaxed);
            served += 1;
        };
        self.caller_calls[caller].store(served, Relaxed);
        self.ends[caller].store(last, Relaxed);
        outcome
    }

    /// The arrival offsets, each arrival's times (K taken, K started, K ended), the
    /// round's start and its slots: what the batcher (batcher.rs) serves by.
    pub(crate) fn offsets(&self) -> &[i64] {
        &self.offsets
    }

    pub(crate) fn times(&self) -> &[AtomicI64] {
        &self.times
    }

    pub(crate) fn start_ns(&self) -> i64 {
        self.start_ns
    }

    pub(crate) fn slots(&self) -> usize {
        self.slots
    }

    /// The one batcher served every arrival, its last call ending at `end_ns`.
    pub(crate) fn served_all(&self, end_ns: i64) {
        self.caller_calls[0].store(self.offsets.len() as i64, Relaxed);
        self.ends[0].store(end_ns, Relaxed);
    }

    /// The caller that served each filled slot's last arrival.
    pub fn slot_callers(&self) -> Vec<usize> {
        let count = self.offsets.len();
        let mut owners = vec![0; self.filled()];
        for j in count - self.filled()..count {
            owners[j % self.slots] = self.served_by[j].load(Relaxed);
        }
        owners
    }

    /// The answer's figures and the times, once every caller is done.
    pub fn result(&self) -> Paced {
        let end = self.ends.iter().map(|e| e.load(Relaxed)).max().unwrap_or(self.start_ns);
        Paced {
            calls: self.offsets.len(),
            ns: end - self.start_ns,
            start_ns: self.start_ns,
            end_ns: end,
            ready_ns: self.ready_ns,
            slots: self.filled(),
            callers: self.caller_calls.len(),
            caller_calls: self.caller_calls.iter().map(|c| c.load(Relaxed)).collect(),
            batch_sizes: Vec::new(),
            times: self.times.iter().map(|t| t.load(Relaxed)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::Kind;
    use crate::testing::scratch_dir;

    fn schedule(name: &str, offsets: &[i64]) -> std::path::PathBuf {
        let path = scratch_dir().join(name);
        std::fs::write(&path, offsets.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>())
            .unwrap();
        path
    }

    #[test]
    fn a_bad_schedule_is_a_data_error_naming_its_file() {
        let odd = scratch_dir().join("odd.i64");
        std::fs::write(&odd, [0_u8; 12]).unwrap();
        for (path, says) in [
            (scratch_dir().join("none.i64"), "cannot read the schedule"),
            (odd, "12 bytes is not"),
            (schedule("back.i64", &[5, 3]), "non-decreasing"),
            (schedule("neg.i64", &[-1, 3]), "non-negative"),
        ] {
            let e = read_schedule(&path).unwrap_err();
            assert_eq!(e.kind, Kind::Data);
            assert!(e.message.starts_with(&format!("{}: ", path.display())), "{}", e.message);
            assert!(e.message.contains(says), "{}", e.message);
        }
        assert_eq!(read_schedule(&schedule("ok.i64", &[0, 0, 7])).unwrap(), [0, 0, 7]);
    }

    #[test]
    fn a_stalled_call_shows_in_the_waits_of_the_arrivals_behind_it() {
        // One caller, arrivals 1 ms apart; the call of arrival 3 sleeps 30 ms. The arrivals
        // due during it start after it ends: their wait holds the rest of the stall, their
        // service does not.
        let (gap, stall) = (1_000_000_i64, 30_000_000_i64);
        let offsets: Vec<i64> = (0..20).map(|j| j * gap).collect();
        let mut pacing = Pacing::new(offsets, 1, 8);
        pacing.begin(Some(now_ns() + 20_000_000)); // ahead of any set-up of the test's own
        let mut calls = 0;
        pacing
            .serve(0, |_| {
                calls += 1;
                if calls == 4 {
                    std::thread::sleep(Duration::from_nanos(stall as u64));
                }
                Ok(())
            })
            .unwrap();
        let p = pacing.result();
        let k = 20;
        let (taken, started, ended) = (&p.times[..k], &p.times[k..2 * k], &p.times[2 * k..]);
        assert!(taken[0] < 0, "the caller was not waiting for the first arrival: {}", taken[0]);
        for j in 4..k {
            let left = stall - (j as i64 - 3) * gap;
            if left <= 0 {
                break;
            }
            assert!(started[j] >= left, "arrival {j}: started {} < {left}", started[j]);
            assert!(ended[j] - started[j] < stall / 2, "arrival {j}: the stall in its service");
        }
        assert_eq!((p.calls, p.slots, p.caller_calls.clone()), (k, 8, vec![k as i64]));
        assert_eq!(p.ns, p.end_ns - p.start_ns);
        assert!(p.ready_ns < p.start_ns);
    }

    #[test]
    fn without_a_start_the_round_starts_a_lead_after_the_set_up() {
        let mut pacing = Pacing::new(vec![0], 1, 1);
        pacing.begin(None);
        pacing.serve(0, |_| Ok(())).unwrap();
        let p = pacing.result();
        assert_eq!(p.start_ns - p.ready_ns, PACED_LEAD_NS);
    }

    #[test]
    fn arrivals_past_the_slots_wrap_and_their_last_caller_owns_each_slot() {
        let mut pacing = Pacing::new(vec![0; 10], 2, 4);
        pacing.begin(None);
        let mut slots = Vec::new();
        pacing
            .serve(1, |slot| {
                slots.push(slot);
                Ok(())
            })
            .unwrap();
        assert_eq!(slots, [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]);
        assert_eq!(pacing.slot_callers(), [1, 1, 1, 1]);
        assert_eq!(pacing.result().caller_calls, [0, 10]);
    }

    #[test]
    fn a_failing_call_ends_its_callers_serving_with_the_error() {
        let mut pacing = Pacing::new(vec![0; 5], 1, 5);
        pacing.begin(None);
        let e = pacing.serve(0, |_| Err(Error::failure("no"))).unwrap_err();
        assert_eq!(e.message, "no");
        assert_eq!(pacing.result().caller_calls, [0]);
    }
}
