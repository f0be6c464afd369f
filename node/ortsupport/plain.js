// The plain call, the same for every JavaScript binding of ONNX Runtime: the
// session made once; each call wraps its samples in a new ort.Tensor (a view,
// no copy), awaits session.run({x}) (answered with a freshly allocated
// output) and copies y's data out. `binding` is the binding's support module
// (./session.js for the native addon, ./web.js for WebAssembly).

import { checkOutput, runError, signature } from './graph.js';

class PlainModel {
  constructor(binding, path, session, options, io) {
    this.binding = binding;
    this.Tensor = binding.ort.Tensor;
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
      result = await this.session.run({ [this.input]: new this.Tensor('float32', input, this.dims) });
    } catch (error) {
      throw runError(this.path, error);
    }
    output.set(result[this.output].data);
  }

  runtimeVersion() {
    return this.binding.runtimeVersion();
  }

  sampleWidths() {
    return this.io.widths;
  }

  notes() {
    return { call: 'await session.run({x: new Tensor over the samples}) each call', ...this.binding.commonNotes(this.options) };
  }
}

/** The driver's load function for `binding`: the session, checked with one call. */
export function plainLoad(binding) {
  return async (options) => {
    const { path, session } = await binding.loadSession(options);
    const io = signature(path, session);
    const dims = [options.batch, io.features];
    const zeros = new binding.ort.Tensor('float32', new Float32Array(options.batch * io.features), dims);
    checkOutput(path, (await session.run({ [io.input]: zeros }))[io.output], options.batch, io.widths.output);
    return new PlainModel(binding, path, session, options, io);
  };
}
