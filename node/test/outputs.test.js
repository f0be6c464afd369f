import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { DataError } from '../kit/errors.js';
import { writeInt64s, writeOutputs } from '../kit/outputs.js';
import { tempDir } from './helpers.js';

test('floats are float32 little-endian', (t) => {
  const path = join(tempDir(t), 'o.f32');
  writeOutputs(path, [Float32Array.from([1.5, -2])]);
  assert.deepEqual([...readFileSync(path)], [0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0]);
  writeOutputs(path, [Float32Array.from([0, 0, 1.5]).subarray(2)]); // a view writes only itself
  assert.deepEqual([...readFileSync(path)], [0, 0, 0xc0, 0x3f]);
});

test('latencies are int64 little-endian', (t) => {
  const path = join(tempDir(t), 'l.i64');
  writeInt64s(path, BigInt64Array.from([1n, -1n, 1n << 40n]));
  const bytes = readFileSync(path);
  assert.equal(bytes.length, 24);
  assert.equal(bytes.readBigInt64LE(0), 1n);
  assert.equal(bytes.readBigInt64LE(8), -1n);
  assert.equal(bytes.readBigInt64LE(16), 1n << 40n);
  writeInt64s(path, [5, 6]);
  assert.equal(readFileSync(path).readBigInt64LE(8), 6n);
});

test('an empty round writes an empty file', (t) => {
  const path = join(tempDir(t), 'o.f32');
  writeOutputs(path, [new Float32Array(0)]);
  assert.equal(statSync(path).size, 0);
});

test('an unwritable path names the file', (t) => {
  const path = join(tempDir(t), 'no', 'such', 'o.f32');
  assert.throws(() => writeOutputs(path, [Float32Array.of(1)]), (error) => error instanceof DataError && error.path === path);
  assert.throws(() => writeInt64s(path, [1]), DataError);
});
