// What every ONNX Runtime binding for JavaScript shares, whichever build of the
// engine it loads (the native addon, onnxruntime-node, or WebAssembly,
// onnxruntime-web; both speak onnxruntime-common's API): the session's options,
// checked loading of models/mlp.onnx, the model's signature and the output check.

import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { DataError, firstLine, missingArtifact } from '../kit/errors.js';
import { checkSampleWidths } from '../kit/inputs.js';

/**
 * The model's one float32 input [batch, F] and one float32 output [batch, ...],
 * as the session reads them (ours: x [batch, 2] and y [batch, 1]; a user's
 * model, --onnx, its own): { input, output, features, outputShape, widths }.
 */
export function signature(path, session) {
  const [inputs, outputs] = [session.inputMetadata, session.outputMetadata];
  if (inputs.length !== 1 || outputs.length !== 1) {
    throw new DataError(path, `has ${inputs.length} inputs and ${outputs.length} outputs, expected 1 and 1`);
  }
  const features = perSample(path, inputs[0]);
  if (features.length !== 1) throw new DataError(path, `input '${inputs[0].name}' is not [batch, F]`);
  const outputShape = perSample(path, outputs[0]);
  const width = outputShape.reduce((a, b) => a * b, 1);
  checkSampleWidths(path, dirname(path), { input: features[0], output: width });
  return {
    input: inputs[0].name,
    output: outputs[0].name,
    features: features[0],
    outputShape,
    widths: { input: features[0], output: width },
  };
}

/** A float32 tensor's dimensions after the batch one, each fixed. */
function perSample(path, meta) {
  if (!meta.isTensor || meta.type !== 'float32') throw new DataError(path, `'${meta.name}' is not a float32 tensor`);
  const rest = meta.shape.slice(1);
  if (meta.shape.length === 0 || rest.some((d) => typeof d !== 'number' || d < 1)) {
    throw new DataError(path, `'${meta.name}' is [${meta.shape.join(', ')}]: only the batch size may be symbolic`);
  }
  return rest;
}

/** `threads` intra-op threads, one inter-op thread, sequential, all graph optimisations (as cpp-onnxruntime). */
export function sessionOptions(threads) {
  return {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3, // errors only
  };
}

/** `ort`'s session over models/mlp.onnx, and its path; DataErrors name the file. */
export async function openSession(ort, options, extra = {}) {
  const path = join(options.models, 'mlp.onnx');
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw missingArtifact(path);
  }
  if (!stat.isFile()) throw new DataError(path, 'not a regular file');
  try {
    return { path, session: await ort.InferenceSession.create(path, { ...sessionOptions(options.threads), ...extra }) };
  } catch (error) {
    throw new DataError(path, `does not load as ONNX: ${firstLine(error?.message ?? error)}`);
  }
}

/** A DataError unless `output` is a float32 tensor of `batch` rows of `width` floats. */
export function checkOutput(path, output, batch, width = 1) {
  const dims = output?.dims ?? [];
  const perSampleWidth = dims.slice(1).reduce((a, b) => a * b, 1);
  if (output?.type !== 'float32' || dims.length < 1 || dims[0] !== batch || perSampleWidth !== width) {
    throw new DataError(
      path,
      `model answers with [${dims.join(', ')}] of type ${output?.type}, expected ${batch} rows of ${width} float32`,
    );
  }
}

/** The DataError for a run that failed mid-round. */
export function runError(path, error) {
  return new DataError(path, `run failed: ${firstLine(error?.message ?? error)}`);
}
