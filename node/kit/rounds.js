// rounds: the warm-up, one timed round and the latency pass, with the clock
// (process.hrtime.bigint, monotonic) and the CPU clock they read. Node gives
// no per-thread CPU clock: cpu_ns is the process's (process.cpuUsage, user +
// system over all its threads, in µs), and the drivers say so in their notes.

import { INPUT_WIDTH, OUTPUT_WIDTH } from './inputs.js';
import { UsageError } from './errors.js';

/**
 * A round, as the glossary of docs/contract.md names it: K calls timed as one block.
 * @typedef {object} Round
 * @property {number} calls K
 * @property {number} ns wall time of the block
 * @property {number} cpu_ns the process's CPU time over it
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

/**
 * Drives a model over the inputs: call i takes samples [i*B, (i+1)*B) and
 * stores its outputs at [i*B, (i+1)*B) of the outputs.
 */
export class Rounds {
  /** `inputs` holds at least maxCalls*batch samples (requireSamples). */
  constructor(model, inputs, maxCalls, batch) {
    this.model = model;
    this.inputs = inputs;
    this.maxCalls = maxCalls;
    this.inStep = batch * INPUT_WIDTH;
    this.outStep = batch * OUTPUT_WIDTH;
    this.outputs = new Float32Array(maxCalls * this.outStep);
    this.scratch = new Float32Array(this.outStep); // one call's outputs, for the latency pass
    this.lastCalls = 0;
  }

  /** The warm-up (warmUpCalls): at most `calls` untimed calls, `seconds` once a few are made. */
  warmUp(calls, seconds = 0) {
    return warmUpCalls(calls, seconds, this.maxCalls, (i) => this.model.call(this.input(i), this.output(i)));
  }

  /**
   * Times calls 0 .. k-1 as one block. The outputs are filled with NaN first
   * (untimed), so that a call that stores nothing shows up as an error.
   * @param {number} k
   * @returns {Promise<Round>}
   */
  async round(k) {
    this.check('round', k);
    this.outputs.fill(NaN, 0, k * this.outStep);
    this.lastCalls = k;
    const { model, inputs, outputs, inStep, outStep } = this;
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < k; i++) {
      await model.call(inputs.subarray(i * inStep, (i + 1) * inStep), outputs.subarray(i * outStep, (i + 1) * outStep));
    }
    const ns = process.hrtime.bigint() - start;
    const cpu = process.cpuUsage(cpuStart);
    return { calls: k, ns: Number(ns), cpu_ns: (cpu.user + cpu.system) * 1000 };
  }

  /** Times calls 0 .. k-1 one at a time into a scratch buffer (the outputs keep the last round's): ns per call. */
  async latencies(k) {
    this.check('latencies', k);
    const ns = new BigInt64Array(k);
    for (let i = 0; i < k; i++) {
      const start = process.hrtime.bigint();
      await this.model.call(this.input(i), this.scratch);
      ns[i] = process.hrtime.bigint() - start;
    }
    return ns;
  }

  /** The last round's outputs (k*B floats; empty before any round). */
  lastOutputs() {
    return this.outputs.subarray(0, this.lastCalls * this.outStep);
  }

  input(i) {
    return this.inputs.subarray(i * this.inStep, (i + 1) * this.inStep);
  }

  output(i) {
    return this.outputs.subarray(i * this.outStep, (i + 1) * this.outStep);
  }

  check(command, k) {
    checkCalls(command, k, this.maxCalls);
  }
}

/** A UsageError unless 1 <= k <= maxCalls (a round's or a latency pass's calls). */
export function checkCalls(command, k, maxCalls) {
  if (!Number.isInteger(k) || k < 1 || k > maxCalls) {
    throw new UsageError(`${command} K needs 1 <= K <= ${maxCalls} (--calls), got ${k}`);
  }
}
