// The plain call, the same for every JavaScript binding of ONNX Runtime: the
// session made once; each call wraps each input's samples in a new ort.Tensor
// (a view, no copy), awaits session.run(feeds) (answered with freshly
// allocated outputs) and copies each output's bytes out. `binding` is the
// binding's support module (./session.js for the native addon, ./web.js for
// WebAssembly). A binding whose runs may not overlap on one session says why in
// RUNS_TAKE_TURNS (onnxruntime-web): its callers in flight then queue their runs,
// each starting when the one before it has ended.

import { DTYPES } from '../kit/tensors.js';
import { batchDims, checkOutputs, runError, signature, storeOutputs } from './graph.js';

class PlainModel {
  constructor(binding, path, session, options, found) {
    this.binding = binding;
    this.Tensor = binding.ort.Tensor;
    this.path = path;
    this.session = session;
    this.options = options;
    this.found = found;
    this.dims = found.inputs.map((t) => batchDims(t, options.batch));
    // One caller awaits each run before the next: nothing to queue.
    this.takesTurns = options.callers > 1 && Boolean(binding.RUNS_TAKE_TURNS);
    this.lastRun = Promise.resolve();
  }

  /** session.run, after the run before it has ended where runs take turns. */
  run(feeds) {
    if (!this.takesTurns) return this.session.run(feeds);
    const run = this.lastRun.then(() => this.session.run(feeds));
    this.lastRun = run.catch(() => {});
    return run;
  }

  async call(inputs, outputs) {
    const feeds = {};
    this.found.inputs.forEach((t, k) => {
      feeds[t.name] = new this.Tensor(t.dtype, inputs[k], this.dims[k]);
    });
    let results;
    try {
      results = await this.run(feeds);
    } catch (error) {
      throw runError(this.path, error);
    }
    storeOutputs(results, this.found, outputs);
  }

  signature() {
    return this.found;
  }

  /** A caller of the one session (contract 4's 'in-flight'): the call keeps no state between calls. */
  caller() {
    return this;
  }

  get callersHow() {
    if (this.takesTurns) {
      return `one InferenceSession; the callers' session.run calls in flight take turns on it (${this.binding.RUNS_TAKE_TURNS})`;
    }
    return 'one InferenceSession; every caller\'s session.run in flight on it';
  }

  runtimeVersion() {
    return this.binding.runtimeVersion();
  }

  notes() {
    return { call: 'await session.run({x: new Tensor over the samples}) each call', ...this.binding.commonNotes(this.options) };
  }
}

/** Zeros of each input's dtype, one call's batch. */
export function zeros(found, batch) {
  return found.inputs.map((t) => new DTYPES[t.dtype].Array(batch * t.shape.reduce((a, b) => a * b, 1)));
}

/** The driver's load function for `binding`: the session, checked with one call. */
export function plainLoad(binding) {
  return async (options) => {
    const { path, session } = await binding.loadSession(options);
    const found = signature(path, session);
    const model = new PlainModel(binding, path, session, options, found);
    const feeds = {};
    zeros(found, options.batch).forEach((values, k) => {
      feeds[found.inputs[k].name] = new binding.ort.Tensor(found.inputs[k].dtype, values, model.dims[k]);
    });
    checkOutputs(path, await session.run(feeds), found, options.batch);
    return model;
  };
}
