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
