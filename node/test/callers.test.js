import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { floatModel } from '../kit/float_model.js';
import { ONE_CALLER, runDriver } from '../kit/main.js';
import { SumModel, tempDir, writeInputs } from './helpers.js';

/** A float model of sums whose callers (in flight) are each a SumModel; caller `failing` fails. */
function sumCallers(failing = -1) {
  let made = 0;
  const model = floatModel(new SumModel());
  model.caller = () => floatModel(new SumModel({ fail: made++ === failing ? new Error('failed on purpose') : null }));
  return model;
}

async function run(args, { stdin = [], load = async () => sumCallers(), callers = 'in-flight' } = {}) {
  let stdout = '';
  let stderr = '';
  const status = await runDriver('node-test', args, load, {
    stdin,
    write: (s) => { stdout += s; },
    writeErr: (s) => { stderr += s; },
  }, { callers });
  return { status, stdout, lastErr: stderr.trimEnd().split('\n').at(-1) };
}

test('callers in flight each take their own samples; every caller\'s outputs are written', async (t) => {
  // 5 samples (x0 = i, x1 = 0); 3 callers of 2 calls: caller c's call i is (2c + i) mod 5.
  const dir = tempDir(t);
  writeInputs(dir, [0, 0, 1, 0, 2, 0, 3, 0, 4, 0]);
  const outputs = join(dir, 'o.f32');
  const { status, stdout } = await run(
    ['--models', dir, '--calls', '2', '--callers', '3', '--warmup', '4', '--outputs', outputs, '--serve'],
    { stdin: ['round 2', 'end'] },
  );
  assert.equal(status, 0);
  const [, round, result] = stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
  assert.equal(round.callers, 3);
  assert.equal(round.caller_ns.length, 3);
  assert.ok(round.caller_ns.every((ns) => ns <= round.ns));
  assert.equal(round.end_ns - round.start_ns, round.ns);
  assert.equal(result.callers, 3);
  assert.equal(result.notes.callers_hold, 'shared');
  const bytes = readFileSync(outputs);
  assert.deepEqual([0, 1, 2, 3, 4, 5].map((i) => bytes.readFloatLE(4 * i)), [0, 1, 2, 3, 4, 0]);
});

test('a failing caller is one line naming it', async (t) => {
  const dir = tempDir(t);
  writeInputs(dir, [1, 2, 3, 4]);
  const { status, lastErr } = await run(['--models', dir, '--calls', '2', '--callers', '3', '--warmup', '0', '--serve'],
    { stdin: ['round 2'], load: async () => sumCallers(1) });
  assert.equal(status, 1);
  assert.equal(lastErr, 'node-test: error: caller 1: failed on purpose');
});

test('a driver of one caller refuses more before loading', async () => {
  let loaded = false;
  const load = async () => { loaded = true; return sumCallers(); };
  const { status, lastErr } = await run(['--callers', '2'], { load, callers: null });
  assert.equal(status, 2);
  assert.equal(lastErr, `node-test: usage: ${ONE_CALLER}`);
  assert.equal(loaded, false);
});

test('paced callers in flight put each slot\'s last arrival in the outputs', async (t) => {
  // 5 samples, --calls 4, 3 callers serving 7 arrivals at once: arrival j in slot j mod 4 with
  // the samples of call j mod 5; the outputs are the 4 slots in order.
  const dir = tempDir(t);
  writeInputs(dir, [0, 0, 1, 0, 2, 0, 3, 0, 4, 0]);
  const schedule = join(dir, 'arrivals.i64');
  writeFileSync(schedule, new Uint8Array(new BigInt64Array(7).buffer));
  const outputs = join(dir, 'o.f32');
  const { status, stdout } = await run(['--models', dir, '--calls', '4', '--callers', '3', '--warmup', '2',
    '--outputs', outputs, '--latencies', join(dir, 'l.i64'), '--serve'], { stdin: [`paced ${schedule}`, 'end'] });
  assert.equal(status, 0);
  const [, paced] = stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
  assert.deepEqual([paced.event, paced.calls, paced.slots, paced.callers], ['paced', 7, 4, 3]);
  assert.equal(paced.caller_calls.reduce((a, b) => a + b), 7);
  const bytes = readFileSync(outputs);
  assert.deepEqual([0, 1, 2, 3].map((i) => bytes.readFloatLE(4 * i)), [0, 1, 2, 3]);
});
