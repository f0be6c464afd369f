// inputs: reading and checking inputs.f32 ([N, 2] float32 little-endian).

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { endianness } from 'node:os';

import { DataError, UsageError, firstLine, missingArtifact } from './errors.js';

export const INPUT_WIDTH = 2; // floats per sample in inputs.f32
export const OUTPUT_WIDTH = 1; // floats per sample in the outputs

/** inputs.f32: a whole number of samples, none NaN or Inf; problems are DataErrors naming the file. */
export function readInputs(path, width = INPUT_WIDTH) {
  return readFiniteFloats(path, width, 'sample');
}

/**
 * A DataError about `model` unless the artifact set in `models` fits its sample
 * widths: reference.f32 (when there) `widths.output` floats for each of the
 * samples of `widths.input` floats in inputs.f32. A driver of a model that says
 * its own sizes calls it once loaded.
 */
export function checkSampleWidths(model, models, widths) {
  const [inputsPath, referencePath] = [join(models, 'inputs.f32'), join(models, 'reference.f32')];
  if (!existsSync(inputsPath) || widths.input < 1) return; // a missing file is named when it is read
  const size = statSync(inputsPath).size;
  const sample = 4 * widths.input;
  // Not a whole number of samples: reading inputs.f32 names that file.
  if (size % sample !== 0 || size === 0 || !existsSync(referencePath)) return;
  const samples = size / sample;
  const reference = statSync(referencePath).size;
  if (reference !== samples * 4 * widths.output) {
    throw new DataError(
      model,
      `takes ${widths.input} floats a sample and answers ${widths.output}; ${referencePath} (${reference} bytes) ` +
        `does not hold ${widths.output} for each of the ${samples} samples of inputs.f32`,
    );
  }
}

/**
 * Floats per sample in and out: the model's own `sampleWidths` where it says
 * them (a user's ONNX model, --onnx), else our MLP's 2 and 1.
 */
export function sampleWidths(model) {
  return model.sampleWidths?.() ?? { input: INPUT_WIDTH, output: OUTPUT_WIDTH };
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
