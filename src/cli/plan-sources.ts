import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { emptyDesiredState } from '../model/desired-state';
import type { DesiredState } from '../model/desired-state';
import type { GuardOverrides } from '../engine';
import { LiveStateSchema } from '../model/live-state';
import type { LiveState } from '../model/live-state';
import { startEmulator } from '../emulator';
import { readJsonDocument } from '../synth/json-file';
import { readDesiredStateFile } from '../synth/manifest';
import { runApp } from '../synth/run-app';
import { ZulipClient, credentialSecrets } from '../zulip';
import { readLiveState } from '../provider/read-live-state';
import { UsageError } from './command';
import type { CliIo, ParsedOptions } from './command';
import { retryLine } from './progress';

/** Shared by `plan` and `snapshot`: where the live organization comes from. */
export const LIVE_SOURCE_OPTIONS = {
  zuliprc: { type: 'string' },
  embedded: { type: 'boolean' },
  live: { type: 'string' },
} as const;

/** Whether to colour output: a terminal, and `NO_COLOR` unset or empty (no-color.org). */
export function useColor(io: CliIo): boolean {
  return io.stdout.isTTY === true && !io.env.NO_COLOR;
}

function str(values: ParsedOptions, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

/** Reads a LiveState file written by `zulip-cdk snapshot`. */
export function readLiveFile(file: string): LiveState {
  return readJsonDocument(file, {
    schema: LiveStateSchema,
    what: 'a zulip-cdk snapshot',
    unreadable: 'LIVE_STATE_UNREADABLE',
    unreadableHint: 'Make it with `zulip-cdk snapshot --out FILE`.',
    invalid: 'LIVE_STATE_INVALID',
    invalidHint: 'Make it with `zulip-cdk snapshot --out FILE` from the same zulip-cdk version.',
  });
}

/**
 * Reads the live organization through `client`, writing a line on stderr for each request the
 * client repeats (a 5xx, a dropped connection, a 429), so a slow read says why it is slow.
 */
export async function readLiveShowingRetries(client: ZulipClient, io: CliIo): Promise<LiveState> {
  const stop = client.onEvent((e) => {
    if (e.type === 'retry') io.stderr.write(`${retryLine(e)}\n`);
  });
  try {
    return await readLiveState(client);
  } finally {
    stop();
  }
}

/**
 * Reads the live organization from `--live FILE`, `--embedded` (a fresh embedded server with the
 * demo organization) or the API (`--zuliprc`, or the environment). Progress goes to stderr.
 */
export async function loadLiveState(values: ParsedOptions, io: CliIo): Promise<LiveState> {
  return (await loadLiveWithFiles(values, io)).live;
}

/** A live state and the files `wanted` named, downloaded before the connection closed. */
export interface LiveWithFiles {
  readonly live: LiveState;
  /** URL → bytes. */
  readonly files: ReadonlyMap<string, Buffer>;
  /** URL → why it could not be downloaded (a snapshot has no files). */
  readonly failed: ReadonlyMap<string, string>;
}

/**
 * {@link loadLiveState}, then downloads the files `wanted` names for that state (emoji images
 * for `import`) with the same connection, without credentials (`ZulipClient.downloadFile`).
 */
export async function loadLiveWithFiles(
  values: ParsedOptions,
  io: CliIo,
  wanted: (live: LiveState) => readonly string[] = () => [],
): Promise<LiveWithFiles> {
  const download = async (client: ZulipClient, live: LiveState): Promise<LiveWithFiles> => {
    const files = new Map<string, Buffer>();
    const failed = new Map<string, string>();
    for (const url of wanted(live)) {
      try {
        files.set(url, await client.downloadFile(url, 64 * 1024 * 1024));
      } catch (e) {
        failed.set(url, e instanceof Error ? e.message : String(e));
      }
    }
    return { live, files, failed };
  };
  const live = str(values, 'live');
  const zuliprc = str(values, 'zuliprc');
  const embedded = values.embedded === true;
  if ([live !== undefined, zuliprc !== undefined, embedded].filter(Boolean).length > 1)
    throw new UsageError('use only one of --zuliprc, --embedded and --live');
  if (live !== undefined) {
    const state = readLiveFile(path.resolve(io.cwd, live));
    const urls = wanted(state);
    return {
      live: state,
      files: new Map(),
      failed: new Map(urls.map((u) => [u, 'a snapshot (--live) holds no files'])),
    };
  }
  if (embedded) {
    const z = await startEmulator({ seed: 'demo', rateLimit: false });
    const client = ZulipClient.forEmbeddedOwner(z);
    try {
      io.stderr.write(`Reading the embedded demo organization (${z.site})...\n`);
      return await download(client, await readLiveShowingRetries(client, io));
    } finally {
      await client.close();
      await z.close();
    }
  }
  const client = ZulipClient.fromEnvironment({
    ...(zuliprc === undefined ? {} : { zuliprc: path.resolve(io.cwd, zuliprc) }),
    env: io.env,
  });
  try {
    io.stderr.write(`Reading the organization at ${client.site}...\n`);
    const state = await readLiveShowingRetries(client, io);
    io.stderr.write(`Read it in ${state.requestCount ?? '?'} requests.\n`);
    return await download(client, state);
  } finally {
    await client.close();
  }
}

/** Every `*.zulip.json` under a directory (synth output), sorted by path. */
function desiredFilesIn(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.zulip.json')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** The desired states in a synth output directory, or one desired-state file. */
export function readDesiredPath(p: string, flag: string): DesiredState[] {
  if (!existsSync(p)) throw new UsageError(`${flag}: ${p} does not exist`);
  if (statSync(p).isDirectory()) {
    const files = desiredFilesIn(p);
    if (files.length === 0) throw new UsageError(`${flag}: no *.zulip.json in ${p}`);
    return files.map(readDesiredStateFile);
  }
  return [readDesiredStateFile(p)];
}

/**
 * `--base FILE|DIR`: the desired state of the base branch for the organization being planned,
 * or an empty one (nothing declared) when the base branch does not declare it yet.
 */
export function loadBase(
  values: ParsedOptions,
  io: CliIo,
  orgId: string,
): DesiredState | undefined {
  const base = str(values, 'base');
  if (base === undefined) return undefined;
  const states = readDesiredPath(path.resolve(io.cwd, base), '--base');
  const found = states.find((s) => s.organization.id === orgId);
  if (found) return found;
  io.stderr.write(
    `--base: the base branch does not declare the organization '${orgId}': every difference is counted as this change's.\n`,
  );
  return emptyDesiredState(orgId);
}

/**
 * What the app must not see (`runApp` drops variables containing any of it): the API key and
 * the path of every zuliprc this command could read, `--zuliprc` first. The app never gets
 * `--zuliprc` itself either: it is not passed on, and credentials are read only after the app
 * has run (plan and apply synthesize first).
 */
export function appSecrets(values: ParsedOptions, io: CliIo): string[] {
  const given = str(values, 'zuliprc');
  return [
    ...(given === undefined ? [] : [given]),
    ...credentialSecrets({
      ...(given === undefined ? {} : { zuliprc: path.resolve(io.cwd, given) }),
      env: io.env,
    }),
  ];
}

/**
 * Runs the app command through synth's `runApp` into a temporary directory (a plan must not
 * overwrite the `synth` output someone may be reviewing) and returns every organization's
 * desired state. What the app prints goes to stderr, so stdout stays the plan.
 */
async function runAppCommand(
  app: string,
  io: CliIo,
  secrets: readonly string[],
): Promise<DesiredState[]> {
  const outdir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-synth-'));
  try {
    const result = await runApp({ app, outdir, cwd: io.cwd, env: io.env, secrets });
    if (result.stdout) io.stderr.write(result.stdout);
    if (result.stderr) io.stderr.write(result.stderr);
    return result.organizations.map((o) => o.state);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * The desired states to plan: `--desired FILE|DIR` (synth output), else `--app CMD`, else
 * the `app` of `zulip-cdk.json` or `cdktf.json` in the working directory.
 */
export async function loadDesiredStates(values: ParsedOptions, io: CliIo): Promise<DesiredState[]> {
  const desired = str(values, 'desired');
  if (desired !== undefined) return readDesiredPath(path.resolve(io.cwd, desired), '--desired');
  let app = str(values, 'app');
  if (app === undefined)
    for (const name of ['zulip-cdk.json', 'cdktf.json']) {
      const f = path.join(io.cwd, name);
      if (!existsSync(f)) continue;
      let cfg: { app?: unknown };
      try {
        cfg = JSON.parse(readFileSync(f, 'utf8')) as { app?: unknown };
      } catch (e) {
        throw new UsageError(`${name} is not JSON (${(e as Error).message}): fix it`);
      }
      if (typeof cfg.app === 'string') {
        app = cfg.app;
        break;
      }
      if (cfg.app !== undefined)
        throw new UsageError(
          `${name}: "app" must be the command that runs your app, as a string (such as "npx tsx main.ts"), not ${JSON.stringify(cfg.app)}`,
        );
    }
  if (app === undefined)
    throw new UsageError(
      'say what to plan: --app CMD, --desired FILE, or an `app` in zulip-cdk.json or cdktf.json',
    );
  return runAppCommand(app, io, appSecrets(values, io));
}

/**
 * Refuses `--app` together with `--desired`: both say what to plan. Called by each command
 * before anything else can fail, so that this is the error a user sees first.
 */
export function checkOneDesiredSource(values: ParsedOptions): void {
  if (values.app !== undefined && values.desired !== undefined)
    throw new UsageError('use only one of --app and --desired');
}

/** The one desired state to plan: {@link loadDesiredStates}, then {@link pickOrganization} by `--org`. */
export async function loadDesiredState(values: ParsedOptions, io: CliIo): Promise<DesiredState> {
  return pickOrganization(await loadDesiredStates(values, io), str(values, 'org'));
}

/** Picks the one organization to plan (`--org ID` when the app declares several). */
export function pickOrganization(states: DesiredState[], org: string | undefined): DesiredState {
  if (org !== undefined) {
    const s = states.find((x) => x.organization.id === org);
    if (!s)
      throw new UsageError(
        `--org ${org}: the app declares ${states.map((x) => x.organization.id).join(', ') || 'no organization'}`,
      );
    return s;
  }
  if (states.length !== 1 || !states[0])
    throw new UsageError(
      `the app declares ${states.length} organizations (${states.map((x) => x.organization.id).join(', ')}); choose one with --org`,
    );
  return states[0];
}

/** Where `apply` writes: a Zulip server (credentials), or a fresh embedded one (`--embedded`). */
export interface Connection {
  readonly client: ZulipClient;
  /** True for `--embedded`: the organization lives as long as the command. */
  readonly embedded: boolean;
  close(): Promise<void>;
}

/** Shared by `apply` and `demo`: where to write. */
export const TARGET_OPTIONS = {
  zuliprc: { type: 'string' },
  embedded: { type: 'boolean' },
} as const;

/** A client for `--zuliprc PATH`, the environment, or a fresh embedded demo organization. */
export async function connect(values: ParsedOptions, io: CliIo): Promise<Connection> {
  const zuliprc = str(values, 'zuliprc');
  if (zuliprc !== undefined && values.embedded === true)
    throw new UsageError('use only one of --zuliprc and --embedded');
  if (values.embedded === true) {
    const z = await startEmulator({ seed: 'demo' });
    const client = ZulipClient.forEmbeddedOwner(z);
    return {
      client,
      embedded: true,
      async close() {
        await client.close();
        await z.close();
      },
    };
  }
  const client = ZulipClient.fromEnvironment({
    ...(zuliprc === undefined ? {} : { zuliprc: path.resolve(io.cwd, zuliprc) }),
    env: io.env,
  });
  return { client, embedded: false, close: () => client.close() };
}

/** Shared by `plan` and `apply`: per-run overrides of the organization's guards. */
export const GUARD_OPTIONS = {
  'max-removals': { type: 'string' },
  'max-members-removed': { type: 'string' },
  'max-members-removed-percent': { type: 'string' },
  'min-members-for-percent': { type: 'string' },
  'min-owners': { type: 'string' },
  'min-administrators': { type: 'string' },
  'min-administrators-percent': { type: 'string' },
  'allow-privileged': { type: 'boolean' },
} as const;

/** The usage lines of {@link GUARD_OPTIONS}. */
export const GUARD_USAGE = `  --max-removals N      the most objects archived, deactivated or deleted (organization.maxRemovals,
                       default 10)
  --max-members-removed N
                       the most members or subscribers removed from one group or channel
  --max-members-removed-percent P
                       the most removed from one group or channel, in % of its members (default 25)
  --min-members-for-percent N
                       the percentage applies from this many members (default 4)
  --min-owners N       the fewest owners the plan may leave (default 1)
  --min-administrators N
                       the fewest administrators, owners included, the plan may leave (default 1)
  --min-administrators-percent P
                       the fewest administrators left, in % of today's (default 50)
  --allow-privileged   allow changes that give someone an administrator-level ability`;

/**
 * The guards given as flags (they override the organization's `guards` for this run), or
 * undefined when none is.
 */
export function guardOverrides(values: ParsedOptions): GuardOverrides | undefined {
  const out: Record<string, number | boolean> = {};
  const whole = (flag: string, key: string, max?: number): void => {
    const v = values[flag];
    if (typeof v !== 'string') return;
    const n = Number(v);
    const ok = v.trim() !== '' && Number.isFinite(n) && n >= 0 && (max === undefined || n <= max);
    if (!ok || (max === undefined && !Number.isInteger(n)))
      throw new UsageError(
        `--${flag} must be ${max === undefined ? 'a whole number' : `a number from 0 to ${max}`}, got '${v}'`,
      );
    out[key] = n;
  };
  whole('max-removals', 'maxRemovals');
  whole('max-members-removed', 'maxMembersRemoved');
  whole('max-members-removed-percent', 'maxMembersRemovedPercent', 100);
  whole('min-members-for-percent', 'minMembersForPercent');
  whole('min-owners', 'minOwners');
  whole('min-administrators', 'minAdministrators');
  whole('min-administrators-percent', 'minAdministratorsPercent', 100);
  if (values['allow-privileged'] === true) out.allowPrivileged = true;
  return Object.keys(out).length > 0 ? out : undefined;
}
