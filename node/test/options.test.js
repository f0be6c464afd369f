import assert from 'node:assert/strict';
import { test } from 'node:test';

import { UsageError } from '../kit/errors.js';
import { GATHERED_ALONE, ONE_GATHERER } from '../kit/batcher.js';
import { DEFAULTS, parseOptions } from '../kit/options.js';

test('defaults are the contract', () => {
  assert.deepEqual(parseOptions([]), { ...DEFAULTS });
  assert.equal(DEFAULTS.calls, 1_000_000);
  assert.equal(DEFAULTS.warmup, 10_000);
  assert.equal(DEFAULTS.warmup_time, 2);
  assert.equal(DEFAULTS.repeats, 3);
  assert.equal(DEFAULTS.batch, 1);
  assert.equal(DEFAULTS.threads, 1);
  assert.equal(DEFAULTS.models, 'models');
});

test('every option', () => {
  const args = ['--models', 'm', '--calls=10', '--warmup', '0', '--warmup-time=0.25', '--repeats', '2', '--batch', '4',
    '--threads', '3', '--outputs', 'o.f32', '--latencies=l.i64', '--serve', '--debug'];
  assert.deepEqual(parseOptions(args), {
    models: 'm', calls: 10, warmup: 0, warmup_time: 0.25, repeats: 2, batch: 4, threads: 3, callers: 1,
    max_delay: null, gathered: false, outputs: 'o.f32', latencies: 'l.i64', serve: true, debug: true, help: false,
  });
  assert.equal(parseOptions(['--help']).help, true);
});

const BAD = {
  'zero calls': [['--calls', '0'], '--calls must be >= 1, got 0'],
  'negative warmup': [['--warmup=-1'], '--warmup must be >= 0'],
  'seconds, not words': [['--warmup-time', 'x'], "--warmup-time needs a number, got 'x'"],
  'infinite seconds': [['--warmup-time', 'Infinity'], '--warmup-time needs a number'],
  'negative seconds': [['--warmup-time=-1'], '--warmup-time must be in 0..1000000'],
  'zero repeats': [['--repeats', '0'], '--repeats must be >= 1'],
  'zero batch': [['--batch', '0'], '--batch must be >= 1'],
  'a negative wait': [['--max-delay=-1'], '--max-delay must be >= 0, got -1'],
  'one gatherer': [['--max-delay', '100', '--callers', '2'], ONE_GATHERER],
  'gathered alone': [['--gathered'], GATHERED_ALONE],
  'zero threads': [['--threads', '0'], '--threads must be >= 1'],
  'zero callers': [['--callers', '0'], '--callers must be >= 1, got 0'],
  'not an integer': [['--calls', 'ten'], "--calls needs an integer, got 'ten'"],
  'a fraction': [['--batch', '1.5'], '--batch needs an integer'],
  'exponent': [['--calls', '1e3'], '--calls needs an integer'],
  'unknown option': [['--nope'], "unknown option '--nope'"],
  'abbreviated option': [['--batc', '2'], "unknown option '--batc'"],
  'missing value': [['--calls'], '--calls needs a value'],
  'empty path': [['--outputs='], '--outputs needs a path'],
  'empty models': [['--models', ''], '--models needs a folder'],
  'positional': [['stray'], "unknown option 'stray'"],
  'value on a switch': [['--serve=yes'], '--serve takes no value'],
  'too large': [['--calls', '4503599627370496', '--batch', '4'], 'too large'],
};

for (const [name, [args, says]] of Object.entries(BAD)) {
  test(`bad option: ${name} is a one-line usage error`, () => {
    assert.throws(
      () => parseOptions(args),
      (error) => error instanceof UsageError && error.message.includes(says) && !error.message.includes('\n'),
    );
  });
}
