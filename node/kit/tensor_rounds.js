// tensor_rounds: the rounds of a tensor model (contract 3), as rounds.js's
// are of our MLP's one float input and output: the warm-up, one timed round,
// the latency pass. Call i takes samples [i*B, (i+1)*B) of every input and
// stores each output's batch at its place in that output's array; before
// each round every output is filled with what no call gives (NaN, an
// integer's smallest value).

import { checkCalls, warmUpCalls } from './rounds.js';
import { DTYPES, poison, sampleSize } from './tensors.js';

export class TensorRounds {
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
   * @returns {Promise<import('./rounds.js').Round>}
   */
  async round(k) {
    checkCalls('round', k, this.maxCalls);
    this.outputs.forEach((values, o) => poison(values.subarray(0, k * this.outSteps[o]), this.dtypes[o]));
    this.lastCalls = k;
    const { model } = this;
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < k; i++) {
      await model.call(this.input(i), this.output(i));
    }
    const ns = process.hrtime.bigint() - start;
    const cpu = process.cpuUsage(cpuStart);
    return { calls: k, ns: Number(ns), cpu_ns: (cpu.user + cpu.system) * 1000 };
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

  /** Each output's last-round samples (k*B), in the model's order; none before any round. */
  lastOutputs() {
    if (this.lastCalls === 0) return [];
    return this.outputs.map((values, o) => values.subarray(0, this.lastCalls * this.outSteps[o]));
  }
}
