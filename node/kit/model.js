// model: what a driver writes. Its load function, `async load(options)`,
// returns an object with
//   call(input, output)   one call: `input` is a Float32Array view of batch*2
//                         samples, `output` one of batch*1 floats to store
//                         into; may return a promise (the kit awaits it)
//   runtimeVersion()      the runtime's own version string
//   notes()               {key: string | number}: how the runtime is called
// or, for a model of any inputs and outputs (contract 3, a user's ONNX model),
//   signature()           {inputs, outputs}: each [{name, dtype, shape}], the
//                         shape per sample, in the model's order
//   call(inputs, outputs) one typed array of its dtype per input (its batch of
//                         samples) and per output (to store into)
// with its driver started by driverMainTensors (kit/main.js).
// The kit does everything else (options, inputs, rounds, serve, result).

/**
 * A model, as the glossary of docs/contract.md names it: what a driver's load returns.
 * @typedef {object} Model
 * @property {(input: any, output: any) => (void | Promise<void>)} call one call
 * @property {() => string} runtimeVersion the runtime's own version string
 * @property {() => Object<string, string | number>} notes how the runtime is called
 * @property {() => {inputs: object[], outputs: object[]}} [signature] a tensor model's
 */

/**
 * Throws a TypeError unless `model` has the three methods above.
 * @param {any} model
 * @returns {Model}
 */
export function checkModel(model) {
  for (const method of ['call', 'runtimeVersion', 'notes']) {
    if (typeof model?.[method] !== 'function') {
      throw new TypeError(`the driver's model has no ${method}() method`);
    }
  }
  return model;
}
