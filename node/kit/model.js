// model: what a driver writes. Its load function, `async load(options)`,
// returns an object with
//   call(input, output)   one call: `input` is a Float32Array view of batch*2
//                         samples, `output` one of batch*1 floats to store
//                         into; may return a promise (the kit awaits it)
//   runtimeVersion()      the runtime's own version string
//   notes()               {key: string | number}: how the runtime is called
// and, where the model says its own sizes (a user's ONNX model, --onnx),
//   sampleWidths()        {input, output}: floats per sample in and out
//                         (else our MLP's 2 and 1)
// The kit does everything else (options, inputs, rounds, serve, result).

/** Throws a TypeError unless `model` has the three methods above. */
export function checkModel(model) {
  for (const method of ['call', 'runtimeVersion', 'notes']) {
    if (typeof model?.[method] !== 'function') {
      throw new TypeError(`the driver's model has no ${method}() method`);
    }
  }
  return model;
}
