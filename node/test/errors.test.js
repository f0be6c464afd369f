import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DataError, UsageError, firstLine, missingArtifact, report } from '../kit/errors.js';

function reported(error, debug = false) {
  let text = '';
  const status = report((s) => { text += s; }, 'node-x', error, debug);
  return { status, text };
}

test('a usage error is exit 2, one line', () => {
  assert.deepEqual(reported(new UsageError('--calls must be >= 1, got 0'), true), {
    status: 2,
    text: 'node-x: usage: --calls must be >= 1, got 0\n',
  });
});

test('a data error is exit 1, naming the file', () => {
  assert.deepEqual(reported(missingArtifact('models/mlp.onnx')), {
    status: 1,
    text: 'node-x: error: models/mlp.onnx: missing; run `nox -s export` first\n',
  });
  const error = new DataError('a.f32', 'bad');
  assert.equal(error.path, 'a.f32');
  assert.equal(error.message, 'a.f32: bad');
});

test('any other error is exit 1, one line; its stack only with --debug', () => {
  assert.deepEqual(reported(new Error('\n first\nsecond')), { status: 1, text: 'node-x: error:  first\n' });
  const { text } = reported(new Error('first\nsecond'), true);
  assert.match(text, /^Error: first\nsecond\n {4}at /);
  assert.ok(text.endsWith('\nnode-x: error: first\n'));
  assert.deepEqual(reported('a string'), { status: 1, text: 'node-x: error: a string\n' });
});

test('firstLine', () => {
  assert.equal(firstLine(' \n\r\nabc \r\ndef'), 'abc');
  assert.equal(firstLine(''), 'unknown error');
});
