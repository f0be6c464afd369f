// The WebAssembly build, onnxruntime-web, run by Node: the same engine and
// API as onnxruntime-node, compiled to wasm (the package's
// ort-wasm-simd-threaded.wasm: SIMD is always on in this release; its other
// builds add WebGPU or JSPI, which a CPU run does not use). `--threads` sets
// env.wasm.numThreads, read when the first session starts wasm: 1 runs on
// the calling thread, more start worker threads.

import * as ort from 'onnxruntime-web';

import { openSession } from './graph.js';

export { ort };

/** The wasm session over models/mlp.onnx, and its path; DataErrors name the file. */
export function loadSession(options) {
  ort.env.wasm.numThreads = options.threads;
  ort.env.logLevel = 'error';
  return openSession(ort, options, { executionProviders: ['wasm'] });
}

/**
 * Why runs in flight on one session take turns here (PlainModel queues them): onnxruntime-web's
 * run (1.30.0, dist/ort.mjs) takes its argument arrays from the wasm stack (stackSave,
 * stackAlloc), awaits (each input's preparation, then _OrtRun), and restores the stack in its
 * `finally`. Runs in flight on one session restore each other's frames out of order: 4 in
 * flight aborted ("run failed: Aborted()"), 2 ran only because their frames are the same size.
 */
export const RUNS_TAKE_TURNS =
  "onnxruntime-web's run keeps its arguments on the wasm stack across its awaits, so runs in "
  + 'flight on one session would restore each other\'s stack frames out of order (4 aborted)';

/** onnxruntime-web's version (env.versions.web). */
export function runtimeVersion() {
  return ort.env.versions.web;
}

/** Notes every onnxruntime-web driver adds. */
export function commonNotes(options) {
  return {
    library: `ort-wasm-simd-threaded.wasm of onnxruntime-web ${ort.env.versions.web}`,
    execution_provider: 'wasm',
    wasm_threads: ort.env.wasm.numThreads,
    intra_op_threads: options.threads,
    cpu_ns: 'process.cpuUsage: user + system of the whole process (Node has no thread CPU clock)',
  };
}
