import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { DataError } from '../kit/errors.js';
import { runDriver } from '../kit/main.js';
import { Rounds } from '../kit/rounds.js';
import { bytesOf, checkReferences, describe, poison, readInputs, tensorFile } from '../kit/tensors.js';
import { tempDir } from './helpers.js';

// Two int64 inputs of 4; a float32 [2] and an int64 [] output.
const TOKENS = {
  inputs: [{ name: 'ids', dtype: 'int64', shape: [4] }, { name: 'mask', dtype: 'int64', shape: [4] }],
  outputs: [{ name: 'logits', dtype: 'float32', shape: [2] }, { name: 'label', dtype: 'int64', shape: [] }],
};

const int64s = (...values) => bytesOf(BigInt64Array.from(values, BigInt));

test('files are named by place and dtype', () => {
  assert.equal(tensorFile('inputs', 0, 'float32'), 'inputs.f32');
  assert.equal(tensorFile('inputs', 1, 'int64'), 'inputs1.i64');
  assert.equal(tensorFile('reference', 2, 'bool'), 'reference2.bool');
  assert.equal(tensorFile('reference', 0, 'float16'), 'reference.f16');
  assert.equal(describe({ name: 'x', dtype: 'float16', shape: [3, 32, 32] }), "'x' float16 [3, 32, 32]");
});

test('each input is read from its file, checked, naming the file', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'inputs.i64'), int64s(1, 2, 3, 4, 5, 6, 7, 8));
  writeFileSync(join(dir, 'inputs1.i64'), int64s(1, 1, 1, 1, 1, 1, 1, 1));
  const [ids, mask] = readInputs(dir, TOKENS);
  assert.equal(ids.count, 2);
  assert.ok(ids.values instanceof BigInt64Array && ids.values[7] === 8n && mask.count === 2);
  writeFileSync(join(dir, 'inputs1.i64'), int64s(...new Array(12).fill(0)));
  assert.throws(() => readInputs(dir, TOKENS), (error) =>
    error instanceof DataError && error.path === join(dir, 'inputs1.i64') && error.problem.startsWith('holds 3 samples, inputs.i64 holds 2'));
  const half = { inputs: [{ name: 'x', dtype: 'float16', shape: [2] }], outputs: [] };
  writeFileSync(join(dir, 'inputs.f16'), bytesOf(Uint16Array.of(0x3c00, 0x3c00, 0x3c00, 0x7c00)));
  assert.throws(() => readInputs(dir, half), { message: `${join(dir, 'inputs.f16')}: sample 1 of 'x' is NaN or Inf` });
});

test('each reference holds one sample of its output per input sample', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'inputs.i64'), Buffer.alloc(96)); // 3 samples of 4
  writeFileSync(join(dir, 'reference.f32'), Buffer.alloc(24)); // 3 x 2
  const model = join(dir, 'm.onnx');
  checkReferences(model, dir, TOKENS); // no reference1.i64: the harness's to name
  writeFileSync(join(dir, 'reference1.i64'), Buffer.alloc(16));
  assert.throws(() => checkReferences(model, dir, TOKENS), {
    message: `${model}: answers 'label' int64 [] a sample; ${join(dir, 'reference1.i64')} (16 bytes) does not hold one for each of the 3 samples of the inputs`,
  });
});

/** Per sample: ids[0] + ids[1] + bias as an int64 label and, halved, a float32 score. */
class PairModel {
  constructor() {
    this.store = true;
    this.firstIds = [];
  }
  signature() {
    return {
      inputs: [{ name: 'ids', dtype: 'int64', shape: [2] }, { name: 'bias', dtype: 'int64', shape: [] }],
      outputs: [{ name: 'label', dtype: 'int64', shape: [] }, { name: 'score', dtype: 'float32', shape: [] }],
    };
  }
  call([ids, bias], [label, score]) {
    this.firstIds.push(ids[0]);
    if (!this.store) return;
    for (let s = 0; s < bias.length; s++) {
      label[s] = ids[2 * s] + ids[2 * s + 1] + bias[s];
      score[s] = Number(label[s]) / 2;
    }
  }
  runtimeVersion() {
    return '0';
  }
  notes() {
    return {};
  }
}

const pairInputs = (samples) => [
  { values: BigInt64Array.from({ length: 2 * samples }, (_, i) => BigInt(i)), count: samples },
  { values: new BigInt64Array(samples).fill(100n), count: samples },
];

test('tensor rounds feed every input and store and poison every output', async () => {
  const model = new PairModel();
  const rounds = new Rounds(model, pairInputs(6), 3, 2);
  await rounds.warmUp(4);
  assert.deepEqual(rounds.lastOutputs(), []);
  await rounds.round(2);
  const [labels, scores] = rounds.lastOutputs();
  assert.deepEqual([...labels], [101n, 105n, 109n, 113n]);
  assert.deepEqual([...scores], [50.5, 52.5, 54.5, 56.5]);
  assert.equal((await rounds.latencies(3)).length, 3);
  assert.deepEqual(model.firstIds, [0n, 4n, 8n, 0n, 0n, 4n, 0n, 4n, 8n]);
  model.store = false;
  await rounds.round(2);
  assert.ok(rounds.lastOutputs()[0].every((v) => v === -(2n ** 63n)) && rounds.lastOutputs()[1].every(Number.isNaN));
  await assert.rejects(rounds.round(4));
  const bits = new Uint16Array(2);
  poison(bits, 'float16');
  assert.deepEqual([...bits], [0x7e00, 0x7e00]);
});

test('a tensor driver writes every output, one after another', async (t) => {
  const dir = tempDir(t);
  const [ids, bias] = pairInputs(3);
  writeFileSync(join(dir, 'inputs.i64'), bytesOf(ids.values));
  writeFileSync(join(dir, 'inputs1.i64'), bytesOf(bias.values));
  const outputs = join(dir, 'o.bin');
  const errors = [];
  const status = await runDriver('node-test', ['--models', dir, '--calls', '3', '--warmup', '2', '--outputs', outputs],
    async () => new PairModel(), { stdin: [], write: () => {}, writeErr: (text) => errors.push(text) });
  assert.equal(status, 0, errors.join(''));
  const written = readFileSync(outputs);
  assert.equal(written.length, 3 * 8 + 3 * 4);
  assert.equal(written.readBigInt64LE(16), 109n);
});
