import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { DataError, UsageError } from '../kit/errors.js';
import { readInputs, requireSamples } from '../kit/inputs.js';
import { tempDir, writeInputs } from './helpers.js';

test('reads the samples', (t) => {
  const values = readInputs(writeInputs(tempDir(t), [1, 2, -3, 4.5]));
  assert.deepEqual([...values], [1, 2, -3, 4.5]);
  assert.ok(values instanceof Float32Array);
});

test('a size that is not a multiple of 8 bytes', (t) => {
  const path = writeInputs(tempDir(t), [1, 2, 3]);
  assert.throws(() => readInputs(path), (error) =>
    error instanceof DataError && error.path === path &&
    error.problem === 'size 12 bytes is not a whole number of samples (8 bytes each)');
});

for (const [name, bad] of [['NaN', NaN], ['Inf', -Infinity]]) {
  test(`a ${name} sample`, (t) => {
    const path = writeInputs(tempDir(t), [0, 0, 1, bad]);
    assert.throws(() => readInputs(path), (error) =>
      error instanceof DataError && error.path === path && error.problem === 'sample 1 is NaN or Inf');
  });
}

test('a missing file names itself', (t) => {
  const path = join(tempDir(t), 'inputs.f32');
  assert.throws(() => readInputs(path), (error) =>
    error instanceof DataError && error.path === path && error.problem.startsWith('missing'));
});

test('a folder in its place', (t) => {
  const path = join(tempDir(t), 'inputs.f32');
  mkdirSync(path);
  assert.throws(() => readInputs(path), (error) => error instanceof DataError && error.path === path);
});

test('too few samples is a usage error', () => {
  const options = { calls: 3, batch: 2 };
  requireSamples('in.f32', 6, options);
  assert.throws(() => requireSamples('in.f32', 5, options), (error) =>
    error instanceof UsageError && error.message === '--calls 3 x --batch 2 needs 6 samples but in.f32 holds 5');
});
