import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { DesiredState } from '../model/desired-state';
import { ZulipCdkError, foreignErrorCode } from '../model/errors';
import { ERROR_FILE_ENV } from './error-file';
import { MANIFEST_FILE, readDesiredStateFile, readManifest, removeManifest } from './manifest';

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
  /**
   * The environment to start from; the app gets it without any Zulip credential (see
   * {@link appEnvironment}), plus the output variables.
   */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Strings the app must not see (the API key, the zuliprc's path; see `credentialSecrets` in
   * `src/zulip`): variables whose value contains one are dropped.
   */
  readonly secrets?: readonly string[];
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

/** Shorter strings are not treated as secrets: they would match unrelated values. */
const MIN_SECRET_LENGTH = 6;

/**
 * The environment an app runs with: `env` without any variable named `ZULIP…` (`ZULIP_API_KEY`,
 * `ZULIP_EMAIL`, `ZULIP_SITE`, `ZULIP_CONFIG` and the rest) and without any variable whose value
 * contains one of `secrets`. Synthesizing needs no credential, and the app is the user's code
 * (in CI, possibly a pull request's), so nothing it inherits may carry one.
 *
 * `HOME` is kept: a fake home would break `npx`, `tsx`, `ts-node` and git (their caches and
 * configuration live there) and would not hide `~/.zuliprc` from code that wants it, which
 * can find the home directory from the password database. This is not a sandbox: the app runs
 * as the same user, so it can read any file that user can, `~/.zuliprc` included, and the
 * command line and environment of its parent process (`/proc/PID`). The scrubbing stops the
 * app from inheriting a credential by accident (a dependency that logs or uploads its
 * environment, a crash report); against a hostile app, keep the credential off the machine
 * that runs it, as the GitHub Actions example does.
 */
export function appEnvironment(
  env: NodeJS.ProcessEnv,
  secrets: readonly string[] = [],
): NodeJS.ProcessEnv {
  const hidden = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || /^ZULIP/i.test(name)) continue;
    if (hidden.some((s) => value.includes(s))) continue;
    out[name] = value;
  }
  return out;
}

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
 * problem), not a stack trace. The app gets no Zulip credential ({@link appEnvironment}).
 */
export async function runApp(options: RunAppOptions): Promise<RunAppResult> {
  const outdir = resolve(options.cwd, options.outdir);
  removeManifest(outdir);
  const errDir = mkdtempSync(join(tmpdir(), 'zulip-cdk-run-'));
  const errorFile = join(errDir, 'error.json');
  try {
    const env = {
      ...appEnvironment(options.env ?? process.env, options.secrets),
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
        // The code of the error the app threw: one of ours, or Zulip's own.
        throw new ZulipCdkError(foreignErrorCode(r.code), r.message, {
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
      return { id: entry.id, path: entry.path, file, state: readDesiredStateFile(file) };
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
