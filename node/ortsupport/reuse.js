// The reuse call of onnxruntime-node: every input's ort.Tensor and the feeds
// object are made once; each call copies its samples into the tensors' data,
// awaits session.run(feeds) and copies each output's bytes out. (Preallocated
// outputs through run's `fetches` argument, also documented, measured slower
// here: see node/README.md.) Its callers (contract 4) in flight on one event
// loop share the session, each with tensors and feeds of its own.

import { zeros } from './plain.js';
import {
  batchDims,
  checkOutputs,
  commonNotes,
  loadSession,
  ort,
  runError,
  runtimeVersion,
  signature,
  storeOutputs,
} from './session.js';

class ReuseModel {
  constructor(path, session, options, found) {
    this.path = path;
    this.session = session;
    this.options = options;
    this.found = found;
    this.x = zeros(found, options.batch); // the input tensors' data, refilled each call
    this.feeds = {};
    found.inputs.forEach((t, k) => {
      this.feeds[t.name] = new ort.Tensor(t.dtype, this.x[k], batchDims(t, options.batch));
    });
  }

  async call(inputs, outputs) {
    for (let k = 0; k < inputs.length; k++) this.x[k].set(inputs[k]);
    let results;
    try {
      results = await this.session.run(this.feeds);
    } catch (error) {
      throw runError(this.path, error);
    }
    storeOutputs(results, this.found, outputs);
  }

  /** A caller of the one session (contract 4's 'in-flight'): its own tensors and feeds. */
  caller() {
    return new ReuseModel(this.path, this.session, this.options, this.found);
  }

  get callersHow() {
    return 'one InferenceSession; each caller its own input tensors and feeds, its run in flight on it';
  }

  signature() {
    return this.found;
  }

  runtimeVersion() {
    return runtimeVersion();
  }

  notes() {
    return { call: 'await session.run(feeds made once), samples copied into the input tensors', ...commonNotes(this.options) };
  }
}

/** The driver's load function: the session, checked with one call. */
export async function reuseLoad(options) {
  const { path, session } = await loadSession(options);
  const found = signature(path, session);
  const model = new ReuseModel(path, session, options, found);
  checkOutputs(path, await session.run(model.feeds), found, options.batch);
  return model;
}
