/**
 * The package as users get it: `npm pack` of a fresh build, the tarball
 * unpacked into `node_modules/zulip-cdk` of an empty project, and that project's own jest test
 * importing every entry point by its public name (`zulip-cdk/client`, `zulip-cdk/emulator`,
 * `zulip-cdk/testing`, `zulip-cdk/watch`, `zulip-cdk/schema/plan.json`) and planning and applying
 * against the embedded server. Dependencies are linked from this repository's node_modules
 * rather than downloaded, so the test needs no network.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

/** The fresh project's jest test: what a user writes. CommonJS, so jest needs no transform. */
const USER_TEST = String.raw`
const { App, Channel, Organization, SystemGroup, UserGroup } = require('zulip-cdk');
const { ZulipClient, parseOutgoingWebhook } = require('zulip-cdk/client');
const { startEmulator } = require('zulip-cdk/emulator');
const { Testing, planJsonSchema } = require('zulip-cdk/testing');
const { watchDrift } = require('zulip-cdk/watch');
const planSchema = require('zulip-cdk/schema/plan.json');
const desiredSchema = require('zulip-cdk/schema/desired-state.json');
const Ajv2020 = require('ajv/dist/2020').default;

function organization() {
  const org = Testing.organization('acme');
  const eng = new UserGroup(org, 'eng', { name: 'eng', members: ['alice@zulip-cdk.example'] });
  new Channel(org, 'announce', {
    name: 'announce',
    canSendMessageGroup: SystemGroup.ADMINISTRATORS,
    canResolveTopicsGroup: eng,
  });
  return org;
}

let z;
beforeAll(async () => {
  z = await startEmulator({ seed: 'demo', rateLimit: false, heartbeatMs: 500 });
});
afterAll(() => z.close());

test('plans and applies against the embedded server', async () => {
  const org = organization();
  const plan = await Testing.plan(org, { emulator: z });
  expect(plan.changes.map((c) => c.address)).toEqual(
    expect.arrayContaining(['userGroup["eng"]', 'channel["announce"]']),
  );
  const ajv = new Ajv2020({ strict: false });
  expect(ajv.validate(planSchema, JSON.parse(JSON.stringify(plan)))).toBe(true);
  expect(ajv.validate(desiredSchema, Testing.synth(org))).toBe(true);
  expect(planSchema).toEqual(planJsonSchema());
  const { result, converged } = await Testing.planAndApply(org, { emulator: z });
  expect(result.outcome).toBe('applied');
  expect(converged).toBe(true);
  expect(z.org.channels.some((c) => c.name === 'announce')).toBe(true);
  // A fresh demo organization each time without an emulator of one's own.
  expect((await Testing.plan(organization())).changes.length).toBeGreaterThan(0);
});

test('the typed client: register, GET /events, DELETE /events', async () => {
  const client = ZulipClient.forEmbeddedOwner(z);
  try {
    const reg = await client.register({ event_types: ['saved_snippets'] });
    expect(typeof reg.queue_id).toBe('string');
    await client.createSavedSnippet({ title: 'hello', content: 'world' });
    const { events } = await client.getEvents({ queue_id: reg.queue_id, last_event_id: -1 });
    expect(events.map((e) => e.type + '/' + e.op)).toEqual(['saved_snippets/add']);
    await client.deleteEventQueue(reg.queue_id);
    expect(() => parseOutgoingWebhook({ token: 'x' }, 'y')).toThrow();
  } finally {
    await client.close();
  }
});

test('watchDrift reports a hand change', async () => {
  const desired = Testing.synth(organization());
  const client = ZulipClient.forEmbeddedOwner(z);
  const controller = new AbortController();
  const seen = [];
  const watching = watchDrift({
    client,
    desired,
    signal: controller.signal,
    onEvent: (e) => {
      seen.push(e);
      if (e.type === 'drift') controller.abort();
    },
  });
  while (!seen.some((e) => e.type === 'watching')) await new Promise((r) => setTimeout(r, 20));
  const id = z.org.channels.find((c) => c.name === 'announce').id;
  const everyone = z.org.groups.find((g) => g.name === 'role:everyone').id;
  const owner = ZulipClient.forEmbeddedOwner(z);
  await owner.updateStream(id, { can_send_message_group: { new: everyone } });
  await owner.close();
  await watching;
  await client.close();
  expect(seen.find((e) => e.type === 'drift')).toMatchObject({
    address: 'channel["announce"]',
    path: 'acme/announce',
    property: 'permissions.canSendMessageGroup',
  });
});
`;

