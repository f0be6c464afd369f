// serve: the command dialogue of --serve (round K, latencies K, paced FILE
// [START], end) and the standalone script that runs the same commands without it.

import { UsageError } from './errors.js';
import { writeInt64s } from './outputs.js';
import { readSchedule } from './paced.js';
import { jsonLine } from './result.js';

/** How many calls the standalone script's latency pass times at most. */
export const STANDALONE_LATENCY_CALLS = 100_000;

/**
 * One line of the dialogue: "round K", "latencies K" (1 <= K <= maxCalls) as {kind, calls},
 * "paced FILE [START]" as {kind, schedule, startNs} (START a BigInt, or null), or "end";
 * anything else is a UsageError.
 */
export function parseCommand(line, maxCalls) {
  const words = line.split(/[ \t\r]+/).filter((word) => word !== '');
  if (words.length === 1 && words[0] === 'end') return { kind: 'end', calls: 0 };
  if ((words.length === 2 || words.length === 3) && words[0] === 'paced') {
    if (words.length === 3 && !/^[+-]?\d+$/.test(words[2])) {
      throw new UsageError(`paced FILE START needs START in ns, got '${words[2]}'`);
    }
    return { kind: 'paced', calls: 0, schedule: words[1], startNs: words.length === 3 ? BigInt(words[2]) : null };
  }
  if (words.length === 2 && (words[0] === 'round' || words[0] === 'latencies')) {
    const [kind, text] = words;
    if (!/^[+-]?\d+$/.test(text)) throw new UsageError(`${kind} K needs an integer K, got '${text}'`);
    const k = Number(text);
    if (!(k >= 1 && k <= maxCalls)) {
      throw new UsageError(`${kind} K needs 1 <= K <= ${maxCalls} (--calls), got ${text}`);
    }
    return { kind, calls: k };
  }
  const shown = [...line].slice(0, 60).join('').replace(/[\x00-\x1f\x7f]/g, ' ');
  throw new UsageError(`unknown command '${shown}': expected 'round K', 'latencies K', 'paced FILE [START]' or 'end'`);
}

/** Without --serve: round N, --repeats times; latencies min(N, 100000) if --latencies is given; end. */
export function standaloneScript(options) {
  const script = Array.from({ length: options.repeats }, () => ({ kind: 'round', calls: options.calls }));
  if (options.latencies) {
    script.push({ kind: 'latencies', calls: Math.min(options.calls, STANDALONE_LATENCY_CALLS) });
  }
  script.push({ kind: 'end', calls: 0 });
  return script;
}

/**
 * --serve: writes the ready line, then answers each line of `lines` (an
 * iterable or async iterable of strings) with one JSON line through `write`,
 * until "end" or the end of input. Returns the rounds in the order run.
 * Writes --latencies on each latencies command; the caller writes --outputs
 * and the result line.
 */
export async function serve(options, runner, loadNs, warmup, lines, write) {
  const ready = { event: 'ready', load_ns: loadNs, warmup_calls: warmup.calls, warmup_ns: warmup.ns };
  write(`${jsonLine(ready)}\n`);
  const rounds = [];
  for await (const line of lines) {
    if (!(await execute(parseCommand(line, options.calls), options, runner, rounds, write))) break;
  }
  return rounds;
}

/** The standalone script, silently (only the result line, the caller's, goes to stdout). */
export async function runScript(options, runner) {
  const rounds = [];
  for (const command of standaloneScript(options)) {
    if (!(await execute(command, options, runner, rounds, null))) break;
  }
  return rounds;
}

/** Runs one command; false once it is "end". `write` is null in a standalone run. */
async function execute(command, options, runner, rounds, write) {
  if (command.kind === 'round') {
    const round = await runner.round(command.calls);
    rounds.push(round);
    const { calls, ns, cpu_ns, start_ns, end_ns, callers, caller_ns } = round;
    write?.(`${jsonLine({ event: 'round', calls, ns, cpu_ns, start_ns, end_ns, callers, caller_ns })}\n`);
    return true;
  }
  if (command.kind === 'latencies') {
    if (!options.latencies) throw new UsageError('latencies K needs --latencies PATH');
    writeInt64s(options.latencies, await runner.latencies(command.calls));
    write?.(`${jsonLine({ event: 'latencies', calls: command.calls })}\n`);
    return true;
  }
  if (command.kind === 'paced') {
    if (!options.latencies) throw new UsageError('paced FILE needs --latencies PATH');
    const pacing = await runner.paced(readSchedule(command.schedule), command.startNs);
    writeInt64s(options.latencies, pacing.timings());
    write?.(`${jsonLine(pacing.answer())}\n`);
    return true;
  }
  return false;
}
