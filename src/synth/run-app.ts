import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { DesiredStateSchema } from '../model/desired-state';
import type { DesiredState } from '../model/desired-state';
import { ZulipCdkError } from '../model/errors';
import { ERROR_FILE_ENV } from './error-file';
import { MANIFEST_FILE, readManifest, removeManifest } from './manifest';

/** The environment variable that tells an app where to write (see `App`). */
export const OUTDIR_ENV_NAME = 'ZULIP_CDK_OUTDIR';

/** How to run an app. */
export interface RunAppOptions {
  /** The shell command that runs the app, such as `npx tsx main.ts`. */
  readonly app: string;
  /** The output directory, relative to `cwd` or absolute. */
  readonly outdir: string;
  /** Where to run the command. */
  readonly cwd: string;
  /** The environment of the command (the output variables are added). */
  readonly env?: NodeJS.ProcessEnv;
  /** Stop the app after this many milliseconds. @default 300000 */
  readonly timeoutMs?: number;
}

/** One organization's synthesized desired state. */
export interface SynthesizedOrganization {
  /** The organization's id (its construct id). */
  readonly id: string;
  /** Construct path. */
  readonly path: string;
  /** Absolute path of the desired-state file. */
  readonly file: string;
  /** The desired state read back from the file. */
  readonly state: DesiredState;
}

/** What running an app produced. */
export interface RunAppResult {
  /** The absolute output directory. */
  readonly outdir: string;
  /** Every organization the app synthesized, as the manifest lists them. */
  readonly organizations: readonly SynthesizedOrganization[];
  /** What the app printed on its standard output. */
  readonly stdout: string;
  /** What the app printed on its standard error. */
  readonly stderr: string;
}

const ReportedErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  where: z.string().optional(),
  hint: z.string().optional(),
});

/** Node's report of an uncaught error, without stack frames and the version footer. */
function withoutStack(stderr: string): string {
  return stderr
    .split('\n')
    .filter((l) => !/^\s+at\s/.test(l) && !/^Node\.js v\d/.test(l))
    .join('\n')
    .trim();
}

/**
 * Runs an app (a shell command) that synthesizes with `App.synth()` or cdktf's `app.synth()`,
 * then reads the manifest and the desired states it wrote. Errors of the app come back as a
 * `ZulipCdkError` with the app's own message (for example `VALIDATION_FAILED` with every
 * problem), not a stack trace.
 */
export async function runApp(options: RunAppOptions): Promise<RunAppResult> {
  const outdir = resolve(options.cwd, options.outdir);
  removeManifest(outdir);
  const errDir = mkdtempSync(join(tmpdir(), 'zulip-cdk-run-'));
  const errorFile = join(errDir, 'error.json');
  try {
    const env = {
      ...(options.env ?? process.env),
      [OUTDIR_ENV_NAME]: outdir,
      CDKTF_OUTDIR: outdir,
      [ERROR_FILE_ENV]: errorFile,
    };
    const { code, stdout, stderr } = await run(options.app, options.cwd, env, options.timeoutMs);
    if (existsSync(errorFile)) {
      const reported = ReportedErrorSchema.safeParse(
        JSON.parse(readFileSync(errorFile, 'utf8')) as unknown,
      );
      if (reported.success) {
        const r = reported.data;
        throw new ZulipCdkError(r.code, r.message, {
          ...(r.where !== undefined && { where: r.where }),
          ...(r.hint !== undefined && { hint: r.hint }),
        });
      }
    }
    if (code !== 0) {
      throw new ZulipCdkError(
        'APP_FAILED',
        `the app \`${options.app}\` failed (${code === null ? 'killed' : `exit code ${code}`}):\n${withoutStack(stderr) || '(no output on stderr)'}`,
        { hint: 'run the command yourself to see the full output' },
      );
    }
    const manifest = readManifest(outdir);
    if (!manifest) {
      throw new ZulipCdkError(
        'NO_DESIRED_STATE',
        `the app \`${options.app}\` ran but wrote no ${MANIFEST_FILE} to ${outdir}`,
        {
          hint: 'call app.synth() at the end of the app, and do not pass an outdir to App (the CLI sets it through ZULIP_CDK_OUTDIR)',
        },
      );
    }
    const organizations = manifest.organizations.map((entry) => {
      const file = join(outdir, entry.file);
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(file, 'utf8'));
      } catch (e) {
        throw new ZulipCdkError('NO_DESIRED_STATE', `cannot read ${file}`, { cause: e });
      }
      const parsed = DesiredStateSchema.safeParse(raw);
      if (!parsed.success) {
        throw new ZulipCdkError('BAD_DESIRED_STATE', `${file} is not a valid desired state`, {
          hint: 'synthesize it with the same zulip-cdk version',
        });
      }
      return { id: entry.id, path: entry.path, file, state: parsed.data };
    });
    return { outdir, organizations, stdout, stderr };
  } finally {
    rmSync(errDir, { recursive: true, force: true });
  }
}

function run(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 300_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, { cwd, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(
        new ZulipCdkError('APP_FAILED', `cannot run the app \`${command}\`: ${e.message}`, {
          cause: e,
        }),
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}
