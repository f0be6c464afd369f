// node-onnxruntime: onnxruntime-node called the plain way. The session is
// made once; each call wraps its samples in a new ort.Tensor (a view, no
// copy), awaits session.run({x}) (which ONNX Runtime answers with a freshly
// allocated output) and copies y's data out.

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

class PlainModel {
  constructor(path, session, options, io) {
    this.path = path;
    this.session = session;
    this.options = options;
    this.io = io;
    this.input = io.input;
    this.output = io.output;
    this.dims = [options.batch, io.features];
  }

  async call(input, output) {
    let result;
    try {
      result = await this.session.run({ [this.input]: new ort.Tensor('float32', input, this.dims) });
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
    return { call: 'await session.run({x: new Tensor over the samples}) each call', ...commonNotes(this.options) };
  }
}

async function load(options) {
  const { path, session } = await loadSession(options);
  const io = signature(path, session);
  const dims = [options.batch, io.features];
  const zeros = new ort.Tensor('float32', new Float32Array(options.batch * io.features), dims);
  checkOutput(path, (await session.run({ [io.input]: zeros }))[io.output], options.batch, io.widths.output);
  return new PlainModel(path, session, options, io);
}

await driverMain('node-onnxruntime', load);
