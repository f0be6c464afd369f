// What the Node ONNX Runtime drivers share: the single-threaded session,
// checked loading, the output check and the version. onnxruntime-node loads
// its own native binding and libonnxruntime.so.1 from its package folder
// (node_modules/onnxruntime-node/bin/napi-v6/linux/x64/); nothing to point at.

import { statSync } from 'node:fs';
import { join } from 'node:path';

import ort from 'onnxruntime-node';

import { DataError, firstLine, missingArtifact } from '../kit/errors.js';

export { ort };

/** Names of the model's input and output, as the exporter writes them. */
export const INPUT_NAME = 'x';
export const OUTPUT_NAME = 'y';

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

/** The session over models/mlp.onnx, and its path; DataErrors name the file. */
export async function loadSession(options) {
  const path = join(options.models, 'mlp.onnx');
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw missingArtifact(path);
  }
  if (!stat.isFile()) throw new DataError(path, 'not a regular file');
  try {
    return { path, session: await ort.InferenceSession.create(path, sessionOptions(options.threads)) };
  } catch (error) {
    throw new DataError(path, `does not load as ONNX: ${firstLine(error?.message ?? error)}`);
  }
}

/** A DataError unless `output` is a float32 tensor [batch, 1]. */
export function checkOutput(path, output, batch) {
  const dims = output?.dims ?? [];
  if (output?.type !== 'float32' || dims.length !== 2 || dims[0] !== batch || dims[1] !== 1) {
    throw new DataError(
      path,
      `model answers with [${dims.join(', ')}] of type ${output?.type}, expected [${batch}, 1] float32`,
    );
  }
}

/** The DataError for a run that failed mid-round. */
export function runError(path, error) {
  return new DataError(path, `run failed: ${firstLine(error?.message ?? error)}`);
}

/**
 * onnxruntime-node's version (env.versions.node): its package carries the
 * libonnxruntime.so.1 of the same release.
 */
export function runtimeVersion() {
  return ort.env.versions.node;
}

/** Notes every ONNX Runtime driver adds. */
export function commonNotes(options) {
  return {
    library: `libonnxruntime.so.1 bundled in onnxruntime-node ${ort.env.versions.node}`,
    intra_op_threads: options.threads,
    cpu_ns: 'process.cpuUsage: user + system of the whole process (Node has no thread CPU clock)',
  };
}
