import assert from 'node:assert/strict';
import { test } from 'node:test';

import { UsageError } from '../kit/errors.js';
import { MIN_WARMUP_CALLS, Rounds, processCpuNanos, warmUpCalls } from '../kit/rounds.js';
import { floatModel } from '../kit/float_model.js';
import { SumModel, floatSamples } from './helpers.js';

const INPUTS = floatSamples([1, 2, 3, 4, 5, 6, 7, 8]);

for (const async of [true, false]) {
  test(`a round stores every call (${async ? 'async' : 'sync'} model)`, async () => {
    const model = new SumModel({ async });
    const rounds = new Rounds(floatModel(model), INPUTS, 4, 1);
    const before = process.hrtime.bigint();
    const round = await rounds.round(3);
    const after = process.hrtime.bigint();
    assert.equal(round.calls, 3);
    assert.ok(round.ns > 0 && round.cpu_ns >= 0 && Number.isSafeInteger(round.ns));
    // When it ran, on the clock every process reads (contract 4's processes).
    assert.ok(before <= round.start_ns && round.end_ns <= after);
    assert.equal(round.end_ns - round.start_ns, BigInt(round.ns));
    assert.equal(model.calls, 3);
    assert.deepEqual([...rounds.lastOutputs()[0]], [3, 7, 11]);
  });
}

test('a round with batches', async () => {
  const rounds = new Rounds(floatModel(new SumModel()), INPUTS, 2, 2);
  await rounds.round(2);
  assert.deepEqual([...rounds.lastOutputs()[0]], [3, 7, 11, 15]);
});

test('the outputs are NaN before each round', async () => {
  const model = new SumModel();
  const rounds = new Rounds(floatModel(model), INPUTS, 4, 1);
  await rounds.round(4);
  model.lazy = true;
  await rounds.round(2);
  assert.deepEqual([...rounds.lastOutputs()[0]], [NaN, NaN]);
});

test('warm-up call j takes the samples of call j mod N and is not a round', async () => {
  const seen = [];
  const model = new SumModel();
  model.call = async (input) => { seen.push(input[0]); };
  const rounds = new Rounds(floatModel(model), INPUTS, 2, 1);
  assert.equal((await rounds.warmUp(5)).calls, 5);
  assert.deepEqual(seen, [1, 3, 1, 3, 1]);
  assert.equal(rounds.lastOutputs().length, 0);
});

test('a warm-up by time makes a few calls, then stops at its budget', async () => {
  let made = 0;
  // A budget of 1 ns is spent by the first call: the few calls, then the end.
  const warmup = await warmUpCalls(10_000, 1e-9, 3, async () => { made += 1; });
  assert.equal(warmup.calls, MIN_WARMUP_CALLS);
  assert.equal(made, MIN_WARMUP_CALLS);
  const none = async () => {};
  assert.equal((await warmUpCalls(2, 1e-9, 3, none)).calls, 2); // fewer asked: the cap wins
  assert.equal((await warmUpCalls(1000, 0, 3, none)).calls, 1000); // no time limit
  assert.equal((await warmUpCalls(1000, 1000, 3, none)).calls, 1000); // a budget far off
});

test('latencies keep the round\'s outputs', async () => {
  const rounds = new Rounds(floatModel(new SumModel()), INPUTS, 4, 1);
  await rounds.round(1);
  const ns = await rounds.latencies(3);
  assert.ok(ns instanceof BigInt64Array && ns.length === 3 && ns[0] > 0n);
  assert.deepEqual([...rounds.lastOutputs()[0]], [3]);
});

test('K out of range is a usage error', async () => {
  const rounds = new Rounds(floatModel(new SumModel()), INPUTS, 2, 1);
  for (const k of [0, 3, -1, 1.5]) {
    await assert.rejects(rounds.round(k), UsageError);
    await assert.rejects(rounds.latencies(k), UsageError);
  }
});

test('the CPU clock moves', () => {
  const start = processCpuNanos();
  let x = 0;
  for (let i = 0; i < 5_000_000; i++) x += Math.sqrt(i);
  assert.ok(x > 0 && processCpuNanos() > start);
});
