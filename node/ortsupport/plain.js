// The plain call, the same for every JavaScript binding of ONNX Runtime: the
// session made once; each call wraps each input's samples in a new ort.Tensor
// (a view, no copy), awaits session.run(feeds) (answered with freshly
// allocated outputs) and copies each output's bytes out. `binding` is the
// binding's support module (./session.js for the native addon, ./web.js for
// WebAssembly). A binding whose runs may not overlap on one session says why in
// RUNS_TAKE_TURNS (onnxruntime-web): its callers in flight then queue their runs,
// each starting when the one before it has ended. A driver that opts in
// (plainLoad(binding, { gathered: true })) takes contract 7's --gathered: the
// batcher's call of n samples wraps n samples, as the plain call wraps B (ONNX
// Runtime takes a changing batch dimension; each size is run once at load).

import { DTYPES, sampleSize } from '../kit/tensors.js';
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

  call(inputs, outputs) {
    return this.callAt(inputs, outputs, this.dims);
  }

  /** The plain call over `inputs` of the batch `dims` says (each input's [n, *shape]). */
  async callAt(inputs, outputs, dims) {
    const feeds = {};
    this.found.inputs.forEach((t, k) => {
      feeds[t.name] = new this.Tensor(t.dtype, inputs[k], dims[k]);
    });
    let results;
    try {
      results = await this.run(feeds);
    } catch (error) {
      throw runError(this.path, error);
    }
    storeOutputs(results, this.found, outputs);
  }

  /** Contract 7's call of the first n samples: n of each input wrapped, n of each output stored. */
  callGathered(inputs, outputs, n) {
    const sized = (arrays, tensors) => arrays.map((a, k) => a.subarray(0, n * sampleSize(tensors[k])));
    const dims = this.found.inputs.map((t) => batchDims(t, n));
    return this.callAt(sized(inputs, this.found.inputs), sized(outputs, this.found.outputs), dims);
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
    const gathered = this.gathered ? { gathered_call: 'the plain call over the n gathered (new Tensors of n)' } : {};
    return {
      call: 'await session.run({x: new Tensor over the samples}) each call',
      ...gathered,
      ...this.binding.commonNotes(this.options),
    };
  }
}

/** Zeros of each input's dtype, one call's batch. */
export function zeros(found, batch) {
  return found.inputs.map((t) => new DTYPES[t.dtype].Array(batch * t.shape.reduce((a, b) => a * b, 1)));
}

/** One run of zeros at `batch` through `model`'s session, its outputs checked. */
async function checkRun(binding, path, session, found, batch) {
  const feeds = {};
  zeros(found, batch).forEach((values, k) => {
    feeds[found.inputs[k].name] = new binding.ort.Tensor(found.inputs[k].dtype, values, batchDims(found.inputs[k], batch));
  });
  let results;
  try {
    results = await session.run(feeds);
  } catch (error) {
    throw runError(path, error);
  }
  checkOutputs(path, results, found, batch);
}

/**
 * The driver's load function for `binding`: the session, checked with one call; with
 * `gathered` (the driver's opt-in) and --gathered, its model takes the gathered call, each
 * size 1..B checked by a run (a graph that fixes its batch fails here, naming the file).
 */
export function plainLoad(binding, { gathered = false } = {}) {
  return async (options) => {
    const { path, session } = await binding.loadSession(options);
    const found = signature(path, session);
    const model = new PlainModel(binding, path, session, options, found);
    await checkRun(binding, path, session, found, options.batch);
    if (!gathered || !options.gathered) {
      model.callGathered = undefined; // the kit refuses --gathered for it
      return model;
    }
    for (let n = 1; n <= options.batch; n++) await checkRun(binding, path, session, found, n);
    model.gathered = true;
    return model;
  };
}
