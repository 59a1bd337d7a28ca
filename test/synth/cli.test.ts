import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fakeIo as pipes } from '../support/fake-io';
import type { CliIo } from '../../src/cli/command';
import { main } from '../../src/cli/main';

// main() loads commands with a dynamic import(), which jest cannot run without VM modules:
// keep the real main() and replace only the lazy loader.
jest.mock('../../src/cli/commands', () => ({
  COMMANDS: {
    synth: () =>
      Promise.resolve(
        jest.requireActual<typeof import('../../src/cli/commands/synth')>(
          '../../src/cli/commands/synth',
        ).synthCommand,
      ),
  },
}));

const ROOT = resolve(__dirname, '..', '..');
const TSX = JSON.stringify(join(ROOT, 'node_modules', '.bin', 'tsx'));
const LIB = JSON.stringify(join(ROOT, 'src', 'index.ts'));

function fakeIo(cwd: string): { io: CliIo; out: () => string; err: () => string } {
  const env = { ...process.env };
  delete env.ZULIP_CDK_OUTDIR;
  delete env.CDKTF_OUTDIR;
  const io = pipes({ cwd, env });
  return { io, out: io.out, err: io.err };
}

const GOOD_APP = `
import { App, Organization, Channel, UserGroup } from ${LIB};
const app = new App();
for (const id of ['staging', 'production']) {
  const org = new Organization(app, id);
  const g = new UserGroup(org, 'eng', { name: 'engineering', members: ['a@example.com'] });
  new Channel(org, 'general', { name: 'general', subscribers: { groups: [g] } });
}
console.log('hello from the app');
app.synth();
`;

const BAD_APP = `
import { App, Organization, Channel, SystemGroup } from ${LIB};
const app = new App();
const org = new Organization(app, 'acme');
new Channel(org, 'secret', { name: 'secret', private: true, defaultChannel: true });
new Channel(org, 'open', { name: 'open', canSubscribeGroup: SystemGroup.EVERYONE });
app.synth();
`;

describe('zulip-cdk synth', () => {
  test('is registered with the CLI', () => {
    const real = jest.requireActual('../../src/cli/commands');
    expect(Object.keys(real.COMMANDS)).toContain('synth');
  });

  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'zulip-cdk-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('runs --app and lists where each organization went', async () => {
    writeFileSync(join(dir, 'main.ts'), GOOD_APP);
    const { io, out, err } = fakeIo(dir);
    const code = await main(['synth', '--app', `${TSX} main.ts`, '--output', 'out'], io);
    expect(err()).toContain('hello from the app');
    expect(code).toBe(0);
    expect(out()).toBe(
      [
        'production -> out/production.zulip.json (1 channel, 1 user group)',
        'staging -> out/staging.zulip.json (1 channel, 1 user group)',
        '',
      ].join('\n'),
    );
    const state = JSON.parse(readFileSync(join(dir, 'out', 'staging.zulip.json'), 'utf8'));
    expect(state.channels[0].subscribers.groups).toEqual(['engineering']);
  });

  test('defaults to app and output from ./cdktf.json', async () => {
    writeFileSync(join(dir, 'main.ts'), GOOD_APP);
    writeFileSync(
      join(dir, 'cdktf.json'),
      JSON.stringify({ language: 'typescript', app: `${TSX} main.ts`, output: 'desired' }),
    );
    const { io, out } = fakeIo(dir);
    expect(await main(['synth'], io)).toBe(0);
    expect(out()).toContain('staging -> desired/staging.zulip.json');
  });

  test('validation failures surface with their message, paths and lines, not a stack dump', async () => {
    writeFileSync(join(dir, 'main.ts'), BAD_APP);
    const { io, err } = fakeIo(dir);
    const code = await main(['synth', '--app', `${TSX} main.ts`], io);
    expect(code).toBe(1);
    expect(err()).toMatch(/^Error \[VALIDATION_FAILED\]: the configuration has 2 problems:\n/);
    // Each problem says the file and line (of the TypeScript source) that created the construct.
    expect(err()).toContain('\nacme/open (main.ts:6:1): canSubscribeGroup cannot be role:everyone');
    expect(err()).toContain('\nacme/secret (main.ts:5:1): a default channel cannot be private');
    expect(err()).not.toMatch(/^\s+at /m);
  });

  test('an app that crashes: its message without stack frames', async () => {
    writeFileSync(join(dir, 'main.ts'), "throw new Error('boom: no such thing');\n");
    const { io, err } = fakeIo(dir);
    expect(await main(['synth', '--app', `${TSX} main.ts`], io)).toBe(1);
    expect(err()).toContain('Error [APP_FAILED]');
    expect(err()).toContain('boom: no such thing');
    expect(err()).not.toMatch(/^\s+at /m);
  });

  test('an app that forgets app.synth()', async () => {
    writeFileSync(join(dir, 'main.ts'), `import { App } from ${LIB};\nnew App();\n`);
    const { io, err } = fakeIo(dir);
    expect(await main(['synth', '--app', `${TSX} main.ts`], io)).toBe(1);
    expect(err()).toContain('Error [NO_DESIRED_STATE]');
    expect(err()).toContain('call app.synth()');
  });

  test('no app and no cdktf.json is a usage error', async () => {
    const { io, err } = fakeIo(dir);
    expect(await main(['synth'], io)).toBe(1);
    expect(err()).toContain('no app to run: pass --app CMD');
  });
});
