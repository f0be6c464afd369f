// callers: contract 4's N callers calling the model at once, the two ways a
// Node.js program has (a driver says which: driverMain(id, load, { callers })):
//
// - 'in-flight': N async callers on the one event loop, each awaiting its own
//   calls of one shared model (an async server's handlers: Fastify, Express).
//   Each caller has its own call state (model.caller(): its tensors and feeds)
//   and its own Rounds over its own inputs; a round starts them together
//   (Promise.all) and runs from the first caller's start to the last one's end.
//   What a runtime's synchronous run does to them (onnxruntime-node defers its
//   native run by setImmediate, then blocks the loop while it runs) is what
//   the row shows.
// - 'workers': N worker_threads, each its own caller that loads its own model
//   (the driver's own file run again in the worker: driverMain there serves
//   the entry, kit/caller_worker.js). A round hands every worker its task; each
//   fills its inputs and waits at one gate (Atomics.wait on a shared word), which
//   the entry opens once all are ready, so they start together.
//
// Either way caller c's call i takes the samples of call (c*K + i) mod S (S:
// the calls the inputs hold), filled before the start, outside the timing. A
// paced round (contract 6, kit/paced.js) gives every caller call i <- call
// i mod S: a caller takes the next arrival, in flight from one counter on the
// loop, in workers from one counter in shared memory (Atomics.add).
// Node.js gives no thread's CPU clock: cpu_ns is the process's over the round
// (process.cpuUsage: every thread of the process, the workers' among them), and
// the notes say so. A caller that fails ends the run at once: the entry reports
// "caller C: <problem>" and exits, its workers and pending calls with it.

import { Worker } from 'node:worker_threads';

import { firstLine } from './errors.js';
import { Pacing, waitOnLoop } from './paced.js';
import { Rounds, checkCalls } from './rounds.js';
import { DTYPES, sampleSize } from './tensors.js';

export const SHARED = 'shared';
export const PER_CALLER = 'per caller';

/** A caller's call failed: "caller C: <its first line>", exit 1. */
export class CallerFailed extends Error {
  constructor(caller, error) {
    super(`caller ${caller}: ${firstLine(error instanceof Error ? error.message : String(error))}`);
    this.name = 'CallerFailed';
  }
}

/** Each caller's inputs: its maxCalls*B samples of each input, in the input's typed array. */
function callerInputs(signature, maxCalls, batch) {
  return signature.inputs.map((t) => {
    const values = new DTYPES[t.dtype].Array(maxCalls * batch * sampleSize(t));
    return { values, count: maxCalls * batch };
  });
}

/** Fills caller c's inputs: its call i <- the samples of call (c*calls + i) mod S. */
export function fillInputs(mine, every, c, calls, batch, signature) {
  const held = Math.floor(every[0].count / batch);
  signature.inputs.forEach((t, k) => {
    const step = batch * sampleSize(t);
    for (let i = 0; i < calls; i++) {
      const from = (c * calls + i) % held;
      mine[k].values.set(every[k].values.subarray(from * step, (from + 1) * step), i * step);
    }
  });
}

/** One round of many callers from each caller's own round, and the process's CPU time over it. */
function joinedRound(k, each, cpu) {
  const start = each.reduce((least, r) => (r.start_ns < least ? r.start_ns : least), each[0].start_ns);
  const end = each.reduce((most, r) => (r.end_ns > most ? r.end_ns : most), each[0].end_ns);
  return {
    calls: k,
    ns: Number(end - start),
    cpu_ns: (cpu.user + cpu.system) * 1000,
    start_ns: start,
    end_ns: end,
    callers: each.length,
    caller_ns: each.map((r) => r.ns),
  };
}

/** Each output's filled slots of a paced round, each from the caller that served its last arrival. */
function slottedOutputs(each, owners) {
  if (each.length === 0 || each[0].length === 0) return [];
  return each[0].map((first, o) => {
    const step = first.length / owners.length;
    const all = new first.constructor(first.length);
    owners.forEach((c, slot) => all.set(each[c][o].subarray(slot * step, (slot + 1) * step), slot * step));
    return all;
  });
}

/** Each output's last round, caller after caller. */
function joinedOutputs(each) {
  if (each.length === 0 || each[0].length === 0) return [];
  return each[0].map((first, o) => {
    const all = new first.constructor(each.reduce((n, outputs) => n + outputs[o].length, 0));
    let at = 0;
    for (const outputs of each) {
      all.set(outputs[o], at);
      at += outputs[o].length;
    }
    return all;
  });
}

