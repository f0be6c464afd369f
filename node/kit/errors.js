// errors: the two kinds of failure the driver contract tells apart, and how
// they become one line on stderr and an exit status.

/** The driver was invoked wrongly (bad option, too few samples, a bad command in serve mode): exit 2. */
export class UsageError extends Error {
  constructor(problem) {
    super(problem);
    this.name = 'UsageError';
  }
}

/**
 * A file the driver reads is missing, malformed or does not load, or the
 * runtime fails during a round: exit 1. `path` names the file (or, for a
 * setting, the environment variable) the problem is about.
 */
export class DataError extends Error {
  constructor(path, problem) {
    super(`${path}: ${problem}`);
    this.name = 'DataError';
    this.path = path;
    this.problem = problem;
  }
}

/** The error for an artifact that is not there. */
export function missingArtifact(path) {
  return new DataError(path, 'missing; run `nox -s export` first');
}

/** The first non-blank line of a (library's, often multi-line) message. */
export function firstLine(text) {
  for (const line of String(text).split('\n')) {
    const trimmed = line.trimEnd();
    if (trimmed !== '') return trimmed;
  }
  return 'unknown error';
}

/**
 * Writes `error` as the contract's one line through `writeErr` and returns
 * the exit status: 2 for a UsageError, 1 for anything else. With `debug` the
 * stack of an unexpected error goes first.
 */
export function report(writeErr, id, error, debug) {
  if (error instanceof UsageError) {
    writeErr(`${id}: usage: ${firstLine(error.message)}\n`);
    return 2;
  }
  if (debug && !(error instanceof DataError)) {
    writeErr(`${error?.stack ?? error}\n`);
  }
  const message = error instanceof Error ? error.message : String(error);
  writeErr(`${id}: error: ${firstLine(message)}\n`);
  return 1;
}
