// rounds: the warm-up, one timed round and the latency pass of a tensor
// model (contract 3; our MLP's float model through floatModel), with the
// clock (process.hrtime.bigint, monotonic) and the CPU clock they read. Call
// i takes samples [i*B, (i+1)*B) of every input and stores each output's
// batch at its place in that output's array; before each round every output
// is filled with what no call gives (NaN, an integer's smallest value). Node gives
// no per-thread CPU clock: cpu_ns is the process's (process.cpuUsage, user +
// system over all its threads, in µs), and the drivers say so in their notes.

import { UsageError } from './errors.js';
import { Pacing, waitInThread } from './paced.js';
import { DTYPES, poison, sampleSize } from './tensors.js';

/**
 * A round, as the glossary of docs/contract.md names it: K calls timed as one block.
 * @typedef {object} Round
 * @property {number} calls K
 * @property {number} ns wall time of the block
 * @property {number} cpu_ns the process's CPU time over it
 * @property {bigint} start_ns when it began on process.hrtime's clock, CLOCK_MONOTONIC on
 *   Linux (libuv's uv_hrtime): the clock every process of the machine reads, so the harness
 *   can put N processes' rounds on one line (contract 4's processes); a BigInt (jsonLine
 *   writes its number, exact to the nanosecond for the first 104 days of uptime)
 * @property {bigint} end_ns when it ended, on the same clock
 */

/**
 * What the warm-up did; the ready line says it.
 * @typedef {object} Warmup
 * @property {number} calls
 * @property {number} ns
 */

/** The calls a time-limited warm-up makes at least (fewer only when --warmup asks fewer). */
export const MIN_WARMUP_CALLS = 5;

/**
 * The contract's warm-up: call(i) for warm-up calls j = 0, 1, ... with i = j mod n, until
 * `calls` of them, or until at least MIN_WARMUP_CALLS and `seconds` (> 0) have passed. The
 * clock is read after each call: the warm-up is not timed.
 * @returns {Promise<Warmup>}
 */
export async function warmUpCalls(calls, seconds, n, call) {
  const start = process.hrtime.bigint();
  const budget = BigInt(Math.round(seconds * 1e9));
  const least = Math.min(calls, MIN_WARMUP_CALLS);
  let done = 0;
  while (done < calls) {
    await call(done % n);
    done += 1;
    if (budget > 0n && done >= least && process.hrtime.bigint() - start >= budget) break;
  }
  return { calls: done, ns: Number(process.hrtime.bigint() - start) };
}

/** The process's CPU time, in ns (µs resolution). */
export function processCpuNanos() {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
}

/** Drives a tensor model over every input's samples. */
export class Rounds {
  /** `inputs`: each input's {values, count}, at least maxCalls*batch samples (requireSamples). */
  constructor(model, inputs, maxCalls, batch) {
    const signature = model.signature();
    this.model = model;
    this.maxCalls = maxCalls;
    this.inputs = inputs.map((samples) => samples.values);
    this.inSteps = signature.inputs.map((t) => batch * sampleSize(t));
    this.outSteps = signature.outputs.map((t) => batch * sampleSize(t));
    this.dtypes = signature.outputs.map((t) => t.dtype);
    this.outputs = signature.outputs.map((t, k) => new DTYPES[t.dtype].Array(maxCalls * this.outSteps[k]));
    this.scratch = signature.outputs.map((t, k) => new DTYPES[t.dtype].Array(this.outSteps[k]));
    this.lastCalls = 0;
  }

  /** Each input's samples of call i. */
  input(i) {
    return this.inputs.map((values, k) => values.subarray(i * this.inSteps[k], (i + 1) * this.inSteps[k]));
  }

  /** Each output's place for call i. */
  output(i) {
    return this.outputs.map((values, k) => values.subarray(i * this.outSteps[k], (i + 1) * this.outSteps[k]));
  }

  /** The warm-up (warmUpCalls): at most `calls` untimed calls, `seconds` once a few are made. */
  warmUp(calls, seconds = 0) {
    return warmUpCalls(calls, seconds, this.maxCalls, (i) => this.model.call(this.input(i), this.output(i)));
  }

  /**
   * Times calls 0 .. k-1 as one block, each output poisoned first (untimed).
   * @param {number} k
   * @returns {Promise<Round>}
   */
  async round(k) {
    checkCalls('round', k, this.maxCalls);
    this.poisonSlots(k);
    const { model } = this;
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < k; i++) {
      await model.call(this.input(i), this.output(i));
    }
    const end = process.hrtime.bigint();
    const cpu = process.cpuUsage(cpuStart);
    return { calls: k, ns: Number(end - start), cpu_ns: (cpu.user + cpu.system) * 1000, start_ns: start, end_ns: end };
  }

  /** Times calls 0 .. k-1 one at a time into scratch arrays (the outputs keep the last round's): ns per call. */
  async latencies(k) {
    checkCalls('latencies', k, this.maxCalls);
    const ns = new BigInt64Array(k);
    for (let i = 0; i < k; i++) {
      const start = process.hrtime.bigint();
      await this.model.call(this.input(i), this.scratch);
      ns[i] = process.hrtime.bigint() - start;
    }
    return ns;
  }

  /** Each output's first k calls filled with what no call gives: the outputs the next round leaves. */
  poisonSlots(k) {
    this.outputs.forEach((values, o) => poison(values.subarray(0, k * this.outSteps[o]), this.dtypes[o]));
    this.lastCalls = k;
  }

  /**
   * Contract 6 at one caller, on the event loop: serves the arrivals of `offsets` from
   * `startNs` (a BigInt, or null: PACED_LEAD_NS after the set-up), arrival j in slot j mod M.
   * @returns {Promise<Pacing>} the round, done
   */
  async paced(offsets, startNs) {
    const pacing = Pacing.create(offsets, 1, this.maxCalls);
    this.poisonSlots(pacing.filled);
    pacing.begin(startNs);
    // The one caller waits as a thread of its own: nothing else of the round is on the loop.
    await this.serveArrivals(pacing, 0, waitInThread);
    return pacing;
  }

  /** Caller `caller`'s part of a paced round: arrivals until none is left, each in its slot. */
  serveArrivals(pacing, caller, wait) {
    return pacing.serve(caller, (slot) => this.model.call(this.input(slot), this.output(slot)), wait);
  }

  /** Each output's last-round samples (k*B), in the model's order; none before any round. */
  lastOutputs() {
    if (this.lastCalls === 0) return [];
    return this.outputs.map((values, o) => values.subarray(0, this.lastCalls * this.outSteps[o]));
  }
}

/** A UsageError unless 1 <= k <= maxCalls (a round's or a latency pass's calls). */
export function checkCalls(command, k, maxCalls) {
  if (!Number.isInteger(k) || k < 1 || k > maxCalls) {
    throw new UsageError(`${command} K needs 1 <= K <= ${maxCalls} (--calls), got ${k}`);
  }
}
