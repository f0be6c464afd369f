// Shared by the kit's tests: temporary folders, float files, a fake model.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary folder, removed after the test. */
export function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), 'callbench-node-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes the values as float32 little-endian to dir/inputs.f32; returns its path. */
export function writeInputs(dir, values) {
  const path = join(dir, 'inputs.f32');
  const floats = Float32Array.from(values);
  writeFileSync(path, new Uint8Array(floats.buffer));
  return path;
}

/** Stores x1 + x2 for each sample (or nothing when lazy); counts its calls. */
export class SumModel {
  constructor({ lazy = false, fail = null, async = true } = {}) {
    this.calls = 0;
    this.lazy = lazy;
    this.fail = fail;
    if (!async) this.call = this.callNow;
  }

  async call(input, output) {
    this.callNow(input, output);
  }

  callNow(input, output) {
    this.calls++;
    if (this.fail) throw this.fail;
    if (this.lazy) return;
    for (let i = 0; i < output.length; i++) output[i] = input[2 * i] + input[2 * i + 1];
  }

  runtimeVersion() {
    return '0.0-test';
  }

  notes() {
    return { call: 'sum' };
  }
}

/** Our MLP's inputs (2 floats a sample) as the one input's samples. */
export function floatSamples(values) {
  const floats = Float32Array.from(values);
  return [{ values: floats, count: floats.length / 2 }];
}
