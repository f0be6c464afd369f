// model: what a driver writes. Its load function, `async load(options)`,
// returns an object with
//   signature()           {inputs, outputs}: each [{name, dtype, shape}], the
//                         shape per sample, in the model's order
//   call(inputs, outputs) one typed array of its dtype per input (its batch of
//                         samples) and per output (to store into); may return
//                         a promise (the kit awaits it)
//   runtimeVersion()      the runtime's own version string
//   notes()               {key: string | number}: how the runtime is called
// and, where its runtime takes a changing batch without reloading (contract 7's
// --gathered), callGathered(inputs, outputs, n): one call of the first n
// samples of each input's arrays into the first n of each output's.
// Our MLP's float model, call(input, output) on one Float32Array each way,
// is one through floatModel (kit/float_model.js).
// The kit does everything else (options, inputs, rounds, serve, result).

/**
 * A model, as the glossary of docs/contract.md names it: what a driver's load returns.
 * @typedef {object} Model
 * @property {() => {inputs: object[], outputs: object[]}} signature its inputs and outputs
 * @property {(inputs: any[], outputs: any[]) => (void | Promise<void>)} call one call
 * @property {() => string} runtimeVersion the runtime's own version string
 * @property {() => Object<string, string | number>} notes how the runtime is called
 */

/**
 * Throws a TypeError unless `model` has the four methods above.
 * @param {any} model
 * @returns {Model}
 */
export function checkModel(model) {
  for (const method of ['signature', 'call', 'runtimeVersion', 'notes']) {
    if (typeof model?.[method] !== 'function') {
      throw new TypeError(`the driver's model has no ${method}() method`);
    }
  }
  return model;
}