/** The TypeScript a user writes: the types of every entry point resolve through `exports`. */
const USER_TS = `
import { Channel, SystemGroup } from 'zulip-cdk';
import { ZulipClient, type GetEventsResponse } from 'zulip-cdk/client';
import { startEmulator, type EmulatorOptions } from 'zulip-cdk/emulator';
import { Testing, type Plan } from 'zulip-cdk/testing';
import { watchDrift, type WatchEvent } from 'zulip-cdk/watch';

export async function check(): Promise<void> {
  const options: EmulatorOptions = { seed: 'empty', featureLevel: 442 };
  const z = await startEmulator(options);
  const org = Testing.organization('acme');
  new Channel(org, 'announce', { name: 'announce', canSendMessageGroup: SystemGroup.ADMINISTRATORS });
  const plan: Plan = await Testing.plan(org, { emulator: z });
  const client = ZulipClient.forEmbeddedOwner(z);
  const events: GetEventsResponse = await client.getEvents({ queue_id: 'q', last_event_id: -1 });
  const seen: WatchEvent[] = [];
  await watchDrift({ client, desired: plan.desired, onEvent: (e) => void seen.push(e) });
  void events;
}
`;

/** Whether dist/ was built after the last change to src/ and package.json. */
function isBuildFresh(): boolean {
  let built: number;
  try {
    built = statSync(path.join(ROOT, 'dist', 'index.js')).mtimeMs;
  } catch {
    return false;
  }
  const newest = (p: string): number => {
    const s = statSync(p);
    if (!s.isDirectory()) return s.mtimeMs;
    return Math.max(s.mtimeMs, ...readdirSync(p).map((n) => newest(path.join(p, n))));
  };
  return (
    newest(path.join(ROOT, 'src')) < built && newest(path.join(ROOT, 'tsconfig.build.json')) < built
  );
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-pack-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('npm pack: an empty project imports every entry point, and its jest test plans and applies', async () => {
  // `npm pack` would run `prepare` (the build). `npm ci` has just built dist/ in CI, so build
  // only when a source file is newer than the build (a local run after an edit).
  if (!isBuildFresh()) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  ) as { filename: string; files: { path: string }[] }[];
  const files = packed[0]!.files.map((f) => f.path);
  expect(files).toEqual(
    expect.arrayContaining([
      'schema/plan.schema.json',
      'schema/desired-state.schema.json',
      'dist/testing/index.js',
      'dist/zulip/index.d.ts',
    ]),
  );
  expect(files.filter((f) => f.startsWith('test/') || f.startsWith('src/'))).toEqual([]);

  const project = path.join(dir, 'project');
  const installed = path.join(project, 'node_modules', 'zulip-cdk');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', [
    '-xzf',
    path.join(dir, packed[0]!.filename),
    '-C',
    installed,
    '--strip-components=1',
  ]);
  // The package's dependencies (and the test's own tools) from this repository: no download.
  for (const dep of [...Object.keys(pkg.dependencies), 'ajv', 'typescript', '@types/node']) {
    mkdirSync(path.dirname(path.join(project, 'node_modules', dep)), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', dep), path.join(project, 'node_modules', dep));
  }
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'fresh', private: true }),
  );
  writeFileSync(
    path.join(project, 'jest.config.js'),
    "module.exports = { testEnvironment: 'node', transform: {}, testTimeout: 30000 };\n",
  );
  writeFileSync(path.join(project, 'user.test.js'), USER_TEST);
  writeFileSync(path.join(project, 'user.ts'), USER_TS);
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'node16',
        moduleResolution: 'node16',
        target: 'es2022',
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      files: ['user.ts'],
    }),
  );

  // The user's jest test and the type check, side by side.
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, args, {
      cwd: project,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    }).then(
      (r) => ({ status: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({
        status: e.code ?? 1,
        stdout: e.stdout ?? '',
        stderr: e.stderr ?? '',
      }),
    );
  const [jest, tsc] = await Promise.all([
    run([path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci']),
    run([path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project]),
  ]);
  // On failure, what the user would see is the message.
  if (jest.status !== 0) throw new Error(`the user's jest test failed:\n${jest.stderr}`);
  expect(jest.stderr).toMatch(/Tests:\s+3 passed, 3 total/);
  if (tsc.status !== 0) throw new Error(`the user's TypeScript does not compile:\n${tsc.stdout}`);

  // ESM users: named imports of the CommonJS build.
  const esm = spawnSync(
    process.execPath,
    [
      '--no-warnings',
      '--input-type=module',
      '-e',
      "import { Testing } from 'zulip-cdk/testing'; import { startEmulator } from 'zulip-cdk/emulator'; " +
        "import schema from 'zulip-cdk/schema/plan.json' with { type: 'json' }; " +
        'console.log(typeof Testing.plan, typeof startEmulator, schema.title);',
    ],
    { cwd: project, encoding: 'utf8' },
  );
  expect(esm.stderr).toBe('');
  expect(esm.stdout).toMatch(/^function function zulip-cdk plan/);
}, 240_000);
