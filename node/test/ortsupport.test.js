import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { DataError } from '../kit/errors.js';
import { checkOutputs, loadSession, ort, runtimeVersion, sessionOptions, signature } from '../ortsupport/session.js';
import * as web from '../ortsupport/web.js';
import { tempDir } from './helpers.js';

const MODELS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'models');

test('single-threaded, sequential by default', () => {
  assert.deepEqual(
    { ...sessionOptions(1), logSeverityLevel: undefined },
    { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all', logSeverityLevel: undefined },
  );
  assert.equal(sessionOptions(3).intraOpNumThreads, 3);
});

test('a missing model names the file', async (t) => {
  const dir = tempDir(t);
  await assert.rejects(loadSession({ models: dir, threads: 1 }), (error) =>
    error instanceof DataError && error.path === join(dir, 'mlp.onnx') && error.problem.startsWith('missing'));
});

test('a model that is not ONNX names the file, in one line', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'mlp.onnx'), 'junk\n');
  await assert.rejects(loadSession({ models: dir, threads: 1 }), (error) =>
    error instanceof DataError && error.problem.startsWith('does not load as ONNX') && !error.message.includes('\n'));
});

const MLP = { inputs: [{ name: 'x', dtype: 'float32', shape: [2] }], outputs: [{ name: 'y', dtype: 'float32', shape: [1] }] };

test('an output of the wrong shape or type', () => {
  const good = { y: new ort.Tensor('float32', new Float32Array(2), [2, 1]) };
  checkOutputs('m.onnx', good, MLP, 2);
  assert.throws(() => checkOutputs('m.onnx', good, MLP, 1), {
    message: "m.onnx: model answers 'y' with [2, 1] of type float32, expected [1, 1] float32",
  });
  assert.throws(() => checkOutputs('m.onnx', { y: new ort.Tensor('int32', new Int32Array(2), [2, 1]) }, MLP, 2), DataError);
  assert.throws(() => checkOutputs('m.onnx', {}, MLP, 2), DataError);
});

test('the exported model loads and answers [B, 1]', { skip: !existsSync(join(MODELS, 'mlp.onnx')) && 'no models/mlp.onnx (nox -s export)' }, async () => {
  const { path, session } = await loadSession({ models: MODELS, threads: 1 });
  assert.deepEqual(signature(path, session), MLP);
  const x = new ort.Tensor('float32', new Float32Array(6), [3, 2]);
  checkOutputs('mlp.onnx', await session.run({ x }), MLP, 3);
  assert.match(runtimeVersion(), /^\d+\.\d+\.\d+$/);
});

test('the WebAssembly build: a missing model names the file', async (t) => {
  const dir = tempDir(t);
  await assert.rejects(web.loadSession({ models: dir, threads: 1 }), (error) =>
    error instanceof DataError && error.path === join(dir, 'mlp.onnx') && error.problem.startsWith('missing'));
});

test('the WebAssembly build loads the exported model on one wasm thread', { skip: !existsSync(join(MODELS, 'mlp.onnx')) && 'no models/mlp.onnx (nox -s export)' }, async () => {
  const { session } = await web.loadSession({ models: MODELS, threads: 1 });
  const x = new web.ort.Tensor('float32', new Float32Array(6), [3, 2]);
  checkOutputs('mlp.onnx', await session.run({ x }), MLP, 3);
  assert.equal(web.ort.env.wasm.numThreads, 1);
  assert.match(web.runtimeVersion(), /^\d+\.\d+\.\d+$/);
  assert.equal(web.commonNotes({ threads: 1 }).execution_provider, 'wasm');
});
