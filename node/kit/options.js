// options: the contract's command-line options, declared once for every
// Node driver (parseArgs from node:util; "--calls 10" and "--calls=10").

import { parseArgs } from 'node:util';

import { GATHERED_ALONE, ONE_GATHERER } from './batcher.js';
import { UsageError } from './errors.js';

/** The contract's defaults. */
export const DEFAULTS = Object.freeze({
  models: 'models',
  calls: 1_000_000, // N: the most calls a round may take
  warmup: 10_000, // at most
  warmup_time: 2, // seconds, once MIN_WARMUP_CALLS are made (0: no time limit)
  repeats: 3, // standalone runs only
  batch: 1,
  threads: 1,
  callers: 1, // contract 4: callers calling the model at once (a driver of one caller refuses more)
  max_delay: null, // contract 7's batcher's longest wait in µs (batcher.js)
  gathered: false, // ... its calls at the size they gathered (a model's callGathered), not padded to B
  outputs: null,
  latencies: null,
  serve: false,
  debug: false,
  help: false, // --help: the entry prints helpLine and exits 0, loading nothing
});

const COUNTS = { calls: 1, warmup: 0, repeats: 1, batch: 1, threads: 1, callers: 1 }; // name -> minimum
const SECONDS = ['warmup_time'];
const PATHS = { models: 'a folder', outputs: 'a path', latencies: 'a path' };

const DECLARED = {
  ...Object.fromEntries([...Object.keys(COUNTS), ...Object.keys(PATHS)].map((name) => [name, { type: 'string' }])),
  ...Object.fromEntries([...SECONDS, 'max_delay'].map((name) => [flag(name), { type: 'string' }])),
  gathered: { type: 'boolean' },
  serve: { type: 'boolean' },
  debug: { type: 'boolean' },
  help: { type: 'boolean' },
};

/** What --help prints, the same in every kit (docs/contract.md, "The contract's words"). */
export function helpLine(id) {
  return (
    `usage: ${id} [--models DIR] [--calls N] [--warmup W] [--warmup-time S] [--repeats R] ` +
    '[--batch B] [--threads T] [--callers N] [--max-delay US] [--gathered] [--outputs PATH] ' +
    '[--latencies PATH] [--serve] [--debug]'
  );
}


/** parseArgs's errors in the contract's words (the quoted name is the option, or a stray word). */
function contractWords(error) {
  const first = error.message.split('\n')[0];
  const named = /'([^' ]*)/.exec(first)?.[1] ?? first;
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unknown option '${named}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return first.includes('argument missing') ? `${named} needs a value` : `${named} takes no value`;
    default:
      return first;
  }
}

/** Parses the arguments after the script's path; every problem is a UsageError naming the option. */
export function parseOptions(args) {
  let values;
  try {
    ({ values } = parseArgs({ args, options: DECLARED, strict: true, allowPositionals: false }));
  } catch (error) {
    if (String(error?.code).startsWith('ERR_PARSE_ARGS')) throw new UsageError(contractWords(error));
    throw error;
  }
  const options = { ...DEFAULTS };
  for (const [name, minimum] of Object.entries(COUNTS)) {
    if (values[name] !== undefined) options[name] = parseCount(name, values[name], minimum);
  }
  for (const name of SECONDS) {
    if (values[flag(name)] !== undefined) options[name] = parseSeconds(flag(name), values[flag(name)]);
  }
  for (const [name, what] of Object.entries(PATHS)) {
    if (values[name] === undefined) continue;
    if (values[name] === '') throw new UsageError(`--${name} needs ${what}`);
    options[name] = values[name];
  }
  if (values['max-delay'] !== undefined) options.max_delay = parseCount('max-delay', values['max-delay'], 0);
  if (options.max_delay !== null && options.callers > 1) throw new UsageError(ONE_GATHERER);
  options.gathered = values.gathered ?? false;
  if (options.gathered && options.max_delay === null) throw new UsageError(GATHERED_ALONE);
  options.serve = values.serve ?? false;
  options.debug = values.debug ?? false;
  options.help = values.help ?? false;
  // calls * batch * 2 floats must be addressable; the inputs bound it further.
  if (!Number.isSafeInteger(options.calls * options.batch * 2)) {
    throw new UsageError('--calls x --batch is too large');
  }
  return options;
}

/** An option's name on the command line: warmup_time is --warmup-time. */
function flag(name) {
  return name.replaceAll('_', '-');
}

/** Seconds: a plain decimal number in 0..1e6 (no Infinity, hex or blank). */
function parseSeconds(name, text) {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) {
    throw new UsageError(`--${name} needs a number, got '${text}'`);
  }
  const value = Number(text);
  if (!(value >= 0 && value <= 1e6)) throw new UsageError(`--${name} must be in 0..1000000, got ${text}`);
  return value;
}

function parseCount(name, text, minimum) {
  if (!/^[+-]?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`--${name} needs an integer, got '${text}'`);
  }
  const value = Number(text);
  if (value < minimum) throw new UsageError(`--${name} must be >= ${minimum}, got ${value}`);
  return value;
}
