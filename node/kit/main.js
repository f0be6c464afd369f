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
// through floatModel (kit/float_model.js).

import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { report } from './errors.js';
import { requireSamples } from './inputs.js';
import { checkModel } from './model.js';
import { helpLine, parseOptions } from './options.js';
import { writeOutputs } from './outputs.js';
import { peakRssBytes, resultJson } from './result.js';
import { Rounds } from './rounds.js';
import { runScript, serve } from './serve.js';
import { INPUTS_STEM, readInputs, tensorFile } from './tensors.js';

/** Runs the driver on the process's arguments and streams, then exits with its status. */
export async function driverMain(id, load) {
  const status = await runDriver(id, process.argv.slice(2), load, {
    stdin: process.stdin,
    write: (text) => process.stdout.write(text),
    writeErr: (text) => process.stderr.write(text),
  });
  // stdout and stderr are synchronous for files and pipes on Linux: nothing is lost.
  process.exit(status);
}

/**
 * driverMain without the exit: returns the exit status. `io` holds `stdin`
 * (a readable stream, or an iterable of lines in tests), `write` and
 * `writeErr`.
 */
export async function runDriver(id, args, load, io) {
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
    await drive(id, options, load, io);
    return 0;
  } catch (error) {
    return report(io.writeErr, id, error, options.debug);
  }
}

async function drive(id, options, load, io) {
  io.writeErr('progress: loading\n');
  const start = process.hrtime.bigint();
  const model = checkModel(await load(options));
  const loadNs = Number(process.hrtime.bigint() - start);

  // Read after loading: which files hold the samples is the model's signature to say.
  const signature = model.signature();
  const inputs = readInputs(options.models, signature);
  const first = join(options.models, tensorFile(INPUTS_STEM, 0, signature.inputs[0].dtype));
  requireSamples(first, inputs[0].count, options);
  const rounds = new Rounds(model, inputs, options.calls, options.batch);

  io.writeErr('progress: warm-up\n');
  const warmup = await rounds.warmUp(options.warmup, options.warmup_time);
  const done = options.serve
    ? await serve(options, rounds, loadNs, warmup, lines(io.stdin), io.write)
    : await runScript(options, rounds);
  if (options.outputs) writeOutputs(options.outputs, rounds.lastOutputs());
  const result = {
    driver: id,
    calls: options.calls,
    batch: options.batch,
    threads: options.threads,
    runtime_version: model.runtimeVersion(),
    load_ns: loadNs,
    peak_rss_bytes: peakRssBytes(),
    rounds: done,
    notes: model.notes(),
  };
  io.write(`${resultJson(result)}\n`);
}

/** The lines of a readable stream (an iterable of strings passes through). */
function lines(stdin) {
  if (typeof stdin?.on !== 'function') return stdin;
  return createInterface({ input: stdin, crlfDelay: Infinity, terminal: false });
}
