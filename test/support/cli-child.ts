/**
 * The CLI as a real child process (`node --import tsx src/cli/main.ts ...`), for tests that
 * need what only a process has: a SIGKILL at a precise point, or two applies at once. Every
 * child started here is recorded; `killChildren()` (call it in `afterEach`) kills those still
 * running, so a failed test leaves no process behind.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const MAIN = path.join(__dirname, '../../src/cli/main.ts');
const TSX = pathToFileURL(require.resolve('tsx')).href;

/** How a child ended: an exit code, or the signal that killed it. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A running `zulip-cdk` child. */
export interface CliChild {
  readonly child: ChildProcess;
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<ChildExit>;
  /** SIGKILL now (synchronous: the process runs no more code of its own). */
  kill(): void;
  /** What it wrote so far. */
  out(): string;
  err(): string;
}

const running = new Set<CliChild>();

/**
 * Starts `zulip-cdk ARGS` in `cwd` with exactly `env` (plus PATH), stdin closed. Secrets are
 * passed in `env` only, never in arguments.
 */
export function spawnCli(
  args: readonly string[],
  o: { cwd: string; env: NodeJS.ProcessEnv },
): CliChild {
  const child = spawn(process.execPath, ['--import', TSX, MAIN, ...args], {
    cwd: o.cwd,
    env: { PATH: process.env.PATH, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<ChildExit>((resolve) => {
    child.once('error', () => resolve({ code: null, signal: null }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const handle: CliChild = {
    child,
    // stdout and stderr are read to their end, so out() and err() are whole after exit.
    exited: exited.then(async (e) => {
      await Promise.all(
        [child.stdout, child.stderr].map(
          (s) =>
            new Promise<void>((r) => (s.readableEnded || s.destroyed ? r() : s.once('close', r))),
        ),
      );
      running.delete(handle);
      return e;
    }),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    out: () => out,
    err: () => err,
  };
  running.add(handle);
  return handle;
}

/** Kills every child still running and waits for them to exit. */
export async function killChildren(): Promise<void> {
  const left = [...running];
  for (const c of left) c.kill();
  await Promise.all(left.map((c) => c.exited));
}
