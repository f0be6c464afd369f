// What every ONNX Runtime binding for JavaScript shares, whichever build of the
// engine it loads (the native addon, onnxruntime-node, or WebAssembly,
// onnxruntime-web; both speak onnxruntime-common's API): the session's options,
// checked loading of models/mlp.onnx, the model's signature (contract 3) and
// the output check.

import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { DataError, firstLine, missingArtifact } from '../kit/errors.js';
import { DTYPES, bytesOf, checkReferences } from '../kit/tensors.js';

/**
 * Every input and output of the session (contract 3): {inputs, outputs}, each
 * [{name, dtype, shape}] with the shape per sample, in the model's order,
 * checked against the reference files beside the model.
 */
export function signature(path, session) {
  const read = (metas, role) => metas.map((meta) => tensorOf(path, meta, role));
  const found = { inputs: read(session.inputMetadata, 'input'), outputs: read(session.outputMetadata, 'output') };
  if (found.inputs.length === 0) throw new DataError(path, 'has no inputs');
  checkReferences(path, dirname(path), found);
  return found;
}

/** One input or output as the session declares it: a contract dtype, a batch dimension, the rest fixed. */
function tensorOf(path, meta, role) {
  if (!meta.isTensor) throw new DataError(path, `${role} '${meta.name}' is not a tensor`);
  if (!(meta.type in DTYPES)) {
    throw new DataError(path, `${role} '${meta.name}' is ${meta.type}, which the contract does not feed`);
  }
  const rest = meta.shape.slice(1);
  if (meta.shape.length === 0 || rest.some((d) => typeof d !== 'number' || d < 1)) {
    throw new DataError(path, `${role} '${meta.name}' is [${meta.shape.join(', ')}]: only the batch size may be symbolic`);
  }
  return { name: meta.name, dtype: meta.type, shape: rest };
}

/** [batch, ...shape] */
export function batchDims(tensor, batch) {
  return [batch, ...tensor.shape];
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

/** A DataError unless each output of one run (`results`, by name) is of its dtype and [batch, ...shape]. */
export function checkOutputs(path, results, signature, batch) {
  for (const tensor of signature.outputs) {
    const output = results[tensor.name];
    const dims = output?.dims ?? [];
    const expected = batchDims(tensor, batch);
    if (output?.type !== tensor.dtype || dims.length !== expected.length || dims.some((d, i) => d !== expected[i])) {
      throw new DataError(
        path,
        `model answers '${tensor.name}' with [${dims.join(', ')}] of type ${output?.type}, ` +
          `expected [${expected.join(', ')}] ${tensor.dtype}`,
      );
    }
  }
}

/** Copies each output's bytes of one run into its place (never element by element: float16 may come as Float16Array). */
export function storeOutputs(results, signature, outputs) {
  signature.outputs.forEach((tensor, k) => bytesOf(outputs[k]).set(bytesOf(results[tensor.name].data)));
}

/** The DataError for a run that failed mid-round. */
export function runError(path, error) {
  return new DataError(path, `run failed: ${firstLine(error?.message ?? error)}`);
}
