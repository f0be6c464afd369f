import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Batcher } from '../kit/batcher.js';
import { floatModel } from '../kit/float_model.js';
import { Rounds } from '../kit/rounds.js';
import { SumModel, floatSamples } from './helpers.js';

/** The batcher at batch 2 over `calls` x 2 samples (i, 1): sample i's sum i + 1 names it. */
function sumBatcher(calls, maxDelayUs) {
  const sum = new SumModel();
  const model = floatModel(sum);
  const inputs = floatSamples(Array.from({ length: 2 * calls }, (_, i) => [i, 1]).flat());
  const rounds = new Rounds(model, inputs, calls, 2);
  return { batcher: new Batcher(rounds, model, inputs, calls, 2, maxDelayUs), sum };
}

test('a burst of B is one call and each arrival its own sample', async () => {
  // Three bursts of two, 1 ms apart, then one alone: a full call does not wait D (a second);
  // the last, alone, waits it out (it cannot know none follows).
  const { batcher, sum } = sumBatcher(3, 1_000_000);
  const offsets = Float64Array.from([0, 0, 1e6, 1e6, 2e6, 2e6, 3e6]);
  const pacing = await batcher.paced(offsets, null);
  const answer = pacing.answer();
  assert.deepEqual([answer.batch_sizes, answer.caller_calls, answer.slots], [[1, 3], [7], 6]);
  assert.equal(sum.calls, 4);
  const started = pacing.timings().subarray(7, 14);
  assert.ok(started[0] === started[1] && started[6] >= 1_000_000_000n, `${started}`);
  // Arrival 6 took sample 0 (6 mod 6): its sum 1 is at slot 0.
  assert.deepEqual([...batcher.lastOutputs()[0]], [1, 2, 3, 4, 5, 6]);
});

test('a round after the paced one is the model\'s own', async () => {
  const { batcher } = sumBatcher(2, 0);
  await batcher.paced(Float64Array.from([0, 5, 10]), null);
  await batcher.round(2);
  assert.deepEqual([...batcher.lastOutputs()[0]], [1, 2, 3, 4]);
});

test('a gathered call takes only the arrivals it gathered', async () => {
  const { batcher, sum } = sumBatcher(3, 0);
  const sizes = [];
  batcher.gathered = true;
  batcher.model = {
    callGathered(inputs, outputs, n) {
      sizes.push(n);
      return sum.call(inputs[0].subarray(0, 2 * n), outputs[0].subarray(0, n));
    },
  };
  // A burst of two, then one alone: calls of 2 and 1, not two of B = 2.
  await batcher.paced(Float64Array.from([0, 0, 5e6]), null);
  assert.deepEqual(sizes, [2, 1]);
  assert.deepEqual([...batcher.lastOutputs()[0]], [1, 2, 3]);
});
