// A driver of the Node.js kit that takes callers (contract 4) as worker_threads (or,
// with CALLBENCH_CALLERS_TEST_WAY=in-flight, in flight on the event loop) and
// misbehaves in one chosen caller on request, for the conformance test:
//
//   node callers_driver.js MODE DRIVER_ID <contract options>
//
// Each caller reads its own copy of mlp_weights.f32 and runs the MLP's forward pass
// as plain loops, so its outputs are the model's and only MODE can fail it: "ok";
// "fail-in-caller-C" (caller C fails in its first round); "hang-in-caller-C" (caller
// C blocks its thread ten minutes in its first round); "stall-at-call-J" (after its
// warm-up, a caller's first call over the samples of call J blocks its thread 50 ms
// first: contract 6's paced test, the calls queued behind it carry the wait; a paced
// round of K = --calls arrivals makes one such call). (Not under test/: `node --test` would run it.)

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';

import { isCallerWorker, serveAsCaller } from '../kit/caller_worker.js';
import { DataError } from '../kit/errors.js';
import { floatModel } from '../kit/float_model.js';
import { runDriver } from '../kit/main.js';

const MODE_VARIABLE = 'CALLBENCH_CALLERS_TEST_MODE'; // the mode, to the workers
const WAY_VARIABLE = 'CALLBENCH_CALLERS_TEST_WAY'; // 'workers' (the default) or 'in-flight'

function parseMode(text) {
  const match = /^(.*-in-caller)-(\d+)$/.exec(text ?? '');
  if (match) return { how: match[1], caller: Number(match[2]), stallAt: -1 };
  const stall = /^stall-at-call-(\d+)$/.exec(text ?? '');
  return { how: 'ok', caller: -1, stallAt: stall ? Number(stall[1]) : -1 };
}

/** One caller's forward pass over its own weights. */
class Forward {
  constructor(options, misbehaves) {
    const path = join(options.models, 'mlp_weights.f32');
    const bytes = readFileSync(path);
    this.w = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    let h = 1;
    while (h * h + 5 * h + 1 < this.w.length) h++;
    if (h * h + 5 * h + 1 !== this.w.length) throw new DataError(path, 'no 2-H-H-1 MLP\'s count of floats');
    this.h = h;
    this.misbehaves = misbehaves;
    this.warmup = options.warmup;
    this.calls = 0;
    const { stallAt } = parseMode(process.env[MODE_VARIABLE]);
    if (stallAt >= 0) { // call J's samples: a call over them is the one to stall
      const samples = readFileSync(join(options.models, 'inputs.f32'));
      const all = new Float32Array(samples.buffer, samples.byteOffset, samples.byteLength / 4);
      this.stallOver = all.slice(2 * options.batch * stallAt, 2 * options.batch * (stallAt + 1));
    }
  }

  call(input, output) {
    this.calls += 1;
    if (this.stallOver && this.calls > this.warmup && this.stallOver.every((v, i) => v === input[i])) {
      this.stallOver = null; // once
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
    if (this.misbehaves && this.calls > this.warmup) { // the warm-up goes as it should
      if (this.misbehaves === 'fail-in-caller') throw new Error('failed on purpose');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600_000);
    }
    const { w, h } = this;
    const b = 3 * h;
    const c = b + h * h + h;
    const h1 = new Float32Array(h);
    for (let s = 0; s < output.length; s++) {
      const x0 = input[2 * s];
      const x1 = input[2 * s + 1];
      for (let j = 0; j < h; j++) h1[j] = Math.max(Math.fround(w[2 * j] * x0 + w[2 * j + 1] * x1 + w[2 * h + j]), 0);
      let y = w[c + h];
      for (let j = 0; j < h; j++) {
        let v = w[b + h * h + j];
        for (let k = 0; k < h; k++) v = Math.fround(v + Math.fround(w[b + j * h + k] * h1[k]));
        y = Math.fround(y + Math.fround(w[c + j] * Math.max(v, 0)));
      }
      output[s] = y;
    }
  }

  runtimeVersion() {
    return process.version;
  }

  notes() {
    return {};
  }
}

async function load(options) {
  const mode = parseMode(process.env[MODE_VARIABLE]);
  // At one caller the entry's own model is called: it never misbehaves.
  const caller = isCallerWorker() ? workerData.callbenchCaller : -1;
  const model = floatModel(new Forward(options, caller >= 0 && caller === mode.caller ? mode.how : null));
  let made = 0; // in flight: each caller's own forward, caller `mode.caller` misbehaving
  model.caller = () => floatModel(new Forward(options, made++ === mode.caller ? mode.how : null));
  return model;
}

if (isCallerWorker()) {
  serveAsCaller(load);
} else {
  const [mode, id, ...args] = process.argv.slice(2);
  process.env[MODE_VARIABLE] = mode;
  const status = await runDriver(id, args, load, {
    stdin: process.stdin,
    write: (text) => process.stdout.write(text),
    writeErr: (text) => process.stderr.write(text),
  }, { callers: process.env[WAY_VARIABLE] ?? 'workers', script: fileURLToPath(import.meta.url) });
  process.exit(status);
}
