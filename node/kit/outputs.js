// outputs: writing the --outputs (each output in its dtype, one after
// another) and --latencies (int64) files, little-endian raw arrays (the
// host's order; tensors.js refuses a big-endian host).

import { writeFileSync } from 'node:fs';

import { DataError, firstLine } from './errors.js';

/** Writes int64 values (a BigInt64Array, or bigints / integers); a DataError naming the file on failure. */
export function writeInt64s(path, values) {
  writeTyped(path, values instanceof BigInt64Array ? values : BigInt64Array.from(values, BigInt));
}

/** Writes each typed array's bytes, one after another (the contract's order). */
export function writeOutputs(path, arrays) {
  try {
    writeFileSync(path, Buffer.concat(arrays.map((a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength))));
  } catch (error) {
    throw new DataError(path, `cannot write: ${firstLine(error.message)}`);
  }
}

function writeTyped(path, array) {
  try {
    writeFileSync(path, new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  } catch (error) {
    throw new DataError(path, `cannot write: ${firstLine(error.message)}`);
  }
}