/** Every caller's latencies, caller after caller. */
function joinedLatencies(each) {
  const all = new BigInt64Array(each.reduce((n, ns) => n + ns.length, 0));
  let at = 0;
  for (const ns of each) {
    all.set(ns, at);
    at += ns.length;
  }
  return all;
}

/** Awaits every caller's promise; the first to fail fails them all at once, naming it. */
function allCallers(promises) {
  return Promise.all(promises.map((p, c) => Promise.resolve(p).catch((error) => {
    throw error instanceof CallerFailed ? error : new CallerFailed(c, error);
  })));
}

/** N async callers of one model on this event loop ('in-flight'). */
export class InFlightCallers {
  /** `model.caller()` (may return a promise) gives each caller's call state, made in caller order. */
  static async start(model, every, options) {
    const callers = new InFlightCallers(model, every, options);
    for (let c = 0; c < options.callers; c++) {
      let state;
      try {
        state = await model.caller();
      } catch (error) {
        throw new CallerFailed(c, error);
      }
      const mine = callerInputs(model.signature(), options.calls, options.batch);
      callers.inputs.push(mine);
      callers.rounds.push(new Rounds(state, mine, options.calls, options.batch));
    }
    return callers;
  }

  constructor(model, every, options) {
    this.model = model;
    this.every = every;
    this.options = options;
    this.inputs = [];
    this.rounds = [];
    this.slotOwners = null; // after a paced round: each slot's last arrival's caller
  }

  /** Each caller's inputs for `calls` calls; for a paced round's arrivals, every caller's call i <- call i mod S. */
  fill(calls, arrivals = false) {
    this.slotOwners = null;
    this.inputs.forEach((mine, c) => fillInputs(mine, this.every, arrivals ? 0 : c, calls, this.options.batch,
      this.model.signature()));
  }

  /** Every caller's warm-up at once: the fewest calls any made. */
  async warmUp(calls, seconds) {
    this.fill(this.options.calls);
    const start = process.hrtime.bigint();
    const each = await allCallers(this.rounds.map((r) => r.warmUp(calls, seconds)));
    return { calls: Math.min(...each.map((w) => w.calls)), ns: Number(process.hrtime.bigint() - start) };
  }

  async round(k) {
    checkCalls('round', k, this.options.calls);
    this.fill(k);
    const cpuStart = process.cpuUsage();
    const each = await allCallers(this.rounds.map((r) => r.round(k)));
    return joinedRound(k, each, process.cpuUsage(cpuStart));
  }

  async latencies(k) {
    checkCalls('latencies', k, this.options.calls);
    this.fill(k);
    return joinedLatencies(await allCallers(this.rounds.map((r) => r.latencies(k))));
  }

  /** Contract 6: every caller in flight serving the arrivals of `offsets`, each taking the next. */
  async paced(offsets, startNs) {
    const pacing = Pacing.create(offsets, this.rounds.length, this.options.calls);
    this.fill(pacing.filled, true);
    this.rounds.forEach((r) => r.poisonSlots(pacing.filled));
    pacing.begin(startNs);
    await allCallers(this.rounds.map((r, c) => r.serveArrivals(pacing, c, waitOnLoop)));
    this.slotOwners = pacing.slotCallers();
    return pacing;
  }

  lastOutputs() {
    const each = this.rounds.map((r) => r.lastOutputs());
    return this.slotOwners ? slottedOutputs(each, this.slotOwners) : joinedOutputs(each);
  }

  notes() {
    return {
      ...this.model.notes(),
      callers: this.rounds.length,
      callers_hold: SHARED,
      callers_how: this.model.callersHow ?? 'one model, each caller its own call state',
      callers_are: 'async callers in flight on one event loop (Promise.all)',
      cpu_ns: 'the process\'s (process.cpuUsage)',
    };
  }
}

/** N worker_threads, each a caller with its own model ('workers'). */
export class WorkerCallers {
  /**
   * Starts `options.callers` workers of the driver's file `script`; each loads its model and
   * says its load time, version and notes. Resolves once all are loaded.
   */
  static async start(script, options) {
    const callers = new WorkerCallers(options);
    for (let c = 0; c < options.callers; c++) {
      const worker = new Worker(script, {
        argv: [],
        workerData: { callbenchCaller: c, options, gate: callers.gate.buffer },
        stdout: true, // a worker writes nothing of its own to the driver's stdout
      });
      worker.unref();
      callers.workers.push(worker);
      callers.answers.push([]);
      worker.on('message', (message) => callers.answer(c, message));
      worker.on('error', (error) => callers.fail(c, error));
      worker.on('exit', (code) => callers.fail(c, new Error(`its worker exited (${code})`)));
    }
    callers.loaded = await callers.ask(() => ({ kind: 'load' }));
    return callers;
  }

