import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { DataError, UsageError } from '../kit/errors.js';
import { MLP_SIGNATURE } from '../kit/float_model.js';
import { requireSamples } from '../kit/inputs.js';
import { readInputs } from '../kit/tensors.js';
import { tempDir, writeInputs } from './helpers.js';

test('reads our MLP\'s samples', (t) => {
  const dir = tempDir(t);
  writeInputs(dir, [1, 2, -3, 4.5]);
  const [{ values, count }] = readInputs(dir, MLP_SIGNATURE);
  assert.deepEqual([...values], [1, 2, -3, 4.5]);
  assert.ok(values instanceof Float32Array && count === 2);
});

test('a size that is not a multiple of 8 bytes', (t) => {
  const dir = tempDir(t);
  const path = writeInputs(dir, [1, 2, 3]);
  assert.throws(() => readInputs(dir, MLP_SIGNATURE), (error) =>
    error instanceof DataError && error.path === path &&
    error.problem === 'size 12 bytes is not a whole number of samples of \'x\' (8 bytes each)');
});

for (const [name, bad] of [['NaN', NaN], ['Inf', -Infinity]]) {
  test(`a ${name} sample`, (t) => {
    const dir = tempDir(t);
    const path = writeInputs(dir, [0, 0, 1, bad]);
    assert.throws(() => readInputs(dir, MLP_SIGNATURE), (error) =>
      error instanceof DataError && error.path === path && error.problem === 'sample 1 of \'x\' is NaN or Inf');
  });
}

test('a missing file names itself', (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'inputs.f32');
  assert.throws(() => readInputs(dir, MLP_SIGNATURE), (error) =>
    error instanceof DataError && error.path === path && error.problem.startsWith('missing'));
});

test('a folder in its place', (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'inputs.f32');
  mkdirSync(path);
  assert.throws(() => readInputs(dir, MLP_SIGNATURE), (error) => error instanceof DataError && error.path === path);
});

test('too few samples is a usage error', () => {
  const options = { calls: 3, batch: 2 };
  requireSamples('in.f32', 6, options);
  assert.throws(() => requireSamples('in.f32', 5, options), (error) =>
    error instanceof UsageError && error.message === '--calls 3 x --batch 2 needs 6 samples but in.f32 holds 5');
});
