// inputs: checking that the inputs hold the samples a run needs (they are
// read by their signature: tensors.js's readInputs).

import { UsageError } from './errors.js';

/** A UsageError unless the file's samples cover the --calls x --batch the run needs. */
export function requireSamples(path, samples, options) {
  const needed = options.calls * options.batch;
  if (needed > samples) {
    throw new UsageError(
      `--calls ${options.calls} x --batch ${options.batch} needs ${needed} samples but ${path} holds ${samples}`,
    );
  }
}
