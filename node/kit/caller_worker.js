// caller_worker: a driver's file run in a worker_thread as one of contract 4's
// 'workers' callers (kit/callers.js): it loads its own model, reads the inputs,
// and answers the entry's tasks over its port, writing nothing to stdout. A
// round's task: fill its inputs (call i <- the samples of call (c*K + i) mod S),
// say it is ready, wait at the gate, run the round, answer it.

import { parentPort, workerData } from 'node:worker_threads';

import { fillInputs } from './callers.js';
import { requireSamples } from './inputs.js';
import { checkModel } from './model.js';
import { Pacing, waitInThread } from './paced.js';
import { Rounds } from './rounds.js';
import { DTYPES, INPUTS_STEM, readInputs, sampleSize, tensorFile } from './tensors.js';
import { join } from 'node:path';

/** Whether this thread is a worker the kit started as a caller. */
export function isCallerWorker() {
  return parentPort !== null && workerData?.callbenchCaller !== undefined;
}

/** Serves the entry as caller `workerData.callbenchCaller` of the driver's `load`. */
export function serveAsCaller(load) {
  const { callbenchCaller: c, options, gate: shared } = workerData;
  const gate = new Int32Array(shared);
  let rounds = null;
  let every = null;
  let mine = null;
  let signature = null;
  const tasks = {
    async load() {
      const start = process.hrtime.bigint();
      const model = checkModel(await load(options));
      const loadNs = Number(process.hrtime.bigint() - start);
      signature = model.signature();
      every = readInputs(options.models, signature);
      const first = join(options.models, tensorFile(INPUTS_STEM, 0, signature.inputs[0].dtype));
      requireSamples(first, every[0].count, options);
      mine = signature.inputs.map((t) => ({
        values: new DTYPES[t.dtype].Array(options.calls * options.batch * sampleSize(t)),
        count: options.calls * options.batch,
      }));
      rounds = new Rounds(model, mine, options.calls, options.batch);
      return { load_ns: loadNs, runtime_version: model.runtimeVersion(), notes: model.notes() };
    },
    async 'warm-up'({ calls, seconds }) {
      fillInputs(mine, every, c, options.calls, options.batch, signature);
      return rounds.warmUp(calls, seconds);
    },
    async round({ k, generation }) {
      await atTheGate(k, generation);
      return { round: await rounds.round(k) };
    },
    async latencies({ k, generation }) {
      await atTheGate(k, generation);
      return { ns: await rounds.latencies(k) };
    },
    async paced({ pacing: buffers, generation }) {
      const pacing = new Pacing(buffers);
      rounds.poisonSlots(pacing.filled);
      await atTheGate(pacing.filled, generation, true);
      await rounds.serveArrivals(pacing, c, waitInThread);
      return { served: pacing.callerCalls[c] };
    },
    async outputs() {
      return { outputs: rounds.lastOutputs() };
    },
  };
  // Inputs filled, the entry told, then wait for the gate to open (this round's generation).
  // A paced round's arrivals: every caller's call i <- call i mod S.
  async function atTheGate(k, generation, arrivals = false) {
    fillInputs(mine, every, arrivals ? 0 : c, k, options.batch, signature);
    parentPort.postMessage({ ready: true });
    Atomics.wait(gate, 0, generation - 1);
  }
  parentPort.on('message', async (task) => {
    try {
      parentPort.postMessage(await tasks[task.kind](task));
    } catch (error) {
      parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
    }
  });
}
