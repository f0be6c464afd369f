import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { DataError } from '../kit/errors.js';
import { checkSampleWidths } from '../kit/inputs.js';
import { checkOutput, loadSession, ort, runtimeVersion, sessionOptions } from '../ortsupport/session.js';
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

test('an output of the wrong shape or type', () => {
  const good = new ort.Tensor('float32', new Float32Array(2), [2, 1]);
  checkOutput('m.onnx', good, 2);
  checkOutput('m.onnx', new ort.Tensor('float32', new Float32Array(12), [2, 2, 3]), 2, 6); // a user's [batch, 2, 3]
  assert.throws(() => checkOutput('m.onnx', good, 1), { message: 'm.onnx: model answers with [2, 1] of type float32, expected 1 rows of 1 float32' });
  assert.throws(() => checkOutput('m.onnx', new ort.Tensor('int32', new Int32Array(2), [2, 1]), 2), DataError);
  assert.throws(() => checkOutput('m.onnx', undefined, 2), DataError);
});

test('the exported model loads and answers [B, 1]', { skip: !existsSync(join(MODELS, 'mlp.onnx')) && 'no models/mlp.onnx (nox -s export)' }, async () => {
  const { session } = await loadSession({ models: MODELS, threads: 1 });
  const x = new ort.Tensor('float32', new Float32Array(6), [3, 2]);
  checkOutput('mlp.onnx', (await session.run({ x })).y, 3);
  assert.match(runtimeVersion(), /^\d+\.\d+\.\d+$/);
});

test('a model whose sample widths the artifact set does not fit', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'inputs.f32'), Buffer.alloc(48)); // 3 samples of 4
  writeFileSync(join(dir, 'reference.f32'), Buffer.alloc(24)); // 3 of 2
  const model = join(dir, 'm.onnx');
  checkSampleWidths(model, dir, { input: 4, output: 2 });
  assert.throws(() => checkSampleWidths(model, dir, { input: 4, output: 1 }), (error) =>
    error instanceof DataError && error.message.startsWith(`${model}: takes 4 floats a sample and answers 1`));
  assert.throws(() => checkSampleWidths(model, dir, { input: 2, output: 2 }), (error) =>
    error instanceof DataError && error.message.includes('for each of the 6 samples'));
  // Not a whole number of 5-float samples: left to reading inputs.f32, which names it.
  checkSampleWidths(model, dir, { input: 5, output: 2 });
});

test('the WebAssembly build: a missing model names the file', async (t) => {
  const dir = tempDir(t);
  await assert.rejects(web.loadSession({ models: dir, threads: 1 }), (error) =>
    error instanceof DataError && error.path === join(dir, 'mlp.onnx') && error.problem.startsWith('missing'));
});

test('the WebAssembly build loads the exported model on one wasm thread', { skip: !existsSync(join(MODELS, 'mlp.onnx')) && 'no models/mlp.onnx (nox -s export)' }, async () => {
  const { session } = await web.loadSession({ models: MODELS, threads: 1 });
  const x = new web.ort.Tensor('float32', new Float32Array(6), [3, 2]);
  checkOutput('mlp.onnx', (await session.run({ x })).y, 3);
  assert.equal(web.ort.env.wasm.numThreads, 1);
  assert.match(web.runtimeVersion(), /^\d+\.\d+\.\d+$/);
  assert.equal(web.commonNotes({ threads: 1 }).execution_provider, 'wasm');
});
