// tensors: contract version 3 in JavaScript. A model's named inputs and
// outputs (dtype, shape per sample), the raw file that holds each one's
// samples by the naming rule (inputs.f32, inputs1.i64, reference.f32,
// reference1.i64, ...), and reading those files. The same words as the other
// kits: a tensor, a signature of inputs and outputs, a sample shape, a dtype.
// Each tensor's samples are a typed array of its dtype (float16 as the raw
// bits in a Uint16Array, bool as a Uint8Array, int64 as a BigInt64Array), so
// a binding takes them as they are.

import { readFileSync, statSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';

import { DataError, firstLine, missingArtifact } from './errors.js';

/** dtype -> the file extension and the typed array that holds it. */
export const DTYPES = {
  float32: { extension: 'f32', Array: Float32Array },
  float16: { extension: 'f16', Array: Uint16Array },
  float64: { extension: 'f64', Array: Float64Array },
  int64: { extension: 'i64', Array: BigInt64Array },
  int32: { extension: 'i32', Array: Int32Array },
  int8: { extension: 'i8', Array: Int8Array },
  uint8: { extension: 'u8', Array: Uint8Array },
  bool: { extension: 'bool', Array: Uint8Array },
};

export const INPUTS_STEM = 'inputs';
export const REFERENCE_STEM = 'reference';

/** Bytes per value of `dtype`. */
export function dtypeBytes(dtype) {
  return DTYPES[dtype].Array.BYTES_PER_ELEMENT;
}

/** Values per sample of `tensor` ({name, dtype, shape}). */
export function sampleSize(tensor) {
  return tensor.shape.reduce((a, b) => a * b, 1);
}

/** `'x' float32 [3, 32, 32]` */
export function describe(tensor) {
  return `'${tensor.name}' ${tensor.dtype} [${tensor.shape.join(', ')}]`;
}

/** The file of tensor `index` of a stem by the naming rule: inputs.f32, reference1.i64, ... */
export function tensorFile(stem, index, dtype) {
  return `${stem}${index ? index : ''}.${DTYPES[dtype].extension}`;
}

/** A typed array of `dtype` over `bytes` (a Uint8Array on an aligned offset): no copy. */
export function typedView(bytes, dtype) {
  const { Array } = DTYPES[dtype];
  return new Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / Array.BYTES_PER_ELEMENT);
}

/** The bytes of a typed array: no copy. */
export function bytesOf(array) {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/** Index of the first value that is NaN or Inf (floats only), or -1. */
function firstNotFinite(values, dtype) {
  if (dtype === 'float16') return values.findIndex((bits) => (bits & 0x7c00) === 0x7c00);
  if (dtype === 'float32' || dtype === 'float64') return values.findIndex((v) => !Number.isFinite(v));
  return -1;
}

function readSamples(path, tensor) {
  let read;
  try {
    read = readFileSync(path);
  } catch (error) {
    if (error.code === 'ENOENT') throw missingArtifact(path);
    throw new DataError(path, `cannot read: ${firstLine(error.message)}`);
  }
  const sample = sampleSize(tensor) * dtypeBytes(tensor.dtype);
  if (read.length === 0 || read.length % sample !== 0) {
    throw new DataError(
      path,
      `size ${read.length} bytes is not a whole number of samples of '${tensor.name}' (${sample} bytes each)`,
    );
  }
  // A copy into a fresh buffer of its own: aligned for any dtype.
  const values = new DTYPES[tensor.dtype].Array(read.length / dtypeBytes(tensor.dtype));
  bytesOf(values).set(read);
  const bad = firstNotFinite(values, tensor.dtype);
  if (bad >= 0) {
    throw new DataError(path, `sample ${Math.floor(bad / sampleSize(tensor))} of '${tensor.name}' is NaN or Inf`);
  }
  return { values, count: read.length / sample };
}

/**
 * Each input's samples, from its file in `models` by the naming rule: a
 * typed array of its dtype and the sample count, checked (a whole, non-zero
 * number of samples, every float finite, the same count in every file).
 */
export function readInputs(models, signature) {
  if (endianness() !== 'LE') throw new DataError(models, 'the artifacts are little-endian; this host is not');
  const all = [];
  signature.inputs.forEach((tensor, k) => {
    const path = join(models, tensorFile(INPUTS_STEM, k, tensor.dtype));
    const samples = readSamples(path, tensor);
    if (k > 0 && samples.count !== all[0].count) {
      const first = tensorFile(INPUTS_STEM, 0, signature.inputs[0].dtype);
      throw new DataError(
        path,
        `holds ${samples.count} samples, ${first} holds ${all[0].count} (every input file holds the same samples)`,
      );
    }
    all.push(samples);
  });
  return all;
}

/**
 * A DataError about `model` unless every reference file in `models` (by the
 * naming rule) holds one sample of its output for each sample of the first
 * input's file: a model that answers another shape than the one its reference
 * was made with fails at load, naming the model. A missing or partial file is
 * left to the reading that names it.
 */
export function checkReferences(model, models, signature) {
  const size = (file) => {
    try {
      return statSync(join(models, file)).size;
    } catch {
      return undefined;
    }
  };
  const first = signature.inputs[0];
  const inputBytes = size(tensorFile(INPUTS_STEM, 0, first.dtype));
  const firstBytes = sampleSize(first) * dtypeBytes(first.dtype);
  if (inputBytes === undefined || firstBytes === 0 || inputBytes % firstBytes !== 0) return;
  const samples = inputBytes / firstBytes;
  signature.outputs.forEach((tensor, k) => {
    const file = tensorFile(REFERENCE_STEM, k, tensor.dtype);
    const bytes = size(file);
    if (bytes !== undefined && bytes !== samples * sampleSize(tensor) * dtypeBytes(tensor.dtype)) {
      throw new DataError(
        model,
        `answers ${describe(tensor)} a sample; ${join(models, file)} (${bytes} bytes) does not hold one ` +
          `for each of the ${samples} samples of the inputs`,
      );
    }
  });
}

/**
 * Fills `values` (a typed array of `dtype`) with what no call gives: NaN for
 * floats, an integer's smallest value; bool has no such value and is left.
 */
export function poison(values, dtype) {
  const fill = {
    float32: NaN,
    float64: NaN,
    float16: 0x7e00,
    int64: -(2n ** 63n),
    int32: -(2 ** 31),
    int8: -128,
    uint8: 0,
  }[dtype];
  if (fill !== undefined) values.fill(fill);
}
