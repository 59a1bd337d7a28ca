import type { IConstruct } from 'constructs';
import { ZulipCdkError } from '../model/errors';

/** One problem found by validation: where (a construct path) and what (with how to fix it). */
export interface ValidationProblem {
  /** The construct path, such as `acme/backend/channel`. */
  readonly path: string;
  /** What is wrong and how to fix it. */
  readonly message: string;
  /**
   * Where the construct was created, `file:line:column`, when synth knows it (`app.synth()`
   * and `Testing.synth` do; `Testing.validate` leaves it out).
   */
  readonly source?: string;
}

/**
 * The error synth throws when the configuration has problems: all of them at once, one per
 * line, each line starting with the construct path (then, when known, the file and line that
 * created the construct). Its `code` is `VALIDATION_FAILED`.
 */
export class ValidationError extends ZulipCdkError {
  /** Every problem, in tree order. */
  public readonly problems: readonly ValidationProblem[];

  public constructor(problems: readonly ValidationProblem[]) {
    const n = problems.length;
    super(
      'VALIDATION_FAILED',
      `the configuration has ${n} problem${n === 1 ? '' : 's'}:\n${problems
        .map((p) => `${p.path || '<root>'}${p.source ? ` (${p.source})` : ''}: ${p.message}`)
        .join('\n')}`,
      { hint: 'fix every line above; nothing was written and no request was made' },
    );
    this.name = 'ValidationError';
    this.problems = problems;
  }
}

/**
 * Runs every validation (`node.addValidation`) in the tree under `root`. `locate` gives where
 * a construct was created (`file:line:column`), for each problem's `source`.
 */
export function collectProblems(
  root: IConstruct,
  locate?: (c: IConstruct) => string | undefined,
): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  for (const c of root.node.findAll()) {
    const messages = c.node.validate();
    if (messages.length === 0) continue;
    const source = locate?.(c);
    for (const message of messages)
      problems.push(
        source === undefined
          ? { path: c.node.path, message }
          : { path: c.node.path, message, source },
      );
  }
  return problems;
}

/** Throws a {@link ValidationError} when the tree under `root` has problems. */
export function assertValid(
  root: IConstruct,
  locate?: (c: IConstruct) => string | undefined,
): void {
  const problems = collectProblems(root, locate);
  if (problems.length > 0) throw new ValidationError(problems);
}
