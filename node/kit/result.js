// result: the one-line JSON object a driver prints last on success, and the
// process's peak resident memory it reports.

import { readFileSync } from 'node:fs';

/**
 * The result line (no newline), keys in the contract's order: driver, calls,
 * batch, threads, runtime_version, load_ns, peak_rss_bytes, rounds, notes.
 */
export function resultJson(result) {
  const rounds = result.rounds
    .map((r) => `{"calls": ${integer(r.calls)}, "ns": ${integer(r.ns)}, "cpu_ns": ${integer(r.cpu_ns)}}`)
    .join(', ');
  const notes = Object.entries(result.notes ?? {})
    .map(([key, value]) => `${JSON.stringify(key)}: ${noteValue(value)}`)
    .join(', ');
  return (
    `{"driver": ${JSON.stringify(result.driver)}, "calls": ${integer(result.calls)}, ` +
    `"batch": ${integer(result.batch)}, "threads": ${integer(result.threads)}, ` +
    `"runtime_version": ${JSON.stringify(result.runtime_version)}, "load_ns": ${integer(result.load_ns)}, ` +
    `"peak_rss_bytes": ${result.peak_rss_bytes == null ? 'null' : integer(result.peak_rss_bytes)}, ` +
    `"rounds": [${rounds}], "notes": {${notes}}}`
  );
}

function integer(value) {
  if (typeof value === 'bigint') return value.toString();
  if (!Number.isSafeInteger(value)) throw new TypeError(`not an integer: ${value}`);
  return String(value);
}

/** A note's value: a string, or a finite number; anything else is null. */
function noteValue(value) {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  return 'null';
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
