import assert from 'node:assert/strict';
import { test } from 'node:test';

import { peakRssBytes, resultJson, vmHwmBytes } from '../kit/result.js';

test('the result line', () => {
  const line = resultJson({
    driver: 'node-x', calls: 20, batch: 1, threads: 1, runtime_version: '1.30.0', load_ns: 123,
    peak_rss_bytes: 31457280,
    rounds: [{ calls: 20, ns: 4000, cpu_ns: 3900 }, { calls: 10, ns: 2000, cpu_ns: 1900 }],
    notes: { call: 'quote " and \\ backslash', threads_read_back: 1, ratio: 0.5, bad: NaN },
  });
  assert.equal(line,
    '{"driver":"node-x","calls":20,"batch":1,"threads":1,"runtime_version":"1.30.0",' +
    '"load_ns":123,"peak_rss_bytes":31457280,"rounds":[{"calls":20,"ns":4000,"cpu_ns":3900},' +
    '{"calls":10,"ns":2000,"cpu_ns":1900}],"notes":{"call":"quote \\" and \\\\ backslash",' +
    '"threads_read_back":1,"ratio":0.5,"bad":null}}');
  assert.deepEqual(Object.keys(JSON.parse(line)), [
    'driver', 'calls', 'batch', 'threads', 'runtime_version', 'load_ns', 'peak_rss_bytes', 'rounds', 'notes',
  ]);
});

test('no RSS, no rounds, no notes', () => {
  const parsed = JSON.parse(resultJson({
    driver: 'node-x', calls: 1, batch: 1, threads: 1, runtime_version: '', load_ns: 0, peak_rss_bytes: null, rounds: [],
  }));
  assert.equal(parsed.peak_rss_bytes, null);
  assert.deepEqual(parsed.rounds, []);
  assert.deepEqual(parsed.notes, {});
});

test('VmHWM', () => {
  assert.equal(vmHwmBytes('Name:\tx\nVmPeak:\t  2000 kB\nVmHWM:\t   1234 kB\nVmRSS:\t 1000 kB\n'), 1234 * 1024);
  for (const bad of ['', 'VmRSS: 1 kB\n', 'VmHWM: x kB\n', 'VmHWM: 12 MB\n', 'VmHWM:\n']) {
    assert.equal(vmHwmBytes(bad), null, bad);
  }
  assert.ok(peakRssBytes() > 0);
  assert.equal(peakRssBytes('/no/such/status'), null);
});
