// paced: contract 6's paced rounds. The calls arrive on the harness's schedule
// (K arrival offsets in ns, readSchedule) from START, an absolute time on the
// machine's monotonic clock (process.hrtime.bigint: CLOCK_MONOTONIC, as
// Python's time.monotonic_ns and C++'s steady_clock), or from PACED_LEAD_NS
// after the set-up when START is absent; the set-up (slots, poisoned outputs,
// callers released) is done before it. A free caller takes the next arrival
// (one counter for all callers, Atomics.add on shared memory across workers),
// waits for its time if it is early, makes the call and keeps three times of
// it from its scheduled arrival (due): when it took it (negative: it was
// waiting), when the call started, when it ended. Wait is start - due, service
// end - start: a call that queued behind a slow one carries the queue in its
// wait, not its service (no coordinated omission). Arrival j is served in slot
// j mod M (M: the calls the run's arrays hold) of the caller that took it, with
// that slot's samples; the outputs hold each slot's last arrival.
//
// How a Node.js caller waits, by where it runs (the contract's sleep, then a
// spin, as near as Node allows; the round's own waits measure it):
// - alone on its thread (one caller, the batcher, a worker): Atomics.wait with
//   a timeout to THREAD_SLEEP_SLACK_NS before the arrival, then a spin on the
//   clock that cannot yield its core: Node has no sched_yield, and its shortest
//   sleep (Atomics.wait with a 1 µs timeout) took 74 µs here. The sleep stops
//   short by more than SPIN_NS because Atomics.wait wakes late: over sleeps of
//   a few ms, p50 70 µs and p99 250 µs late on this VM, so a sleep to SPIN_NS
//   before woke after the arrival about once in a hundred (the clock late p99
//   93-192 µs of 20261205T1945Z-serving-policy-value-node-clock). The spin reads
//   the clock once every SPIN_CHECK_LOADS loads of a shared word: each reading
//   (process.hrtime.bigint) allocates, and a spin that read it back to back
//   filled the young generation every ~2 ms, whose scavenges made it late
//   (p99 58 µs late at 200 µs gaps; 7 µs reading once every 64 loads, about
//   0.5 µs). A waiting thread holds its core at most THREAD_SLEEP_SLACK_NS an
//   arrival.
// - on the event loop beside other callers (callers in flight): a timer to
//   LOOP_SLEEP_SLACK_NS before the arrival (Node's timers count whole
//   milliseconds and fire late: up to 0.84 ms in 50 timers of 1 ms on this
//   VM), then a check of the clock each turn of the loop (setImmediate, about
//   1.7 µs a turn here), so the other callers' calls run while one waits. The
//   loop's thread stays busy while it spins: it holds its core.
//
// Times within the round are Numbers of ns from its start (exact to 2^53 ns),
// the start itself a BigInt.

import { readFileSync } from 'node:fs';
import { setImmediate as immediate, setTimeout as sleep } from 'node:timers/promises';

import { DataError } from './errors.js';

/** A caller early for its arrival sleeps until this long before it, then spins (the contract's). */
export const SPIN_NS = 200_000;
/** A round without START begins this long after the set-up is done (the callers' release off the clock too). */
export const PACED_LEAD_NS = 1_000_000;
/** Alone on its thread a caller sleeps (Atomics.wait) to this long before an arrival, then spins: past its wakes' lateness. */
export const THREAD_SLEEP_SLACK_NS = 500_000;
/** A spinning caller reads the clock once every this many loads of a shared word (about 0.5 µs here): a reading allocates. */
export const SPIN_CHECK_LOADS = 64;
/** On the event loop a timer sleeps to this long before an arrival: SPIN_NS and a millisecond of the timer's lateness. */
export const LOOP_SLEEP_SLACK_NS = SPIN_NS + 1_000_000;

/**
 * paced FILE's arrival offsets: K >= 1 int64 ns, non-negative and non-decreasing (a
 * DataError naming the file otherwise), as a Float64Array.
 */
export function readSchedule(path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new DataError(path, `cannot read the schedule (${error.code ?? error.message})`);
  }
  if (bytes.length === 0 || bytes.length % 8 !== 0) {
    throw new DataError(path, `a schedule is int64 arrival offsets; ${bytes.length} bytes is not`);
  }
  const offsets = new Float64Array(bytes.length / 8);
  for (let j = 0; j < offsets.length; j++) {
    const offset = bytes.readBigInt64LE(8 * j);
    if (offset < 0n || (j > 0 && Number(offset) < offsets[j - 1])) {
      throw new DataError(path, 'arrival offsets must be non-negative and non-decreasing');
    }
    if (offset > BigInt(Number.MAX_SAFE_INTEGER)) throw new DataError(path, `arrival ${j} is past 2^53 ns`);
    offsets[j] = Number(offset);
  }
  return offsets;
}

/** ns since `start` (a BigInt on process.hrtime's clock), as a Number. */
export function since(start) {
  return Number(process.hrtime.bigint() - start);
}

