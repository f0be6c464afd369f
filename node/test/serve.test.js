import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { DataError, UsageError } from '../kit/errors.js';
import { DEFAULTS } from '../kit/options.js';
import { floatModel } from '../kit/float_model.js';
import { Rounds } from '../kit/rounds.js';
import { STANDALONE_LATENCY_CALLS, parseCommand, runScript, serve, standaloneScript } from '../kit/serve.js';
import { SumModel, floatSamples, tempDir } from './helpers.js';

test('commands', () => {
  const cases = {
    'round 5': { kind: 'round', calls: 5 },
    '  round\t10 \r': { kind: 'round', calls: 10 },
    'latencies 1': { kind: 'latencies', calls: 1 },
    'end': { kind: 'end', calls: 0 },
    'end\r': { kind: 'end', calls: 0 },
  };
  for (const [line, want] of Object.entries(cases)) assert.deepEqual(parseCommand(line, 10), want, line);
});

test('bad commands are usage errors', () => {
  const cases = {
    '': "unknown command ''",
    'start': "unknown command 'start'",
    'round': "unknown command 'round'",
    'round 1 2': 'unknown command',
    'end now': 'unknown command',
    'ROUND 1': 'unknown command',
    'round x': "round K needs an integer K, got 'x'",
    'round 1.5': 'needs an integer K',
    'round 0': 'round K needs 1 <= K <= 10 (--calls), got 0',
    'latencies 11': 'latencies K needs 1 <= K <= 10 (--calls), got 11',
    'round -1': 'got -1',
    'bad\x01command': "unknown command 'bad command'",
  };
  for (const [line, says] of Object.entries(cases)) {
    assert.throws(() => parseCommand(line, 10), (error) => error instanceof UsageError && error.message.includes(says), line);
  }
});

/** Answers rounds with made-up times and records what it ran. */
class FakeRunner {
  ran = [];
  async round(k) {
    this.ran.push('round');
    return { calls: k, ns: 100 * k, cpu_ns: 90 * k, start_ns: 5000n, end_ns: 5000n + BigInt(100 * k) };
  }
  async latencies(k) {
    this.ran.push('latencies');
    return new BigInt64Array(k).fill(7n);
  }
}

async function dialogue(options, input) {
  let answers = '';
  const rounds = await serve(options, new FakeRunner(), 42, { calls: 3, ns: 9 }, input.split('\n'), (s) => { answers += s; });
  return { rounds, lines: answers.trimEnd().split('\n') };
}

test('the serve dialogue', async (t) => {
  const latencies = join(tempDir(t), 'l.i64');
  const { rounds, lines } = await dialogue({ ...DEFAULTS, calls: 100, latencies }, 'round 10\nround 20\nlatencies 5\nend\nround 1');
  assert.deepEqual(lines, [
    '{"event":"ready","load_ns":42,"warmup_calls":3,"warmup_ns":9}',
    '{"event":"round","calls":10,"ns":1000,"cpu_ns":900,"start_ns":5000,"end_ns":6000}',
    '{"event":"round","calls":20,"ns":2000,"cpu_ns":1800,"start_ns":5000,"end_ns":7000}',
    '{"event":"latencies","calls":5}',
  ]);
  for (const line of lines) JSON.parse(line);
  assert.deepEqual(rounds[1], { calls: 20, ns: 2000, cpu_ns: 1800, start_ns: 5000n, end_ns: 7000n });
  assert.equal(readFileSync(latencies).length, 5 * 8);
});

test('the dialogue ends at the end of input', async () => {
  const { rounds, lines } = await dialogue({ ...DEFAULTS }, 'round 3');
  assert.equal(rounds.length, 1);
  assert.equal(lines.length, 2);
});

test('a bad command stops the dialogue with a usage error', async () => {
  await assert.rejects(dialogue({ ...DEFAULTS, calls: 10 }, 'round 1\nround 11\nround 1'), UsageError);
  await assert.rejects(dialogue({ ...DEFAULTS }, 'latencies 1'), { message: 'latencies K needs --latencies PATH' });
});

test('a runtime failing mid-round passes on', async () => {
  const failure = new DataError('m.onnx', 'run failed');
  const runner = new Rounds(floatModel(new SumModel({ fail: failure })), floatSamples(new Array(8).fill(0)), 4, 1);
  await assert.rejects(serve({ ...DEFAULTS }, runner, 0, { calls: 0, ns: 0 }, ['round 2'], () => {}), failure);
});

test('the standalone script', () => {
  const round = { kind: 'round', calls: 200_000 };
  const end = { kind: 'end', calls: 0 };
  assert.deepEqual(standaloneScript({ ...DEFAULTS, calls: 200_000, repeats: 2 }), [round, round, end]);
  assert.deepEqual(standaloneScript({ ...DEFAULTS, calls: 200_000, repeats: 1, latencies: 'l.i64' }), [
    round, { kind: 'latencies', calls: STANDALONE_LATENCY_CALLS }, end,
  ]);
});

test('runScript runs the script silently', async (t) => {
  const runner = new FakeRunner();
  const options = { ...DEFAULTS, calls: 7, repeats: 3, latencies: join(tempDir(t), 'l.i64') };
  const rounds = await runScript(options, runner);
  assert.equal(rounds.length, 3);
  assert.deepEqual(runner.ran, ['round', 'round', 'round', 'latencies']);
});

test('paced FILE [START] is parsed, and serves its arrivals into their slots', async (t) => {
  assert.deepEqual(parseCommand('paced a.i64', 10), { kind: 'paced', calls: 0, schedule: 'a.i64', startNs: null });
  assert.deepEqual(parseCommand('paced a.i64 123', 10), { kind: 'paced', calls: 0, schedule: 'a.i64', startNs: 123n });
  assert.throws(() => parseCommand('paced a.i64 soon', 10), /paced FILE START needs START in ns, got 'soon'/);
  // Four samples, --calls 4, six arrivals: slots 0 and 1 served twice, last by arrivals 4 and 5.
  const dir = tempDir(t);
  const schedule = join(dir, 'arrivals.i64');
  writeFileSync(schedule, new Uint8Array(new BigInt64Array(6).buffer));
  const latencies = join(dir, 'l.i64');
  const inputs = [{ values: Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]), count: 4 }];
  const rounds = new Rounds(floatModel(new SumModel()), inputs, 4, 1);
  let answers = '';
  await serve({ ...DEFAULTS, calls: 4, latencies }, rounds, 0, { calls: 0, ns: 0 }, [`paced ${schedule}`],
    (s) => { answers += s; });
  const answer = JSON.parse(answers.trimEnd().split('\n')[1]);
  assert.equal(answer.event, 'paced');
  assert.deepEqual([answer.calls, answer.slots, answer.callers, answer.caller_calls], [6, 4, 1, [6]]);
  assert.ok(answer.ready_ns < answer.start_ns);
  assert.equal(readFileSync(latencies).length, 3 * 6 * 8);
  assert.deepEqual(Array.from(rounds.lastOutputs()[0]), [3, 7, 11, 15]);
  await assert.rejects(serve({ ...DEFAULTS, calls: 4 }, rounds, 0, { calls: 0, ns: 0 }, [`paced ${schedule}`], () => {}),
    /paced FILE needs --latencies PATH/);
});
