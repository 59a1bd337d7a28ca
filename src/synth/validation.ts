import type { IConstruct } from 'constructs';
import { ZulipCdkError } from '../model/errors';

/** One problem found by validation: where (a construct path) and what (with how to fix it). */
export interface ValidationProblem {
  /** The construct path, such as `acme/backend/channel`. */
  readonly path: string;
  /** What is wrong and how to fix it. */
  readonly message: string;
}

/**
 * The error synth throws when the configuration has problems: all of them at once, one per
 * line, each line starting with the construct path. Its `code` is `VALIDATION_FAILED`.
 */
export class ValidationError extends ZulipCdkError {
  /** Every problem, in tree order. */
  public readonly problems: readonly ValidationProblem[];

  public constructor(problems: readonly ValidationProblem[]) {
    const n = problems.length;
    super(
      'VALIDATION_FAILED',
      `the configuration has ${n} problem${n === 1 ? '' : 's'}:\n${problems
        .map((p) => `${p.path || '<root>'}: ${p.message}`)
        .join('\n')}`,
      { hint: 'fix every line above; nothing was written and no request was made' },
    );
    this.name = 'ValidationError';
    this.problems = problems;
  }
}

/** Runs every validation (`node.addValidation`) in the tree under `root`. */
export function collectProblems(root: IConstruct): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  for (const c of root.node.findAll()) {
    for (const message of c.node.validate()) problems.push({ path: c.node.path, message });
  }
  return problems;
}

/** Throws a {@link ValidationError} when the tree under `root` has problems. */
export function assertValid(root: IConstruct): void {
  const problems = collectProblems(root);
  if (problems.length > 0) throw new ValidationError(problems);
}
