import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

/** Where a command writes; tests pass their own. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Resolves when the user asks to stop (SIGINT/SIGTERM); long-running commands await it. */
  readonly interrupted?: Promise<void>;
}

export type ParsedOptions = ReturnType<typeof parseArgs>['values'];

/** One CLI command, in its own file under `src/cli/commands/`. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  /** Usage text shown by `zulip-cdk help <name>`. */
  readonly usage: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  readonly allowPositionals?: boolean;
  /** The exit code for an error the command throws (default 1). */
  exitCodeFor?(error: Error): number;
  /** Returns the exit code. */
  run(args: { values: ParsedOptions; positionals: string[]; io: CliIo }): Promise<number>;
}

/** A mistake in how the command was called: printed with usage, exit code 1. */
export class UsageError extends Error {
  public override readonly name = 'UsageError';
}

/**
 * An option that takes one of a few words (`--format text|json`): the word, or undefined when
 * the option is not given; any other value is a usage error naming the words allowed.
 */
export function oneOf<T extends string>(
  name: string,
  value: unknown,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value))
    throw new UsageError(
      `--${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`,
    );
  return value as T;
}
