import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { DataError } from '../kit/errors.js';
import {
  PACED_LEAD_NS, Pacing, THREAD_SLEEP_SLACK_NS, readSchedule, since, waitInThread, waitOnLoop,
} from '../kit/paced.js';
import { tempDir } from './helpers.js';

function schedule(dir, name, offsets) {
  const path = join(dir, name);
  writeFileSync(path, new Uint8Array(BigInt64Array.from(offsets.map(BigInt)).buffer));
  return path;
}

test('a bad schedule is a DataError naming its file', (t) => {
  const dir = tempDir(t);
  const odd = join(dir, 'odd.i64');
  writeFileSync(odd, new Uint8Array(12));
  const cases = [
    [join(dir, 'none.i64'), 'cannot read the schedule'],
    [odd, '12 bytes is not'],
    [schedule(dir, 'back.i64', [5, 3]), 'non-decreasing'],
    [schedule(dir, 'neg.i64', [-1, 3]), 'non-negative'],
  ];
  for (const [path, says] of cases) {
    assert.throws(() => readSchedule(path), (e) => e instanceof DataError && e.message.startsWith(`${path}: `)
      && e.message.includes(says), path);
  }
  assert.deepEqual(Array.from(readSchedule(schedule(dir, 'ok.i64', [0, 0, 7]))), [0, 0, 7]);
});

for (const [where, wait] of [['on the loop', waitOnLoop], ['in a thread', waitInThread]]) {
  test(`a stalled call shows in the waits of the arrivals behind it (waiting ${where})`, async () => {
    // One caller, arrivals 1 ms apart; the call of arrival 3 blocks 30 ms. The arrivals due
    // during it start after it ends: their wait holds the rest of the stall, their service
    // does not.
    const gap = 1_000_000;
    const stall = 30_000_000;
    const k = 20;
    const pacing = Pacing.create(Float64Array.from({ length: k }, (_, j) => j * gap), 1, 8);
    let calls = 0;
    const call = () => {
      calls += 1;
      if (calls === 4) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, stall / 1e6);
    };
    pacing.begin(process.hrtime.bigint() + 20_000_000n);
    await pacing.serve(0, call, wait);
    const times = pacing.timings();
    assert.ok(times[0] < 0n, `the caller was not waiting for the first arrival: ${times[0]}`);
    for (let j = 4; j < k && stall - (j - 3) * gap > 0; j++) {
      const left = BigInt(stall - (j - 3) * gap);
      const started = times[k + j];
      assert.ok(started >= left, `arrival ${j}: started ${started} < ${left}`);
      assert.ok(times[2 * k + j] - started < BigInt(stall / 2), `arrival ${j}: the stall in its service`);
    }
    const answer = pacing.answer();
    assert.equal(answer.event, 'paced');
    assert.deepEqual([answer.calls, answer.slots, answer.caller_calls], [k, 8, [k]]);
    assert.equal(answer.end_ns - answer.start_ns, BigInt(answer.ns));
  });
}

test('a thread never comes back before due, from both sides of its sleep', () => {
  // Due past the sleep's slack (it sleeps, then spins) and within it (it spins only).
  for (const ahead of [THREAD_SLEEP_SLACK_NS * 3, THREAD_SLEEP_SLACK_NS / 4]) {
    for (let i = 0; i < 5; i++) {
      const start = process.hrtime.bigint();
      const back = waitInThread(start, ahead);
      const after = since(start);
      assert.ok(back >= ahead, `back ${back} ns before due ${ahead}`);
      assert.ok(after >= back, 'the reading it gave is not the clock\'s');
    }
  }
});

test('without a start the round starts a lead after the set-up', () => {
  const pacing = Pacing.create(new Float64Array(1), 1, 1);
  pacing.begin(null);
  const [start, ready] = pacing.clock;
  assert.equal(start - ready, BigInt(PACED_LEAD_NS));
});

test('arrivals past the slots wrap, and the last caller of each owns it', async () => {
  const pacing = Pacing.create(new Float64Array(10), 2, 4, true);
  pacing.begin(null);
  const slots = [];
  await pacing.serve(1, (slot) => { slots.push(slot); }, waitOnLoop);
  assert.deepEqual(slots, [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]);
  assert.deepEqual(pacing.slotCallers(), [1, 1, 1, 1]);
  assert.deepEqual(pacing.answer().caller_calls, [0, 10]);
  assert.ok(pacing.times.buffer instanceof SharedArrayBuffer); // a workers' round's state is shared
});

test('a failing call ends its caller\'s serving with the failure', async () => {
  const pacing = Pacing.create(new Float64Array(5), 1, 5);
  pacing.begin(null);
  await assert.rejects(pacing.serve(0, () => { throw new Error('no'); }, waitOnLoop), /no/);
  assert.deepEqual(pacing.answer().caller_calls, [0]);
});
