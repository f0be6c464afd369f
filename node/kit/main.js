// driverMain: the entry of every Node driver. It wires the kit's parts
// together: options -> inputs -> load the model (timed) -> warm-up -> serve
// or the standalone script -> outputs -> result line; errors become the
// contract's lines and exit statuses. A driver only says how to load its
// model and make one call:
//
//   await driverMain('node-x', async (options) => new XModel(...));
//
// load returns a model of any inputs and outputs (contract 3: its signature()
// and call(inputs, outputs), kit/model.js), or for our MLP a float model
// through floatModel (kit/float_model.js). A driver that takes callers
// (contract 4) says which way: driverMain(id, load, { callers: 'workers' })
// (worker_threads, each loading its own model) or { callers: 'in-flight' }
// (async callers on one event loop; its model gives caller(), each caller's
// call state): kit/callers.js.

import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { Batcher, FIXED_BATCH } from './batcher.js';
import { InFlightCallers, WorkerCallers } from './callers.js';
import { isCallerWorker, serveAsCaller } from './caller_worker.js';
import { UsageError, report } from './errors.js';
import { requireSamples } from './inputs.js';
import { checkModel } from './model.js';
import { helpLine, parseOptions } from './options.js';
import { writeOutputs } from './outputs.js';
import { peakRssBytes, resultJson } from './result.js';
import { Rounds } from './rounds.js';
import { runScript, serve } from './serve.js';
import { INPUTS_STEM, readInputs, tensorFile } from './tensors.js';

/** What a driver of one caller answers to --callers N > 1 (contract 4). */
export const ONE_CALLER = '--callers N > 1 is not supported: this driver runs one caller';

/**
 * Runs the driver on the process's arguments and streams, then exits with its status; in a
 * worker the kit started as a caller, serves the entry instead (kit/caller_worker.js).
 */
export async function driverMain(id, load, { callers } = {}) {
  if (isCallerWorker()) {
    serveAsCaller(load);
    return;
  }
  const status = await runDriver(id, process.argv.slice(2), load, {
    stdin: process.stdin,
    write: (text) => process.stdout.write(text),
    writeErr: (text) => process.stderr.write(text),
  }, { callers, script: process.argv[1] });
  // stdout and stderr are synchronous for files and pipes on Linux: nothing is lost.
  process.exit(status);
}

/**
 * driverMain without the exit: returns the exit status. `io` holds `stdin`
 * (a readable stream, or an iterable of lines in tests), `write` and
 * `writeErr`.
 */
export async function runDriver(id, args, load, io, { callers, script } = {}) {
  let options;
  try {
    options = parseOptions(args);
  } catch (error) {
    return report(io.writeErr, id, error, false);
  }
  if (options.help) {
    io.write(`${helpLine(id)}\n`);
    return 0;
  }
  try {
    if (options.callers > 1 && !callers) throw new UsageError(ONE_CALLER);
    if (options.callers > 1 && callers === 'workers') await driveWorkers(id, options, script, io);
    else await drive(id, options, load, io, callers);
    return 0;
  } catch (error) {
    return report(io.writeErr, id, error, options.debug);
  }
}

async function drive(id, options, load, io, callers) {
  io.writeErr('progress: loading\n');
  const start = process.hrtime.bigint();
  const model = checkModel(await load(options));
  const loadNs = Number(process.hrtime.bigint() - start);
  if (options.gathered && typeof model.callGathered !== 'function') throw new UsageError(FIXED_BATCH);

  // Read after loading: which files hold the samples is the model's signature to say.
  const signature = model.signature();
  const inputs = readInputs(options.models, signature);
  const first = join(options.models, tensorFile(INPUTS_STEM, 0, signature.inputs[0].dtype));
  requireSamples(first, inputs[0].count, options);
  const rounds = options.callers > 1
    ? await InFlightCallers.start(model, inputs, options)
    : oneCaller(model, inputs, options);
  io.writeErr('progress: warm-up\n');
  const warmup = await rounds.warmUp(options.warmup, options.warmup_time);
  const notes = options.callers > 1 ? rounds.notes() : model.notes();
  await measure(id, options, rounds, { loadNs, warmup, version: model.runtimeVersion(), notes }, io);
}

/** One caller's rounds; with --max-delay (contract 7) its paced rounds served by the batcher. */
function oneCaller(model, inputs, options) {
  const rounds = new Rounds(model, inputs, options.calls, options.batch);
  if (options.max_delay === null) return rounds;
  return new Batcher(rounds, model, inputs, options.calls, options.batch, options.max_delay, options.gathered);
}

/** Contract 4's 'workers': each caller a worker_thread of the driver's own file. */
async function driveWorkers(id, options, script, io) {
  io.writeErr('progress: loading\n');
  const callers = await WorkerCallers.start(script, options);
  io.writeErr('progress: warm-up\n');
  const warmup = await callers.warmUp(options.warmup, options.warmup_time);
  const loaded = { loadNs: callers.loadNs, warmup, version: callers.runtimeVersion(), notes: callers.notes() };
  await measure(id, options, callers, loaded, io);
}

/** The dialogue or the standalone script over the warmed-up rounds, the outputs, the result line. */
async function measure(id, options, rounds, { loadNs, warmup, version, notes }, io) {
  const done = options.serve
    ? await serve(options, rounds, loadNs, warmup, lines(io.stdin), io.write)
    : await runScript(options, rounds);
  if (options.outputs) writeOutputs(options.outputs, await rounds.lastOutputs());
  const result = {
    driver: id,
    calls: options.calls,
    batch: options.batch,
    threads: options.threads,
    callers: options.callers,
    runtime_version: version,
    load_ns: loadNs,
    peak_rss_bytes: peakRssBytes(),
    rounds: done,
    notes,
  };
  io.write(`${resultJson(result)}\n`);
}

/** The lines of a readable stream (an iterable of strings passes through). */
function lines(stdin) {
  if (typeof stdin?.on !== 'function') return stdin;
  return createInterface({ input: stdin, crlfDelay: Infinity, terminal: false });
}
