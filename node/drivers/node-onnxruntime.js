// node-onnxruntime: onnxruntime-node called the plain way. The session is
// made once; each call wraps its samples in a new ort.Tensor (a view, no
// copy), awaits session.run({x}) (which ONNX Runtime answers with a freshly
// allocated output) and copies y's data out.

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

class PlainModel {
  constructor(path, session, options) {
    this.path = path;
    this.session = session;
    this.options = options;
    this.dims = [options.batch, 2];
  }

  async call(input, output) {
    let result;
    try {
      result = await this.session.run({ [INPUT_NAME]: new ort.Tensor('float32', input, this.dims) });
    } catch (error) {
      throw runError(this.path, error);
    }
    output.set(result[OUTPUT_NAME].data);
  }

  runtimeVersion() {
    return runtimeVersion();
  }

  notes() {
    return { call: 'await session.run({x: new Tensor over the samples}) each call', ...commonNotes(this.options) };
  }
}

async function load(options) {
  const { path, session } = await loadSession(options);
  const zeros = new ort.Tensor('float32', new Float32Array(options.batch * 2), [options.batch, 2]);
  checkOutput(path, (await session.run({ [INPUT_NAME]: zeros }))[OUTPUT_NAME], options.batch);
  return new PlainModel(path, session, options);
}

await driverMain('node-onnxruntime', load);
