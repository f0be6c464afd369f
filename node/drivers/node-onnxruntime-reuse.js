// node-onnxruntime-reuse: the input ort.Tensor and the feeds object are made
// once; each call copies its samples into the tensor's data buffer, awaits
// session.run(feeds) and copies y's data out. (Preallocated outputs through
// run's `fetches` argument, also documented, measured slower here: see
// node/README.md.)

import { driverMain } from '../kit/main.js';
import {
  checkOutput,
  commonNotes,
  loadSession,
  ort,
  runError,
  runtimeVersion,
  signature,
} from '../ortsupport/session.js';

class ReuseModel {
  constructor(path, session, options, io) {
    this.path = path;
    this.session = session;
    this.options = options;
    this.io = io;
    this.output = io.output;
    this.x = new Float32Array(options.batch * io.features); // the input tensor's data, refilled each call
    this.feeds = { [io.input]: new ort.Tensor('float32', this.x, [options.batch, io.features]) };
  }

  async call(input, output) {
    this.x.set(input);
    let result;
    try {
      result = await this.session.run(this.feeds);
    } catch (error) {
      throw runError(this.path, error);
    }
    output.set(result[this.output].data);
  }

  runtimeVersion() {
    return runtimeVersion();
  }

  sampleWidths() {
    return this.io.widths;
  }

  notes() {
    return { call: 'await session.run(feeds made once), samples copied into the input tensor', ...commonNotes(this.options) };
  }
}

async function load(options) {
  const { path, session } = await loadSession(options);
  const io = signature(path, session);
  const model = new ReuseModel(path, session, options, io);
  checkOutput(path, (await session.run(model.feeds))[io.output], options.batch, io.widths.output);
  return model;
}

await driverMain('node-onnxruntime-reuse', load);
