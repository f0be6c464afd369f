// node-onnxruntime-reuse: the input ort.Tensor and the feeds object are made
// once; each call copies its samples into the tensor's data buffer, awaits
// session.run(feeds) and copies y's data out. (Preallocated outputs through
// run's `fetches` argument, also documented, measured slower here: see
// node/README.md.)

import { driverMain } from '../kit/main.js';
import {
  INPUT_NAME,
  OUTPUT_NAME,
  checkOutput,
  commonNotes,
  loadSession,
  ort,
  runError,
  runtimeVersion,
} from '../ortsupport/session.js';

class ReuseModel {
  constructor(path, session, options) {
    this.path = path;
    this.session = session;
    this.options = options;
    this.x = new Float32Array(options.batch * 2); // the input tensor's data, refilled each call
    this.feeds = { [INPUT_NAME]: new ort.Tensor('float32', this.x, [options.batch, 2]) };
  }

  async call(input, output) {
    this.x.set(input);
    let result;
    try {
      result = await this.session.run(this.feeds);
    } catch (error) {
      throw runError(this.path, error);
    }
    output.set(result[OUTPUT_NAME].data);
  }

  runtimeVersion() {
    return runtimeVersion();
  }

  notes() {
    return { call: 'await session.run(feeds made once), samples copied into the input tensor', ...commonNotes(this.options) };
  }
}

async function load(options) {
  const { path, session } = await loadSession(options);
  const model = new ReuseModel(path, session, options);
  checkOutput(path, (await session.run(model.feeds))[OUTPUT_NAME], options.batch);
  return model;
}

await driverMain('node-onnxruntime-reuse', load);
