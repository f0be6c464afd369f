import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { missingArtifact } from '../kit/errors.js';
import { floatModel } from '../kit/float_model.js';
import { runDriver } from '../kit/main.js';
import { SumModel, tempDir, writeInputs } from './helpers.js';

async function run(args, { stdin = [], load = async () => floatModel(new SumModel()) } = {}) {
  let stdout = '';
  let stderr = '';
  const status = await runDriver('node-test', args, load, {
    stdin,
    write: (s) => { stdout += s; },
    writeErr: (s) => { stderr += s; },
  });
  return { status, stdout, stderr, lastErr: stderr.trimEnd().split('\n').at(-1) };
}

test('serves rounds and writes the last round\'s outputs', async (t) => {
  const dir = tempDir(t);
  writeInputs(dir, [1, 2, 3, 4, 5, 6]);
  const outputs = join(dir, 'o.f32');
  const { status, stdout, lastErr } = await run(
    ['--models', dir, '--calls', '3', '--warmup', '2', '--outputs', outputs, '--serve'],
    { stdin: ['round 2', 'round 3', 'end'] },
  );
  assert.equal(status, 0);
  const lines = stdout.trimEnd().split('\n');
  assert.equal(lines.length, 4);
  assert.deepEqual(JSON.parse(lines[0]).event, 'ready');
  const result = JSON.parse(lines[3]);
  assert.equal(result.driver, 'node-test');
  assert.equal(result.calls, 3);
  assert.deepEqual(result.rounds.map((r) => r.calls), [2, 3]);
  assert.equal(result.runtime_version, '0.0-test');
  const bytes = readFileSync(outputs);
  assert.deepEqual([0, 1, 2].map((i) => bytes.readFloatLE(4 * i)), [3, 7, 11]);
  assert.equal(bytes.length, 12);
  assert.equal(lastErr, 'progress: warm-up');
});

test('standalone: the script, then only the result line', async (t) => {
  const dir = tempDir(t);
  writeInputs(dir, [1, 2, 3, 4]);
  const { status, stdout } = await run(['--models', dir, '--calls', '2', '--repeats', '2']);
  assert.equal(status, 0);
  assert.equal(stdout.split('\n').length, 2);
  assert.deepEqual(JSON.parse(stdout).rounds.map((r) => r.calls), [2, 2]);
});

test('usage errors exit 2 with one line', async (t) => {
  const dir = tempDir(t);
  writeInputs(dir, [1, 2, 3, 4]);
  const cases = {
    'bad option': [['--calls', '0'], []],
    'too few samples': [['--models', dir, '--calls', '3'], []],
    'round too large': [['--models', dir, '--calls', '1', '--serve'], ['round 2']],
    'bad command': [['--models', dir, '--calls', '2', '--serve'], ['bogus']],
  };
  for (const [name, [args, stdin]] of Object.entries(cases)) {
    const { status, lastErr } = await run(args, { stdin });
    assert.equal(status, 2, name);
    assert.match(lastErr, /^node-test: usage: /, name);
  }
  const { lastErr } = await run(['--models', dir, '--calls', '2', '--serve'], { stdin: ['bogus'] });
  assert.equal(lastErr, "node-test: usage: unknown command 'bogus': expected 'round K', 'latencies K', 'paced FILE [START]' or 'end'");
});

test('data errors exit 1 naming the file', async (t) => {
  const dir = tempDir(t);
  const missing = await run(['--models', dir]);
  assert.equal(missing.status, 1);
  assert.equal(missing.lastErr, `node-test: error: ${join(dir, 'inputs.f32')}: missing; run \`nox -s export\` first`);
  writeInputs(dir, [1, 2]);
  const noModel = await run(['--models', dir, '--calls', '1'], {
    load: async (options) => { throw missingArtifact(join(options.models, 'm.onnx')); },
  });
  assert.equal(noModel.status, 1);
  assert.ok(noModel.lastErr.endsWith('m.onnx: missing; run `nox -s export` first'));
});

test('an unexpected error is one line, its stack only with --debug', async (t) => {
  const dir = tempDir(t);
  writeInputs(dir, [1, 2]);
  const load = async () => { throw new Error('boom\nmore'); };
  const quiet = await run(['--models', dir, '--calls', '1'], { load });
  assert.equal(quiet.stderr, 'progress: loading\nnode-test: error: boom\n');
  const loud = await run(['--models', dir, '--calls', '1', '--debug'], { load });
  assert.match(loud.stderr, /at load/);
  assert.equal(loud.lastErr, 'node-test: error: boom');
});

test('a model without call() is refused', async (t) => {
  const dir = tempDir(t);
  writeInputs(dir, [1, 2]);
  const { status, lastErr } = await run(['--models', dir, '--calls', '1'], { load: async () => ({ signature() {} }) });
  assert.equal(status, 1);
  assert.equal(lastErr, "node-test: error: the driver's model has no call() method");
});
