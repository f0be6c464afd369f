// float_model: our MLP's float model, call(input, output) on one Float32Array
// each way, seen as a tensor model of one float32 input 'x' [2] and one
// float32 output 'y' [1], so that the kit has one model path: one Rounds, one
// entry, one input reader, one output writer.

export const INPUT_WIDTH = 2; // floats per sample of our MLP's inputs.f32
export const OUTPUT_WIDTH = 1; // floats per sample of its outputs

/** The MLP's signature, as its artifacts name it (inputs.f32 holds x, reference.f32 y). */
export const MLP_SIGNATURE = Object.freeze({
  inputs: [{ name: 'x', dtype: 'float32', shape: [INPUT_WIDTH] }],
  outputs: [{ name: 'y', dtype: 'float32', shape: [OUTPUT_WIDTH] }],
});

/**
 * A float model as a tensor model: `call(inputs, outputs)` passes the one
 * input's and the one output's Float32Array on (a promise it returns too).
 * @returns {import('./model.js').Model}
 */
export function floatModel(model) {
  return {
    signature: () => MLP_SIGNATURE,
    call: (inputs, outputs) => model.call(inputs[0], outputs[0]),
    runtimeVersion: () => model.runtimeVersion(),
    notes: () => model.notes(),
  };
}