/** A caller on the event loop back at `due` ns after `start` or just after: the clock's reading then. */
export async function waitOnLoop(start, due) {
  const left = due - since(start);
  if (left > LOOP_SLEEP_SLACK_NS) await sleep(Math.floor((left - LOOP_SLEEP_SLACK_NS) / 1e6));
  for (;;) {
    const now = since(start);
    if (now >= due) return now;
    await immediate();
  }
}

const nap = new Int32Array(new SharedArrayBuffer(4)); // never notified: Atomics.wait on it is a sleep

/** A caller alone on its thread back at `due` ns after `start` or just after: the clock's reading then. */
export function waitInThread(start, due) {
  const left = due - since(start);
  if (left > THREAD_SLEEP_SLACK_NS) Atomics.wait(nap, 0, 0, (left - THREAD_SLEEP_SLACK_NS) / 1e6);
  for (;;) {
    const now = since(start);
    if (now >= due) return now;
    for (let k = 0; k < SPIN_CHECK_LOADS; k++) Atomics.load(nap, 0);
  }
}

/** Typed arrays over `SharedArrayBuffer`s when shared (workers), else plain ones. */
function arrays(shared) {
  const Buffer = shared ? SharedArrayBuffer : ArrayBuffer;
  return (Type, length) => new Type(new Buffer(Type.BYTES_PER_ELEMENT * Math.max(length, 1)), 0, length);
}

/**
 * One paced round's arrivals and what each caller made of them. Its state is typed arrays
 * (`buffers`), shared memory when its callers are workers: each arrival's times written by
 * the one caller that took it, each caller's figures by itself, read once every caller has
 * answered.
 */
export class Pacing {
  /** A round of `offsets` (a Float64Array) for `callers` callers over `slots` slots. */
  static create(offsets, callers, slots, shared = false) {
    const make = arrays(shared);
    const count = offsets.length;
    const mine = make(Float64Array, count);
    mine.set(offsets);
    return new Pacing({
      offsets: mine,
      slots,
      next: make(Int32Array, 1),
      clock: make(BigInt64Array, 2), // the round's start and when the set-up was done
      times: make(Float64Array, 3 * count),
      servedBy: make(Int32Array, count),
      callerCalls: make(Float64Array, callers),
      ends: make(Float64Array, callers).fill(-Infinity),
    });
  }

  /** `buffers`: a Pacing's state, as create makes it (or as a worker receives it). */
  constructor(buffers) {
    this.buffers = buffers;
    Object.assign(this, buffers);
  }

  /** The slots the round fills: min(K, M). */
  get filled() {
    return Math.min(this.offsets.length, this.slots);
  }

  /** The set-up is done: the round starts at `startNs` (a BigInt), or PACED_LEAD_NS from now. */
  begin(startNs) {
    const ready = process.hrtime.bigint();
    this.clock[1] = ready;
    this.clock[0] = startNs ?? ready + BigInt(PACED_LEAD_NS);
  }

  /**
   * Caller `caller` serves arrivals until none is left: `call(slot)` makes a call in that
   * slot, `wait(start, due)` waits for an arrival (waitOnLoop or waitInThread).
   */
  async serve(caller, call, wait) {
    const { offsets, times, servedBy, next, slots } = this;
    const count = offsets.length;
    const start = this.clock[0];
    let served = 0;
    let last = -Infinity;
    try {
      for (let j = Atomics.add(next, 0, 1); j < count; j = Atomics.add(next, 0, 1)) {
        const due = offsets[j];
        const now = since(start);
        let begin = now;
        if (now < due) {
          const back = wait(start, due);
          begin = typeof back === 'number' ? back : await back;
        }
        await call(j % slots);
        last = since(start);
        times[j] = now - due;
        times[count + j] = begin - due;
        times[2 * count + j] = last - due;
        servedBy[j] = caller;
        served += 1;
      }
    } finally {
      this.callerCalls[caller] = served;
      this.ends[caller] = last;
    }
  }

  /** The caller that served each filled slot's last arrival. */
  slotCallers() {
    const count = this.offsets.length;
    const owners = new Array(this.filled).fill(0);
    for (let j = count - this.filled; j < count; j++) owners[j % this.slots] = this.servedBy[j];
    return owners;
  }

  /** The --latencies of the round: K taken, then K started, then K ended, int64 ns from each due time. */
  timings() {
    return BigInt64Array.from(this.times, (t) => BigInt(Math.round(t)));
  }

  /** The paced answer, once every caller is done. */
  answer() {
    const last = Math.max(...this.ends); // -Infinity when no caller served one (a failed round)
    const ns = Number.isFinite(last) ? Math.round(last) : 0;
    const [start, ready] = this.clock;
    return {
      event: 'paced',
      calls: this.offsets.length,
      ns,
      start_ns: start,
      end_ns: start + BigInt(ns),
      ready_ns: ready,
      slots: this.filled,
      callers: this.callerCalls.length,
      caller_calls: Array.from(this.callerCalls),
      ...(this.batchSizes ? { batch_sizes: Array.from(this.batchSizes) } : {}), // the batcher's (contract 7)
    };
  }
}
