// result: the one-line JSON object a driver prints last on success, and the
// process's peak resident memory it reports.

import { readFileSync } from 'node:fs';

/**
 * The result line (no newline), by JSON.stringify, keys in the contract's
 * order: driver, calls, batch, threads, (callers), runtime_version, load_ns,
 * peak_rss_bytes, rounds, notes. A field that is undefined is left out.
 */
export function resultJson(result) {
  return jsonLine({
    driver: result.driver,
    calls: result.calls,
    batch: result.batch,
    threads: result.threads,
    callers: result.callers > 1 ? result.callers : undefined, // contract 4: echoed when > 1
    runtime_version: result.runtime_version,
    load_ns: result.load_ns,
    peak_rss_bytes: result.peak_rss_bytes ?? null,
    rounds: result.rounds.map(({ calls, ns, cpu_ns, callers, caller_ns }) => ({ calls, ns, cpu_ns, callers, caller_ns })),
    notes: Object.fromEntries(Object.entries(result.notes ?? {}).map(([key, value]) => [key, noteValue(value)])),
  });
}

/** One JSON value on one line; a BigInt (a clock's reading) is written as its number. */
export function jsonLine(value) {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? Number(v) : v));
}

/** A note's value: a string or a number (JSON.stringify writes NaN and Inf as null); anything else is null. */
function noteValue(value) {
  return ['string', 'number', 'bigint'].includes(typeof value) ? value : null;
}

/** VmHWM of a /proc/<pid>/status text, in bytes; null if absent or malformed. */
export function vmHwmBytes(status) {
  const line = status.split('\n').find((l) => l.startsWith('VmHWM:'));
  const match = line?.match(/^VmHWM:\s+(\d+)\s+kB\s*$/); // the kernel writes kibibytes as "kB"
  return match ? Number(match[1]) * 1024 : null;
}

/** This process's VmHWM (/proc/self/status); null if unreadable. */
export function peakRssBytes(statusPath = '/proc/self/status') {
  try {
    return vmHwmBytes(readFileSync(statusPath, 'utf8'));
  } catch {
    return null;
  }
}