  constructor(options) {
    this.options = options;
    this.workers = [];
    this.answers = []; // each worker's pending request: [resolve, reject]
    this.gate = new Int32Array(new SharedArrayBuffer(4));
    this.generation = 0;
    this.failure = null;
    this.slotOwners = null; // after a paced round: each slot's last arrival's caller
  }

  answer(c, message) {
    const pending = this.answers[c].shift();
    if (!pending) return;
    if (message.error !== undefined) pending[1](new CallerFailed(c, message.error));
    else pending[0](message);
  }

  fail(c, error) {
    this.failure ??= error instanceof CallerFailed ? error : new CallerFailed(c, error);
    for (const pending of this.answers.flat()) pending?.[1]?.(this.failure);
    this.answers = this.answers.map(() => []);
  }

  /** Sends each worker its task (`task(c)`) and awaits every answer, the first failure at once. */
  ask(task) {
    if (this.failure) return Promise.reject(this.failure);
    return allCallers(this.workers.map((worker, c) => new Promise((resolve, reject) => {
      this.answers[c].push([resolve, reject]);
      worker.postMessage(task(c));
    })));
  }

  /** The load's time (the slowest worker's), the runtime's version and the notes, from worker 0. */
  get loadNs() {
    return Math.max(...this.loaded.map((l) => l.load_ns));
  }

  async warmUp(calls, seconds) {
    const start = process.hrtime.bigint();
    const each = await this.ask(() => ({ kind: 'warm-up', calls, seconds }));
    return { calls: Math.min(...each.map((w) => w.calls)), ns: Number(process.hrtime.bigint() - start) };
  }

  /**
   * Every worker ready at the gate (its inputs filled), then the gate opened: they start
   * together. `task` is what each worker is sent besides its kind and the gate's generation;
   * `atTheGate` runs once every worker is there, before the gate opens.
   */
  async gated(kind, task, atTheGate = () => {}) {
    if (this.failure) throw this.failure;
    this.slotOwners = null;
    const generation = ++this.generation;
    const replies = this.workers.map((worker, c) => {
      const ready = new Promise((resolve, reject) => this.answers[c].push([resolve, reject]));
      const done = new Promise((resolve, reject) => this.answers[c].push([resolve, reject]));
      done.catch(() => {}); // a failure before the gate is awaited through `ready`
      worker.postMessage({ ...task, kind, generation });
      return { ready, done };
    });
    await allCallers(replies.map((r) => r.ready));
    atTheGate();
    const cpuStart = process.cpuUsage();
    Atomics.store(this.gate, 0, generation);
    Atomics.notify(this.gate, 0);
    const each = await allCallers(replies.map((r) => r.done));
    return { each, cpu: process.cpuUsage(cpuStart) };
  }

  async round(k) {
    checkCalls('round', k, this.options.calls);
    const { each, cpu } = await this.gated('round', { k });
    return joinedRound(k, each.map((a) => a.round), cpu);
  }

  async latencies(k) {
    checkCalls('latencies', k, this.options.calls);
    const { each } = await this.gated('latencies', { k });
    return joinedLatencies(each.map((a) => a.ns));
  }

  /**
   * Contract 6: every worker serving the arrivals of `offsets`, each taking the next from
   * one counter in shared memory; the round's start set once all are at the gate.
   */
  async paced(offsets, startNs) {
    const pacing = Pacing.create(offsets, this.workers.length, this.options.calls, true);
    await this.gated('paced', { pacing: pacing.buffers }, () => pacing.begin(startNs));
    this.slotOwners = pacing.slotCallers();
    return pacing;
  }

  async lastOutputs() {
    const each = (await this.ask(() => ({ kind: 'outputs' }))).map((a) => a.outputs);
    return this.slotOwners ? slottedOutputs(each, this.slotOwners) : joinedOutputs(each);
  }

  runtimeVersion() {
    return this.loaded[0].runtime_version;
  }

  notes() {
    return {
      ...this.loaded[0].notes,
      callers: this.workers.length,
      callers_hold: PER_CALLER,
      callers_how: 'a worker_thread per caller, each loading its own model',
      callers_are: 'worker_threads',
      cpu_ns: 'the process\'s (process.cpuUsage), every worker\'s thread among them',
    };
  }
}
