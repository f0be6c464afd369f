// The native binding, onnxruntime-node: it loads its own addon and
// libonnxruntime.so.1 from its package folder
// (node_modules/onnxruntime-node/bin/napi-v6/linux/x64/); nothing to point at.

import ort from 'onnxruntime-node';

import { openSession } from './graph.js';

export { batchDims, checkOutputs, runError, sessionOptions, signature, storeOutputs } from './graph.js';
export { ort };

/** The session over models/mlp.onnx, and its path; DataErrors name the file. */
export function loadSession(options) {
  return openSession(ort, options);
}

/**
 * onnxruntime-node's version (env.versions.node): its package carries the
 * libonnxruntime.so.1 of the same release.
 */
export function runtimeVersion() {
  return ort.env.versions.node;
}

/** Notes every onnxruntime-node driver adds. */
export function commonNotes(options) {
  return {
    library: `libonnxruntime.so.1 bundled in onnxruntime-node ${ort.env.versions.node}`,
    intra_op_threads: options.threads,
    cpu_ns: 'process.cpuUsage: user + system of the whole process (Node has no thread CPU clock)',
  };
}
