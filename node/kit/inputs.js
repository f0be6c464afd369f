// inputs: reading and checking inputs.f32 ([N, 2] float32 little-endian).

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { endianness } from 'node:os';

import { DataError, UsageError, firstLine, missingArtifact } from './errors.js';

export const INPUT_WIDTH = 2; // floats per sample in inputs.f32
export const OUTPUT_WIDTH = 1; // floats per sample in the outputs

/** inputs.f32: a whole number of samples, none NaN or Inf; problems are DataErrors naming the file. */
export function readInputs(path) {
  return readFiniteFloats(path, INPUT_WIDTH, 'sample');
}

/** A file of little-endian float32 records of `width` floats, every value finite. */
export function readFiniteFloats(path, width, what) {
  if (endianness() !== 'LE') throw new DataError(path, 'the artifacts are little-endian float32; this host is not');
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if (error.code === 'ENOENT') throw missingArtifact(path);
    throw new DataError(path, `cannot read: ${firstLine(error.message)}`);
  }
  const record = 4 * width;
  if (bytes.length % record !== 0) {
    throw new DataError(
      path,
      `size ${bytes.length} bytes is not a whole number of ${what}s (${record} bytes each)`,
    );
  }
  // A copy into a fresh, aligned buffer of its own.
  const values = new Float32Array(bytes.length / 4);
  new Uint8Array(values.buffer).set(bytes);
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) {
      throw new DataError(path, `${what} ${Math.floor(i / width)} is NaN or Inf`);
    }
  }
  return values;
}

/** A UsageError unless the file's samples cover the --calls x --batch the run needs. */
export function requireSamples(path, samples, options) {
  const needed = options.calls * options.batch;
  if (needed > samples) {
    throw new UsageError(
      `--calls ${options.calls} x --batch ${options.batch} needs ${needed} samples but ${path} holds ${samples}`,
    );
  }
}
