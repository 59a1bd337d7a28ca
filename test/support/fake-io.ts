import { PassThrough } from 'node:stream';
import type { CliIo } from '../../src/cli/command';

/** A CliIo that keeps what a command writes, for assertions. */
export interface FakeIo extends CliIo {
  out(): string;
  err(): string;
}

/** Pipes (no terminal) for stdout, stderr and stdin; `env` defaults to empty, `cwd` to the process's. */
export function fakeIo(
  o: { cwd?: string; env?: NodeJS.ProcessEnv; interrupted?: Promise<void> } = {},
): FakeIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  return {
    stdout,
    stderr,
    stdin: new PassThrough(),
    env: o.env ?? {},
    cwd: o.cwd ?? process.cwd(),
    ...(o.interrupted ? { interrupted: o.interrupted } : {}),
    out: () => out,
    err: () => err,
  };
}
